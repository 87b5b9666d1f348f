import type { certificateChannels } from '../../shared/bridge/channels/certificates'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** Bridge handlers of this area (see src/shared/bridge/channels/certificates.ts). */
export function certificateHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof certificateChannels> {
  void context
  return {}
}
