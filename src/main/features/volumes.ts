import type { volumeChannels } from '../../shared/bridge/channels/volumes'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** Bridge handlers of this area (see src/shared/bridge/channels/volumes.ts). */
export function volumeHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof volumeChannels> {
  void context
  return {}
}
