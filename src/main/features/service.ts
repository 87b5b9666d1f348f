import { operations } from '../../shared/api'
import type { OperationName } from '../../shared/api'
import { checkCallInput } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { targetIdOf, withProfileClient } from './context'
import { recordedCall } from './recorded'
import type { SqlFeature } from './sql'

/*
 * Any of the 22 operations by name. The client validates params, query and body against the
 * service contract before anything leaves (VALIDATION_ERROR with the field's path), and every
 * operation that changes something is written to the activity log, success or failure.
 * runPostgresQuery's statement goes through the SQL console's guard first (features/sql/guard.ts),
 * so `infradesk call` is no way around the console's confirmations; its request is checked
 * against the contract before that, so the guard only ever judges one that could be sent.
 */
export function serviceHandlers(
  context: DeskContext,
  { guardSql }: { guardSql: SqlFeature['guardServiceCall'] },
): Pick<BridgeHandlers, 'service.call'> {
  return {
    async 'service.call'({ profileId, operation, params, query, body, confirmedWrite }) {
      // The contract's enum already limited `operation` to the operations' names.
      const name = operation as OperationName
      const input = { params, query, ...(body === undefined ? {} : { body }) }
      if (name === 'runPostgresQuery') {
        // Checked against the contract first: a missing or empty database id (or a body without
        // a statement) is refused naming its field, before the guard judges a statement for a
        // database that is not there (its refusals would be about the statement instead).
        const checked = checkCallInput(name, input)
        // Then judged as the console's statements are.
        if (checked.body !== undefined) {
          const { sql } = checked.body
          await guardSql({ profileId, databaseId: checked.params.id, sql, confirmedWrite })
        }
      }
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
