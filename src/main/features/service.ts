import { operations } from '../../shared/api'
import type { OperationName } from '../../shared/api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { recordActivity, requireProfile, targetIdOf, withProfileClient } from './context'

/*
 * Any of the 22 operations by name. The client validates params, query and body against the
 * service contract before anything leaves (VALIDATION_ERROR with the field's path), and every
 * operation that changes something is written to the activity log, success or failure.
 */
export function serviceHandlers(context: DeskContext): Pick<BridgeHandlers, 'service.call'> {
  return {
    async 'service.call'({ profileId, operation, params, query, body }) {
      const profile = requireProfile(context, profileId)
      // The contract's enum already limited `operation` to the operations' names.
      const name = operation as OperationName
      const input = { params, query, ...(body === undefined ? {} : { body }) }
      const mutates = operations[name].mutates
      const targetId = targetIdOf(params)
      try {
        const answer: unknown = await withProfileClient(context, profileId, (client) =>
          client.call(name, input),
        )
        if (mutates) recordActivity(context, profile, name, targetId, { message: null })
        return answer
      } catch (error) {
        if (mutates) recordActivity(context, profile, name, targetId, { error })
        throw error
      }
    },
  }
}
