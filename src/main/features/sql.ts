import { setImmediate as nextTurn } from 'node:timers/promises'
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { SQL_ERROR_CODES } from '../../shared/bridge/channels/sql'
import type { SqlResultMeta, sqlChannels } from '../../shared/bridge/channels/sql'
import {
  analyzeSql,
  destructiveReasonOf,
  loadPgParser,
  needsConformingStrings,
  setsConformingStrings,
  splitSqlLoaded,
  verdictOf,
} from '../sql-guard'
import { explainPrefixOf, readOnlyRefusalOf } from '../sql-guard/plan'
import { isServiceError, ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { createSqlStore } from '../cache/sql'
import { readFirstPageOfBytes } from '../sql/first-page'
import { boundOf, maxRowsRefusal } from '../sql/row-bound'
import {
  answerShapeOf,
  statementLimitRefusal,
  statementsSent,
  wrapReadOnly,
} from '../sql/read-only-wrap'
import { parseSqlAnswer, type ParsedResult, type ParseOptions } from '../sql/parse-result'
import { ResultStore } from '../sql/result-store'
import { createSqlResults } from '../workers/sql-worker-client'
import type { DisplayRows, SqlResults } from '../workers/sql-worker-client'
import { databaseNameOf, SCHEMA_MAX_ROWS, SCHEMA_SQL, toSchemaTree } from '../sql/schema-query'
import type { StoredProfile } from '../profiles'
import type { DeskContext } from './context'
import { bridgeErrorOf, recordActivity, requireProfile, withProfileClient } from './context'
import { statementShape } from '../sql/statement-shape'
import { chooseSaveTarget, saveToDisk } from './save-to-disk'
import { createConformingStrings } from './sql/conforming-strings'
import { sqlPlanHandler } from './sql/plan'

/*
 * The SQL console (op 5). Every statement is classified before it leaves: a read-only tab
 * refuses what is not proven read-only, and a protected profile's write needs the user's
 * confirmation (the renderer asks; main checks again). Answers are parsed once, here, and kept
 * in the result store; the renderer reads windows of rows. Every statement sent is recorded in
 * the activity log and the query history.
 */

type SqlHandlers = Pick<BridgeHandlers, keyof typeof sqlChannels>

/**
 * How long a statement may take. Not the app's request timeout (30 s by default): a report
 * may rightly run for minutes, and the user has Cancel (Esc) for the rest.
 */
export const SQL_TIMEOUT_MS = 30 * 60_000

/** Rows sent with the run's answer: a screenful and more, so the grid paints at once. */
const FIRST_ROWS = 100

export function sqlHandlers(context: DeskContext): SqlHandlers {
  const store = createSqlStore(context.cache)
  /** The SQL worker, which parses and keeps the results; started on the first, ended with the desk. */
  let worker: SqlResults | null = null
  function results(): SqlResults {
    if (worker === null) {
      const started = createSqlResults()
      context.onClose(() => started.close())
      worker = started
    }
    return worker
  }
  const conformingStrings = createConformingStrings(context)
  const runs = new Map<string, AbortController>()
  /** Results whose answer is still being parsed after their first rows went out. */
  const pending = new Map<string, Promise<void>>()
  context.onClose(() => {
    for (const controller of runs.values()) controller.abort()
  })

  interface Guarded {
    profileId: string
    databaseId: string
    runId: string
    readOnly: boolean
    confirmedWrite: boolean
  }

  /**
   * Refuses what the tab, the profile or the settings do not allow; nothing is sent then. The
   * text is judged by PostgreSQL's own parser (src/main/sql-guard), statement by statement (a
   * service runs every one of them): one write makes the call a write, and text the parser
   * refuses is never a read. Resolves with whether the text, a read on a protected profile, is
   * to be sent inside a read-only transaction too (defence in depth: what no parse tree shows,
   * a user's function shadowing a built-in or a view that writes, PostgreSQL then refuses).
   */
  async function guard(
    profile: StoredProfile,
    sql: string,
    input: Guarded,
  ): Promise<{ protect: boolean }> {
    let analysis = await analyzeSql(sql, {
      standardConformingStrings: conformingStrings.known(profile.id, input.databaseId),
    })
    if (needsConformingStrings(analysis)) {
      const learned = await conformingStrings.learn(profile, input.databaseId)
      if (learned !== undefined) {
        analysis = await analyzeSql(sql, { standardConformingStrings: learned })
      }
    }
    const verdict = verdictOf(analysis)
    if (setsConformingStrings(analysis)) {
      // Once this runs the learned value may be stale: asked again next time it matters.
      conformingStrings.forget(profile.id, input.databaseId)
    }
    if (input.readOnly) {
      const refuse = (reason: string) =>
        new ServiceError(
          SQL_ERROR_CODES.READ_ONLY_TAB,
          `This tab is read-only and the statement was not sent: ${reason}`,
          { details: { reason } },
        )
      // Unparsed text, sent, would fail inside the tab's transaction, which a real deployment
      // leaves open; transaction control would end it; anything else not a read is refused.
      const refusal = readOnlyRefusalOf(analysis)
      if (refusal !== null) throw refuse(refusal)
    }
    if (verdict.kind !== 'read' && profile.protected && !input.confirmedWrite) {
      throw new ServiceError(
        SQL_ERROR_CODES.WRITE_NOT_CONFIRMED,
        `"${profile.name}" is protected: confirm this statement before it is sent (${verdict.reason})`,
        { details: { reason: verdict.reason } },
      )
    }
    if (context.settings.get().confirmDestructive && !input.confirmedWrite) {
      const reason = destructiveReasonOf(analysis)
      if (reason !== null) {
        throw new ServiceError(
          SQL_ERROR_CODES.DESTRUCTIVE_NOT_CONFIRMED,
          `Confirm this statement before it is sent: ${reason}`,
          { details: { reason } },
        )
      }
    }
    return { protect: profile.protected && !input.readOnly && verdict.kind === 'read' }
  }

  /** Profiles whose service refused the read-only prefix (one statement per call only). */
  const singleStatementServices = new Set<string>()

  /**
   * What each profile's service was seen to do with a text: run it as one (`splits` false: one
   * result per call) or each statement on its own (`splits` true: `results[]`, a real
   * deployment), and how many statements it takes per call. Null until an answer shows it.
   */
  const services = new Map<string, { splits: boolean | null; statementLimit: number | null }>()
  function serviceOf(profileId: string) {
    let known = services.get(profileId)
    if (known === undefined) {
      known = { splits: null, statementLimit: null }
      services.set(profileId, known)
    }
    return known
  }

  /**
   * What goes on the wire for a statement, so that PostgreSQL itself refuses a write the
   * classifier missed (docs/ARCHITECTURE-NOTES.md, "The SQL console": guards, twice):
   * - a service that runs the text as one: `SET TRANSACTION READ ONLY;` before it, in the same
   *   implicit transaction;
   * - a service that runs each statement on its own, or one not seen yet: the text inside
   *   `BEGIN TRANSACTION READ ONLY; …; ROLLBACK;` (sql/read-only-wrap.ts), which holds however
   *   the service groups the statements as long as it runs them in order on one connection.
   * Positions in errors count from `prefix`.
   */
  function wireTextOf(profileId: string, input: { sql: string; readOnly: boolean }) {
    if (!input.readOnly || singleStatementServices.has(profileId)) {
      return { sql: input.sql, prefix: '', wrapped: false }
    }
    const service = serviceOf(profileId)
    if (service.splits === false) {
      return { sql: READ_ONLY_PREFIX + input.sql, prefix: READ_ONLY_PREFIX, wrapped: false }
    }
    const wrap = wrapReadOnly(input.sql)
    if ('refused' in wrap) {
      throw new ServiceError(
        SQL_ERROR_CODES.READ_ONLY_TAB,
        `This tab is read-only and the statement was not sent: ${wrap.refused}`,
        { details: { reason: wrap.refused } },
      )
    }
    refuseOverLimit(profileId, statementsSent(input.sql, true), true)
    return { ...wrap, wrapped: true }
  }

  /**
   * Refuses, before sending, a text with more statements than the service runs per call (its
   * `resultLimit`, or the limit its refusal stated). A read-only tab's two count.
   */
  function refuseOverLimit(profileId: string, count: number, wrapped: boolean): void {
    const limit = serviceOf(profileId).statementLimit
    if (limit === null || count <= limit) return
    const own = wrapped
      ? ` (${count - 2} of the text's and the BEGIN and ROLLBACK that keep a read-only tab read-only)`
      : ''
    throw new ServiceError(
      'STATEMENT_LIMIT',
      `Not sent: the service runs at most ${limit} statements per request, and this is ${count}${own}. Run fewer statements at a time.`,
      { details: { limit, statements: count } },
    )
  }

  /** What an answer shows of its service: one result per statement or one for the text. */
  function learnFromAnswer(profileId: string, body: Buffer): 'results' | 'single' {
    const shape = answerShapeOf(body)
    const service = serviceOf(profileId)
    service.splits = shape === 'results'
    if (shape === 'results') {
      const limit = /"resultLimit"\s*:\s*(\d+)/.exec(
        body.toString('utf8', Math.max(0, body.byteLength - 256)),
      )
      if (limit) service.statementLimit = Number(limit[1])
    }
    return shape
  }

  /** Learns the limit a refusal states, and says it in words the user can act on. */
  function explainStatementLimit(profileId: string, error: unknown, sent: number): unknown {
    const refusal = statementLimitRefusal(error)
    if (refusal === null || !isServiceError(error)) return error
    const service = serviceOf(profileId)
    service.splits = true
    if (refusal.limit !== null) service.statementLimit = refusal.limit
    const limit = refusal.limit === null ? 'fewer' : `at most ${refusal.limit}`
    return new ServiceError(
      error.code,
      `The service runs ${limit} statements per request and refused these ${sent}; nothing ran. Run fewer statements at a time. (${error.message})`,
      { ...(error.status === undefined ? {} : { status: error.status }), details: error.details },
    )
  }

  /**
   * A real deployment neither rolls back nor drops its connection when a statement fails: the
   * read-only transaction stays open (aborted) on it, and the next requests that get that
   * connection fail until it has been idle for a while. Said with the error, so the next
   * "current transaction is aborted" is understood.
   */
  function explainFailedTransaction(profileId: string, error: unknown, wrapped: boolean): unknown {
    if (!isServiceError(error) || serviceOf(profileId).splits !== true) return error
    const aborted = /current transaction is aborted/i.test(error.message)
    if (!aborted && !wrapped) return error
    if (error.code === SQL_ERROR_CODES.READ_ONLY_TAB || statementLimitRefusal(error) !== null) {
      return error
    }
    const why = aborted
      ? "The service's connection to this database is still inside a transaction that failed earlier: it neither rolls back nor drops the connection after a failed statement."
      : 'The service does not end the read-only transaction after a failed statement: it stays open, aborted, on its connection to this database.'
    return new ServiceError(
      error.code,
      `${error.message}\n${why} Statements on this database may fail with "current transaction is aborted" until the service closes that connection (after 30 s without statements on a real deployment).`,
      { ...(error.status === undefined ? {} : { status: error.status }), details: error.details },
    )
  }

  interface SendOptions {
    /** Kept in the console's history (the user's statements). */
    history: boolean
    /** Recorded in the activity log (default); false for the app's own catalogue query. */
    audit?: boolean
  }

  type Outcome = { parsed: Pick<ParsedResult, 'command' | 'rowCount'> } | { error: unknown }

  /** How many rows a statement was asked for, and what the user should know of it. */
  interface RowRequest {
    /** Sent as maxRows; null when the service's own default was used. */
    maxRows: number | null
    rowLimit: SqlResultMeta['rowLimit']
    notes: string[]
  }

  /** The tab's maxRows within what this profile's service told us it returns. */
  function rowRequestOf(profileId: string, asked: number): RowRequest {
    const max = store.getServiceMaxRows(profileId)
    return max !== null && asked > max
      ? { maxRows: max, rowLimit: { max, asked }, notes: [] }
      : { maxRows: asked, rowLimit: null, notes: [] }
  }

  /**
   * Sends a statement; when the service refuses its maxRows (VALIDATION_ERROR naming it), asks
   * once more within the bound the refusal states, and remembers that bound for the profile
   * (persisted). Resending is safe though op 5 may write: a refused request ran nothing. A
   * refusal that states no bound is resent without maxRows (the service's default), and said.
   */
  async function sendWithinBound(
    profileId: string,
    rowRequest: RowRequest,
    send: (maxRows: number | null) => Promise<Buffer>,
  ): Promise<Buffer> {
    const asked = rowRequest.maxRows
    try {
      return await send(asked)
    } catch (caught) {
      const refusal = asked === null ? null : maxRowsRefusal(caught)
      if (refusal === null || asked === null) throw caught
      const bound = boundOf(refusal, asked)
      if (bound !== null) {
        store.putServiceMaxRows(profileId, bound)
        rowRequest.maxRows = bound
        rowRequest.rowLimit = { max: bound, asked: rowRequest.rowLimit?.asked ?? asked }
      } else {
        rowRequest.maxRows = null
        rowRequest.notes.push(
          `The service refused maxRows ${asked} ("${refusal}"), so the statement ran with the service's own row limit.`,
        )
      }
      try {
        return await send(rowRequest.maxRows)
      } catch (again) {
        throw explainRefusedMaxRows(again, rowRequest.maxRows ?? asked)
      }
    }
  }

  /**
   * Sends one statement through op 5 and reads the answer's bytes. `finish` records the
   * statement (activity log, history) once its outcome is known; a failed request is recorded
   * here.
   */
  async function request(
    profile: StoredProfile,
    input: Guarded & { sql: string; maxRows: number },
    options: SendOptions,
  ): Promise<{
    body: Buffer
    receivedAt: number
    started: number
    finish: (outcome: Outcome) => number
    rows: RowRequest
    /** Sent inside the read-only wrap: the answer's first and last results are the wrap's. */
    wrapped: boolean
  }> {
    // The read-only wrap and the statement count split with PostgreSQL's parser.
    await loadPgParser()
    const controller = new AbortController()
    runs.get(input.runId)?.abort()
    runs.set(input.runId, controller)
    const startedAt = Date.now()
    const started = performance.now()
    /** The statement in the activity log: what ran, without its literals (the log is exported). */
    const recordStatement = (outcome: Outcome) => {
      const shape = statementShape(input.sql)
      if (!('parsed' in outcome)) {
        recordActivity(context, profile, 'runPostgresQuery', input.databaseId, outcome, shape)
        return
      }
      const { command, rowCount } = outcome.parsed
      const rows = rowCount === null ? '' : ` · ${rowCount} ${rowCount === 1 ? 'row' : 'rows'}`
      recordActivity(
        context,
        profile,
        'runPostgresQuery',
        input.databaseId,
        { message: `${command || 'statement'}${rows}` },
        shape,
      )
    }
    const finish = (outcome: Outcome) => {
      const elapsedMs = Math.round((performance.now() - started) * 100) / 100
      // The app's own question (the schema panel's catalogue query) is not the user's statement.
      if (options.audit !== false) recordStatement(outcome)
      if (options.history) {
        const error = 'error' in outcome ? bridgeErrorOf(context, outcome.error) : null
        store.addHistory({
          profileId: profile.id,
          databaseId: input.databaseId,
          sql: input.sql,
          startedAt,
          durationMs: elapsedMs,
          rowCount: 'parsed' in outcome ? outcome.parsed.rowCount : null,
          command: 'parsed' in outcome ? outcome.parsed.command : null,
          outcome:
            error === null
              ? 'success'
              : error.code === APP_ERROR_CODES.CANCELLED
                ? 'cancelled'
                : 'error',
          errorCode: error?.code ?? null,
          errorMessage: error?.message ?? null,
        })
      }
      return elapsedMs
    }
    const rows = rowRequestOf(profile.id, input.maxRows)
    const send = (sql: string) =>
      sendWithinBound(profile.id, rows, (maxRows) =>
        withProfileClient(context, profile.id, (client) =>
          client.callBytes(
            'runPostgresQuery',
            {
              params: { id: input.databaseId },
              body: maxRows === null ? { sql } : { sql, maxRows },
            },
            { signal: controller.signal, timeoutMs: SQL_TIMEOUT_MS },
          ),
        ),
      )
    try {
      const wire = wireTextOf(profile.id, input)
      let body: Buffer
      let wrapped = wire.wrapped
      try {
        body = await send(wire.sql)
      } catch (caught) {
        if (wire.wrapped && serviceOf(profile.id).splits === null) {
          // Not known yet how this service runs a text: one that runs it as one script (and
          // keeps its session) would keep the failed BEGIN's transaction open; end it.
          await send(READ_ONLY_CLEANUP).catch(() => undefined)
        }
        if (wire.prefix === '' || !refusesSeveralStatements(caught)) {
          const sent = statementsSent(wire.sql, false)
          throw explainFailedTransaction(
            profile.id,
            explainStatementLimit(profile.id, shiftPosition(caught, wire.prefix.length), sent),
            wire.wrapped,
          )
        }
        // This service takes one statement per call: PostgreSQL cannot keep the tab read-only
        // for it, and the classifier alone guards it from now on (it did for this text).
        singleStatementServices.add(profile.id)
        wrapped = false
        body = await send(input.sql)
      }
      if (learnFromAnswer(profile.id, body) === 'single' && wrapped) {
        // The service ran the wrapped text as one script and answered its last result (the
        // ROLLBACK's): the run changed nothing. Sent again the way such a service keeps
        // read-only, which is now known for this profile.
        const again = wireTextOf(profile.id, input)
        wrapped = again.wrapped
        try {
          body = await send(again.sql)
        } catch (caught) {
          throw shiftPosition(caught, again.prefix.length)
        }
      }
      return {
        body,
        receivedAt: performance.timeOrigin + performance.now(),
        started,
        finish,
        rows,
        wrapped,
      }
    } catch (caught) {
      const error = explainCancel(caught)
      finish({ error })
      throw error
    } finally {
      if (runs.get(input.runId) === controller) runs.delete(input.runId)
    }
  }

  /** Sends one statement and parses the whole answer; records it, whatever happens. */
  async function send(
    profile: StoredProfile,
    input: Guarded & { sql: string; maxRows: number },
    options: SendOptions,
  ): Promise<{ parsed: ParsedResult; elapsedMs: number; parseMs: number; receivedAt: number }> {
    const { body, receivedAt, finish, wrapped } = await request(profile, input, options)
    const parsing = performance.now()
    const parsed = parseOrRecordFailure(body.toString('utf8'), finish, { wrapped })
    const parseMs = round(performance.now() - parsing)
    return { parsed, elapsedMs: finish({ parsed }), parseMs, receivedAt }
  }

  /** The answer parsed and kept in the SQL worker; a failure is recorded as the run's outcome. */
  async function keepInWorker(
    id: string,
    owner: { tabId: string; databaseId: string },
    body: Buffer,
    finish: (outcome: { error: unknown }) => unknown,
    parse: ParseOptions,
  ): ReturnType<SqlResults['keep']> {
    try {
      return await results().keep(id, owner, body, FIRST_ROWS, parse)
    } catch (error) {
      finish({ error })
      throw error
    }
  }

  /**
   * Every result is parsed and kept in the SQL worker (workers/sql-worker.ts). A big answer's
   * first rows go back at once, read from a head of its bytes; the rest is parsed in the worker
   * after the reply has left (setImmediate), and `sql.result.completed` tells the renderer the
   * exact counts. Windows, sorting, copying and saving of that result wait for it.
   */
  async function runWithFirstPage(
    profile: StoredProfile,
    input: Guarded & { sql: string; maxRows: number; tabId: string },
  ): Promise<SqlResultMeta> {
    const { body, receivedAt, started, finish, rows, wrapped } = await request(profile, input, {
      history: true,
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
  ): Promise<(SqlResultMeta | null)[]> {
    const count = input.statements.length
    refuseOverLimit(profile.id, count, false)
    let answer: Awaited<ReturnType<typeof request>>
    try {
      answer = await request(profile, input, { history: true })
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

  /** A result still being read: its windows wait for it. */
  async function settled(resultId: string): Promise<void> {
    await pending.get(resultId)
  }

  function cachedSchema(profileId: string, databaseId: string) {
    const cached = store.getSchema(profileId, databaseId)
    return { tree: cached?.tree ?? null, fetchedAt: cached?.fetchedAt ?? null }
  }

  return {
    ...sqlPlanHandler(context, conformingStrings),

    async 'sql.run'(input) {
      const profile = requireProfile(context, input.profileId)
      const { protect } = await guard(profile, input.sql, input)
      return runWithFirstPage(profile, protect ? { ...input, readOnly: true } : input)
    },

    async 'sql.runBlock'(input) {
      const profile = requireProfile(context, input.profileId)
      const sql = input.statements.join(';\n')
      const { protect } = await guard(profile, sql, input)
      if (protect) input = { ...input, readOnly: true }
      if (serviceOf(profile.id).splits === false) return { separately: true as const }
      return { results: await runBlockInOneRequest(profile, { ...input, sql }) }
    },

    async 'sql.explain'(input) {
      const profile = requireProfile(context, input.profileId)
      await loadPgParser()
      const count = splitSqlLoaded(input.sql).length
      if (count > 1) {
        // EXPLAIN plans one statement; the service would run the others as they are.
        throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
          details: [
            { path: 'sql', message: `EXPLAIN takes one statement; this text holds ${count}` },
          ],
        })
      }
      const prefix = explainPrefixOf(input.analyze)
      const sql = prefix + input.sql
      await guard(profile, sql, input)
      try {
        const { parsed, elapsedMs } = await send(
          profile,
          { ...input, sql, maxRows: 1 },
          { history: true },
        )
        return { plan: planOf(parsed), elapsedMs }
      } catch (error) {
        throw shiftPosition(error, prefix.length)
      }
    },

    async 'sql.cancel'({ runId }) {
      const controller = runs.get(runId)
      if (!controller) return { cancelled: false }
      controller.abort()
      return { cancelled: true }
    },

    async 'sql.rows'({ resultId, offset, limit }) {
      await settled(resultId)
      return { offset, rows: await results().window(resultId, offset, limit) }
    },

    async 'sql.cell'({ resultId, row, column }) {
      await settled(resultId)
      return { value: await results().cell(resultId, row, column) }
    },

    async 'sql.sort'({ resultId, column, direction }) {
      await settled(resultId)
      await results().sort(resultId, column, direction)
      return null
    },

    async 'sql.copy'({ resultId, format, range, headers }) {
      await settled(resultId)
      return results().format(resultId, format, { headers, from: range?.from, to: range?.to })
    },

    async 'sql.save'({ profileId, resultId, format }) {
      const profile = requireProfile(context, profileId)
      await settled(resultId)
      const kept = await results().info(resultId)
      const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '')
      const target = await chooseSaveTarget(context, {
        title: 'Save result',
        defaultName: `${kept.databaseId}-${stamp}.${format}`,
        filter: { name: format.toUpperCase(), extension: format },
      })
      if (target === null) return { path: null, bytes: 0, rows: 0 }
      const rowCount = kept.rows
      async function* chunks() {
        for await (const chunk of results().stream(resultId, format)) {
          yield Buffer.from(chunk, 'utf8')
        }
      }
      const saved = await saveToDisk(
        context,
        target,
        {
          profileId: profile.id,
          profileName: profile.name,
          kind: 'sql-result',
          label: `${kept.databaseId} result (${format.toUpperCase()}, ${rowCount} rows)`,
          source: { databaseId: kept.databaseId, format, rows: rowCount },
        },
        async () => chunks(),
      )
      return { path: saved.path, bytes: saved.size, rows: rowCount }
    },

    async 'sql.compare'({ comparisonId, before, after, keyColumn }) {
      await Promise.all([settled(before), settled(after)])
      return results().compare(comparisonId, { before, after }, keyColumn)
    },

    async 'sql.compare.rows'({ comparisonId, offset, limit }) {
      return { offset, rows: await results().compareWindow(comparisonId, offset, limit) }
    },

    async 'sql.release'({ resultIds }) {
      await results().release(resultIds)
      return null
    },

    async 'sql.schema.cached'({ profileId, databaseId }) {
      requireProfile(context, profileId)
      return cachedSchema(profileId, databaseId)
    },

    async 'sql.schema.refresh'({ profileId, databaseId }) {
      const profile = requireProfile(context, profileId)
      const { parsed } = await send(
        profile,
        {
          profileId,
          databaseId,
          runId: `schema:${profileId}:${databaseId}`,
          readOnly: true,
          confirmedWrite: false,
          sql: SCHEMA_SQL,
          maxRows: SCHEMA_MAX_ROWS,
        },
        { history: false, audit: false },
      )
      const readAt = Date.now()
      store.putSchema(profileId, databaseId, toSchemaTree(parsed), readAt)
      // The database's name, for the console's field and every place an id is shown by name.
      const name = databaseNameOf(parsed)
      if (name !== null) {
        context.knownObjects.record(profileId, [
          {
            kind: 'database',
            id: databaseId,
            name,
            status: null,
            nodeId: null,
            fields: {},
            operation: 'runPostgresQuery',
            seenAt: readAt,
          },
        ])
      }
      return cachedSchema(profileId, databaseId)
    },

    async 'sql.tabs.list'({ profileId }) {
      return store.listTabs(profileId)
    },

    async 'sql.tabs.save'(tab) {
      requireProfile(context, tab.profileId)
      return store.saveTab(tab)
    },

    async 'sql.tabs.close'({ id }) {
      store.closeTab(id)
      await results().releaseTab(id)
      return null
    },

    async 'sql.history.list'(query) {
      return store.listHistory(query)
    },
  }
}

/** Parses a whole answer; an unreadable one is recorded as the statement's failure first. */
/** The first rows of an answer parsed on main (a big answer's head), as display text. */
function displayRowsOf(parsed: ParsedResult, count: number): DisplayRows {
  const head = new ResultStore()
  const kept = head.put({ tabId: '', databaseId: '' }, parsed)
  return head.window(kept.id, 0, count)
}
function parseOrRecordFailure(
  text: string,
  finish: (outcome: { error: unknown }) => unknown,
  options: ParseOptions,
): ParsedResult {
  try {
    return parseSqlAnswer(text, options)
  } catch (error) {
    finish({ error })
    throw error
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

/** A cancelled run says plainly that the server may still finish it. */
function explainCancel(error: unknown): unknown {
  if (isServiceError(error) && error.code === APP_ERROR_CODES.CANCELLED) {
    return new ServiceError(
      APP_ERROR_CODES.CANCELLED,
      'Cancelled: Infradesk stopped waiting for the answer. The service has no cancel, so the statement may still finish on the server.',
    )
  }
  return error
}

/** EXPLAIN (FORMAT JSON) answers one row, one column: the plan as JSON (or its text). */
function planOf(parsed: ParsedResult): unknown {
  const value = parsed.rows[0]?.[0]
  if (typeof value !== 'string') return value ?? null
  try {
    return JSON.parse(value) as unknown
  } catch {
    throw new ServiceError(APP_ERROR_CODES.BAD_RESPONSE, 'The plan EXPLAIN answered is not JSON')
  }
}

/** A block's failure: the service names no statement, and nothing of the block was committed. */
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

/** Sent before a read-only tab's text, in the same call (one implicit transaction). */
export const READ_ONLY_PREFIX = 'SET TRANSACTION READ ONLY;\n'

/** Ends the read-only transaction a failed wrapped text may have left open (read-only-wrap.ts). */
const READ_ONLY_CLEANUP = 'ROLLBACK'

/**
 * A service that runs op 5 as one prepared statement refuses two in one call (PostgreSQL:
 * "cannot insert multiple commands into a prepared statement").
 */
function refusesSeveralStatements(error: unknown): boolean {
  return (
    isServiceError(error) &&
    /multiple commands|multiple statements|more than one statement|one statement/i.test(
      error.message,
    )
  )
}

/** Error positions count from the statement the user wrote, not from our prefix. */
function shiftPosition(error: unknown, by: number): unknown {
  if (!isServiceError(error)) return error
  const details = error.details as { position?: unknown } | undefined
  if (typeof details?.position !== 'number') return error
  const position = details.position - by
  return new ServiceError(error.code, error.message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    details: { ...details, position: position > 0 ? position : null },
  })
}

/** A maxRows refusal that survived the resend, said in words the user can act on. */
function explainRefusedMaxRows(error: unknown, maxRows: number): unknown {
  const refusal = maxRowsRefusal(error)
  if (refusal === null || !isServiceError(error)) return error
  return new ServiceError(
    error.code,
    `The service refuses maxRows ${maxRows} ("${refusal}"): lower the tab's Max rows and run again.`,
    {
      ...(error.status === undefined ? {} : { status: error.status }),
      details: error.details,
    },
  )
}
