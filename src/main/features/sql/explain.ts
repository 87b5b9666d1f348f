import { APP_ERROR_CODES } from '../../../shared/bridge'
import { ServiceError } from '../../api'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import { loadPgParser, parseText, splitSqlLoaded } from '../../sql-guard'
import { explainPrefixOf } from '../../sql-guard/plan'
import type { ParsedResult } from '../../sql/parse-result'
import { requireProfile } from '../context'
import { guard } from './guard'
import type { SqlHub } from './hub'
import { shiftPosition } from './send'

/*
 * `sql.explain`: EXPLAIN (FORMAT JSON) of one statement, guarded as the EXPLAIN it sends (with
 * ANALYZE the statement runs, and counts as the write it is); the plan comes back as JSON.
 */

export function sqlExplainHandler(hub: SqlHub): Pick<BridgeHandlers, 'sql.explain'> {
  const { context } = hub
  const { send } = hub.sender
  return {
    async 'sql.explain'(input) {
      const profile = requireProfile(context, input.profileId)
      const prefix = explainPrefixOf(input.analyze)
      const sql = prefix + input.sql
      await loadPgParser()
      // The one parse of the text sent: counted here, judged by the guard, read by the send. The
      // prefix holds no `;`, so the EXPLAIN text has as many statements as the user's.
      const parsedText = parseText(sql)
      const count = splitSqlLoaded(sql, parsedText).length
      if (count > 1) {
        // EXPLAIN plans one statement; the service would run the others as they are.
        throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
          details: [
            { path: 'sql', message: `EXPLAIN takes one statement; this text holds ${count}` },
          ],
        })
      }
      const guarded = await guard(hub, profile, sql, input, parsedText)
      try {
        const { parsed, elapsedMs } = await send(
          profile,
          { ...input, sql, maxRows: 1 },
          { history: true, parsed: guarded.parsed },
        )
        return { plan: planOf(parsed), elapsedMs }
      } catch (error) {
        throw shiftPosition(error, prefix.length)
      }
    },
  }
}

function planOf(parsed: ParsedResult): unknown {
  const value = parsed.rows[0]?.[0]
  if (typeof value !== 'string') return value ?? null
  try {
    return JSON.parse(value) as unknown
  } catch {
    throw new ServiceError(APP_ERROR_CODES.BAD_RESPONSE, 'The plan EXPLAIN answered is not JSON')
  }
}
