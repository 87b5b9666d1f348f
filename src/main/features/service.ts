import { operations } from '../../shared/api'
import type { OperationName } from '../../shared/api'
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
 * so `infradesk call` is no way around the console's confirmations.
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
      // A statement is judged as the console's are; a body without one is the contract's to
      // refuse (the client checks it before anything is sent).
      const sql = sqlOf(body)
      if (name === 'runPostgresQuery' && sql !== null) {
        await guardSql({ profileId, databaseId: params['id'] ?? '', sql, confirmedWrite })
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

function sqlOf(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null
  const sql = (body as { sql?: unknown }).sql
  return typeof sql === 'string' ? sql : null
}
