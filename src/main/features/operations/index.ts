import type { operationChannels } from '../../../shared/bridge/channels/operations'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import { createOperationsStore } from '../../cache/operations'
import type { DeskContext } from '../context'
import { databaseHandlers } from './databases'
import { orderHandlers } from './orders'
import { statusPageHandlers } from './status-page'

/*
 * Bridge handlers of the remaining operations (see src/shared/bridge/channels/operations.ts).
 * The one-shot operations of this area (ops 4, 14, 17, 19, 20, 22) need nothing kept and go
 * through `service.call`, which validates and records them.
 */
export function operationHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof operationChannels> {
  const store = createOperationsStore(context.cache)
  return {
    ...statusPageHandlers(context, store),
    ...databaseHandlers(context, store),
    ...orderHandlers(context, store),
  }
}
