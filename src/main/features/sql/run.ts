import { setImmediate as nextTurn } from 'node:timers/promises'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { APP_ERROR_CODES } from '../../../shared/bridge'
import { SQL_ERROR_CODES, type SqlResultMeta } from '../../../shared/bridge/channels/sql'
import { isServiceError, ServiceError } from '../../api'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import { readFirstPageOfBytes } from '../../sql/first-page'
import type { ParsedResult } from '../../sql/parse-result'
import { statementLimitRefusal } from '../../sql/read-only-wrap'
import { ResultStore } from '../../sql/result-store'
import type { ParsedText } from '../../sql-guard'
import type { DisplayRows } from '../../workers/sql-worker-client'
import type { StoredProfile } from '../../profiles'
import { bridgeErrorOf, requireProfile } from '../context'
import { guard, type Guarded } from './guard'
import type { SqlHub } from './hub'
import { FIRST_ROWS, round, type RowRequest } from './send'

/*
 * Running statements (`sql.run`, a transaction block's `sql.runBlock`) and cancelling them
 * (`sql.cancel`). Every result is kept in the SQL worker; the renderer gets its meta and first
 * rows, and reads the rest by window (results.ts).
 */

export function sqlRunHandlers(
  hub: SqlHub,
): Pick<BridgeHandlers, 'sql.run' | 'sql.runBlock' | 'sql.cancel'> {
  const { context, runs, pending } = hub
  const { request, keepInWorker } = hub.sender
  const { serviceOf, refuseOverLimit } = hub.services
  const results = () => hub.results()

  /**
   * Every result is parsed and kept in the SQL worker (workers/sql-worker.ts). A big answer's
   * first rows go back at once, read from a head of its bytes; the rest is parsed in the worker
   * after the reply has left (setImmediate), and `sql.result.completed` tells the renderer the
   * exact counts. Windows, sorting, copying and saving of that result wait for it.
   */
  async function runWithFirstPage(
    profile: StoredProfile,
    input: Guarded & { sql: string; maxRows: number; tabId: string },
    parsed: ParsedText,
  ): Promise<SqlResultMeta> {
    const { body, receivedAt, started, finish, rows, wrapped } = await request(profile, input, {
      history: true,
      parsed,
    })
    const parsing = performance.now()
    const id = randomUUID()
    // A `results[]` answer is at most 768 KiB on a real deployment: parsed whole.
    const early = serviceOf(profile.id).splits ? null : readFirstPageOfBytes(body, FIRST_ROWS)
    if (early === null || early.complete) {
      const kept = await keepInWorker(id, input, body, finish, { wrapped })
      const parseMs = round(performance.now() - parsing)
      const elapsedMs = finish({ parsed: kept.summary })
      const timing = { elapsedMs, parseMs, receivedAt }
      return metaOf(id, kept.summary, kept.summary.rows, rows, timing, kept.firstRows, true)
    }
    const parseMs = round(performance.now() - parsing)
    const head = early.result
    // Until the whole answer is read: the service's count, within the rows asked.
    const limit = rows.maxRows ?? Number.POSITIVE_INFINITY
    const truncated = head.truncated || (head.rowCount ?? 0) > limit
    const estimate = {
      ...head,
      truncated,
      truncatedBy: truncated ? (head.truncatedBy ?? 'rows') : null,
    }
    const estimatedRows = Math.max(
      head.rows.length,
      Math.min(head.rowCount ?? head.rows.length, limit),
    )
    const completion = nextTurn().then(async () => {
      const resumed = performance.now()
      try {
        const { summary } = await results().keep(id, input, body, 0)
        const total = finish({ parsed: summary })
        context.events.emit('sql.result.completed', {
          resultId: id,
          rows: summary.rows,
          rowCount: summary.rowCount,
          truncated: summary.truncated,
          durationMs: summary.durationMs,
          elapsedMs: total,
          parseMs: round(parseMs + performance.now() - resumed),
          error: null,
        })
      } catch (error) {
        finish({ error })
        void results()
          .release([id])
          .catch(() => undefined)
        context.events.emit('sql.result.completed', {
          resultId: id,
          rows: 0,
          rowCount: null,
          truncated: false,
          durationMs: null,
          elapsedMs: 0,
          parseMs: 0,
          error: bridgeErrorOf(context, error),
        })
      }
    })
    pending.set(id, completion)
    void completion.finally(() => pending.delete(id))
    const elapsedMs = round(performance.now() - started)
    const timing = { elapsedMs, parseMs, receivedAt }
    const firstRows = displayRowsOf(head, FIRST_ROWS)
    return metaOf(id, estimate, estimatedRows, rows, timing, firstRows, false)
  }

  /**
   * A transaction block in one request, so that a service that runs each statement on whichever
   * pooled connection is free runs the whole block on one. Each statement's result is kept
   * apart (the worker reads result `i` of the answer); a service that answers one result for
   * the text gives the last statement's, and the others are null.
   */
  async function runBlockInOneRequest(
    profile: StoredProfile,
    input: Guarded & { sql: string; statements: string[]; maxRows: number; tabId: string },
    parsed: ParsedText,
  ): Promise<(SqlResultMeta | null)[]> {
    const count = input.statements.length
    refuseOverLimit(profile.id, count, false)
    let answer: Awaited<ReturnType<typeof request>>
    try {
      answer = await request(profile, input, { history: true, parsed })
    } catch (error) {
      throw explainBlockFailure(error, count)
    }
    const { body, receivedAt, started, finish, rows } = answer
    const parsing = performance.now()
    const split = serviceOf(profile.id).splits === true
    const metas: (SqlResultMeta | null)[] = []
    const kept: string[] = []
    try {
      for (let index = 0; index < count; index += 1) {
        if (!split && index < count - 1) {
          metas.push(null)
          continue
        }
        const id = randomUUID()
        // The worker takes the bytes it is given: each result gets a copy of the answer.
        const copy = Buffer.from(body)
        const result = await keepInWorker(id, input, copy, finish, split ? { pick: index } : {})
        kept.push(id)
        const timing = {
          elapsedMs: round(performance.now() - started),
          parseMs: round(performance.now() - parsing),
          receivedAt,
        }
        const meta = metaOf(
          id,
          result.summary,
          result.summary.rows,
          rows,
          timing,
          result.firstRows,
          true,
        )
        if (!split) {
          meta.notes.push(
            `The service answered one result for the block's ${count} statements: this is the last one's; the others ran without a result shown.`,
          )
        }
        metas.push(meta)
      }
    } catch (error) {
      void results()
        .release(kept)
        .catch(() => undefined)
      throw error
    }
    const last = metas[metas.length - 1]
    if (last) finish({ parsed: last })
    return metas
  }

  function metaOf(
    resultId: string,
    summary: Omit<ParsedResult, 'rows'>,
    keptRows: number,
    rows: RowRequest,
    timing: { elapsedMs: number; parseMs: number; receivedAt: number },
    firstRows: DisplayRows,
    complete: boolean,
  ): SqlResultMeta {
    return {
      resultId,
      command: summary.command,
      rowCount: summary.rowCount,
      rows: keptRows,
      fields: summary.fields,
      truncated: summary.truncated,
      truncatedBy: summary.truncatedBy,
      maxRows: rows.maxRows,
      rowLimit: rows.rowLimit,
      notes: [...rows.notes, ...summary.notes],
      durationMs: summary.durationMs,
      ...timing,
      complete,
      firstRows,
    }
  }

  return {
    async 'sql.run'(input) {
      const profile = requireProfile(context, input.profileId)
      const { protect, parsed } = await guard(hub, profile, input.sql, input)
      return runWithFirstPage(profile, protect ? { ...input, readOnly: true } : input, parsed)
    },

    async 'sql.runBlock'(input) {
      const profile = requireProfile(context, input.profileId)
      const sql = input.statements.join(';\n')
      const { protect, parsed } = await guard(hub, profile, sql, input)
      if (protect) input = { ...input, readOnly: true }
      if (serviceOf(profile.id).splits === false) return { separately: true as const }
      return { results: await runBlockInOneRequest(profile, { ...input, sql }, parsed) }
    },

    async 'sql.cancel'({ runId }) {
      const controller = runs.get(runId)
      if (!controller) return { cancelled: false }
      controller.abort()
      return { cancelled: true }
    },
  }
}

function displayRowsOf(parsed: ParsedResult, count: number): DisplayRows {
  const head = new ResultStore()
  const kept = head.put({ tabId: '', databaseId: '' }, parsed)
  return head.window(kept.id, 0, count)
}

function explainBlockFailure(error: unknown, count: number): unknown {
  if (!isServiceError(error) || error.code === APP_ERROR_CODES.CANCELLED) return error
  if (error.code === SQL_ERROR_CODES.READ_ONLY_TAB || statementLimitRefusal(error) !== null) {
    return error
  }
  return new ServiceError(
    error.code,
    `${error.message}\nThis transaction block's ${count} statements were sent together; the service does not say which one failed, and the block was not committed.`,
    { ...(error.status === undefined ? {} : { status: error.status }), details: error.details },
  )
}
