import { performance } from 'node:perf_hooks'
import { APP_ERROR_CODES } from '../../../shared/bridge'
import type { SqlResultMeta } from '../../../shared/bridge/channels/sql'
import { isServiceError, ServiceError } from '../../api'
import { loadPgParser, type ParsedText } from '../../sql-guard'
import { parseSqlAnswer, type ParsedResult, type ParseOptions } from '../../sql/parse-result'
import { statementsSent } from '../../sql/read-only-wrap'
import { boundOf, maxRowsRefusal } from '../../sql/row-bound'
import { statementAuditText } from '../../sql/statement-audit-text'
import type { SqlResults } from '../../workers/sql-worker-client'
import type { StoredProfile } from '../../profiles'
import { scrubSecrets } from '../audit-export'
import { bridgeErrorOf, recordActivity, withProfileClient } from '../context'
import type { Guarded } from './guard'
import type { SqlHubState } from './hub'

/*
 * Sending one text through op 5: within the service's row bound (learned from its refusal), on
 * the wire as the tab's read-only promise needs (services.ts), cancellable by its run id, and
 * recorded once its outcome is known (the activity log; the console's history for the user's
 * own statements).
 */

/**
 * How long a statement may take. Not the app's request timeout (30 s by default): a report
 * may rightly run for minutes, and the user has Cancel (Esc) for the rest.
 */
export const SQL_TIMEOUT_MS = 30 * 60_000

/** Rows sent with the run's answer: a screenful and more, so the grid paints at once. */
export const FIRST_ROWS = 100

export interface SendOptions {
  /** Kept in the console's history (the user's statements). */
  history: boolean
  /** Recorded in the activity log (default); false for the app's own catalogue query. */
  audit?: boolean
  /**
   * The guard's parse of the text (guard.ts), read by the wrap, the statement count and the
   * audit text instead of parsing it again. Without it (a text the guard did not judge) each
   * parses the text itself.
   */
  parsed?: ParsedText
}

export type Outcome = { parsed: Pick<ParsedResult, 'command' | 'rowCount'> } | { error: unknown }

/** How many rows a statement was asked for, and what the user should know of it. */
export interface RowRequest {
  /** Sent as maxRows; null when the service's own default was used. */
  maxRows: number | null
  rowLimit: SqlResultMeta['rowLimit']
  notes: string[]
}

export type Sender = ReturnType<typeof createSender>

export function createSender(hub: SqlHubState) {
  const { context, store, runs, services } = hub
  const {
    serviceOf,
    singleStatementServices,
    wireTextOf,
    learnFromAnswer,
    explainStatementLimit,
    explainFailedTransaction,
  } = services

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
    /**
     * The statement in the activity log: its text with every secret PostgreSQL's parser locates
     * redacted, then cut like every exported text (known tokens, credential-shaped stretches).
     */
    const recordStatement = (outcome: Outcome) => {
      const text = scrubSecrets(
        statementAuditText(input.sql, options.parsed),
        context.secrets.list(),
      )
      if (!('parsed' in outcome)) {
        recordActivity(context, profile, 'runPostgresQuery', input.databaseId, outcome, text)
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
        text,
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
      const wire = wireTextOf(profile.id, input, options.parsed)
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
          const sent = statementsSent(wire.sql, false, options.parsed)
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
        const again = wireTextOf(profile.id, input, options.parsed)
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
      return await hub.results().keep(id, owner, body, FIRST_ROWS, parse)
    } catch (error) {
      finish({ error })
      throw error
    }
  }

  return { request, send, keepInWorker }
}

/** Parses a whole answer; an unreadable one is recorded as the statement's failure first. */
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

export function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

function explainCancel(error: unknown): unknown {
  if (isServiceError(error) && error.code === APP_ERROR_CODES.CANCELLED) {
    return new ServiceError(
      APP_ERROR_CODES.CANCELLED,
      'Cancelled: Infradesk stopped waiting for the answer. The service has no cancel, so the statement may still finish on the server.',
    )
  }
  return error
}

const READ_ONLY_CLEANUP = 'ROLLBACK'

function refusesSeveralStatements(error: unknown): boolean {
  return (
    isServiceError(error) &&
    /multiple commands|multiple statements|more than one statement|one statement/i.test(
      error.message,
    )
  )
}

export function shiftPosition(error: unknown, by: number): unknown {
  if (!isServiceError(error)) return error
  const details = error.details as { position?: unknown } | undefined
  if (typeof details?.position !== 'number') return error
  const position = details.position - by
  return new ServiceError(error.code, error.message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    details: { ...details, position: position > 0 ? position : null },
  })
}

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
