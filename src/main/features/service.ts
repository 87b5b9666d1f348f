import { operations } from '../../shared/api'
import type { OperationName } from '../../shared/api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { targetIdOf, withProfileClient } from './context'
import { recordedCall } from './recorded'

/*
 * Any of the 22 operations by name. The client validates params, query and body against the
 * service contract before anything leaves (VALIDATION_ERROR with the field's path), and every
 * operation that changes something is written to the activity log, success or failure.
 */
export function serviceHandlers(context: DeskContext): Pick<BridgeHandlers, 'service.call'> {
  return {
    async 'service.call'({ profileId, operation, params, query, body }) {
      // The contract's enum already limited `operation` to the operations' names.
      const name = operation as OperationName
      const input = { params, query, ...(body === undefined ? {} : { body }) }
      // Only what changes something is written to the activity log.
      if (!operations[name].mutates) {
        const answer: unknown = await withProfileClient(context, profileId, (client) =>
          client.call(name, input),
        )
        return answer
      }
      const answer: unknown = await recordedCall(context, profileId, name, {
        input: input,
        target: targetIdOf(params),
      })
      return answer
    },
  }
}
