import type { operationChannels } from '../../shared/bridge/channels/operations'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** Bridge handlers of this area (see src/shared/bridge/channels/operations.ts). */
export function operationHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof operationChannels> {
  void context
  return {}
}
