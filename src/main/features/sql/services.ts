import { SQL_ERROR_CODES } from '../../../shared/bridge/channels/sql'
import { isServiceError, ServiceError } from '../../api'
import type { ParsedText } from '../../sql-guard'
import {
  answerShapeOf,
  statementLimitRefusal,
  statementsSent,
  wrapReadOnly,
} from '../../sql/read-only-wrap'

/*
 * What each profile's service was seen to do with op 5's text, and what follows from it: how a
 * read-only tab's text goes on the wire, how many statements a call may hold, and what its
 * refusals and failed transactions mean in words the user can act on.
 */

/** Sent before a read-only tab's text, in the same call (one implicit transaction). */
export const READ_ONLY_PREFIX = 'SET TRANSACTION READ ONLY;\n'

export type ServiceBehaviour = ReturnType<typeof createServiceBehaviour>

export function createServiceBehaviour() {
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
   * Positions in errors count from `prefix`. `parsed` is the guard's parse of the text.
   */
  function wireTextOf(
    profileId: string,
    input: { sql: string; readOnly: boolean },
    parsed?: ParsedText,
  ) {
    if (!input.readOnly || singleStatementServices.has(profileId)) {
      return { sql: input.sql, prefix: '', wrapped: false }
    }
    const service = serviceOf(profileId)
    if (service.splits === false) {
      return { sql: READ_ONLY_PREFIX + input.sql, prefix: READ_ONLY_PREFIX, wrapped: false }
    }
    const wrap = wrapReadOnly(input.sql, parsed)
    if ('refused' in wrap) {
      throw new ServiceError(
        SQL_ERROR_CODES.READ_ONLY_TAB,
        `This tab is read-only and the statement was not sent: ${wrap.refused}`,
        { details: { reason: wrap.refused } },
      )
    }
    refuseOverLimit(profileId, statementsSent(input.sql, true, parsed), true)
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
  return {
    serviceOf,
    singleStatementServices,
    wireTextOf,
    refuseOverLimit,
    learnFromAnswer,
    explainStatementLimit,
    explainFailedTransaction,
  }
}
