import type { sqlChannels } from '../../shared/bridge/channels/sql'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** Bridge handlers of this area (see src/shared/bridge/channels/sql.ts). */
export function sqlHandlers(context: DeskContext): Pick<BridgeHandlers, keyof typeof sqlChannels> {
  void context
  return {}
}
