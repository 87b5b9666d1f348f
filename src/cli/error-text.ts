import { validationIssuesOf } from '../shared/api'
import type { BridgeError } from '../shared/bridge'
import { SQL_ERROR_CODES } from '../shared/bridge/channels/sql'

/*
 * The one line a failure prints on stderr. Most read `CODE: message (field problems)`; two kinds
 * say more, because the code alone does not tell a person what to do:
 * - a statement PostgreSQL refused (the service's 4xx carrying `details: { message, position,
 *   sqlState }`): PostgreSQL's own message first, with where and which SQLSTATE, as the SQL
 *   console shows it; the service's code last (it only says "could not be processed"). A real
 *   deployment sends PostgreSQL's message alone, as a 400 DATABASE_QUERY_FAILED: read the same
 *   way (not as a usage error of ours), its code last;
 * - a write the guard held back: how to send it (`--confirm-write`).
 */

/** The option that confirms a write on the command line (`infradesk sql`). */
export const CONFIRM_WRITE_OPTION = '--confirm-write'

const NEEDS_CONFIRMATION: readonly string[] = [
  SQL_ERROR_CODES.WRITE_NOT_CONFIRMED,
  SQL_ERROR_CODES.DESTRUCTIVE_NOT_CONFIRMED,
]

/** The service code a real deployment answers a statement PostgreSQL refused with (HTTP 400). */
export const QUERY_FAILED_SERVICE_CODE = 'DATABASE_QUERY_FAILED'

export function bridgeErrorText(
  error: Pick<BridgeError, 'code' | 'message' | 'details' | 'status' | 'serviceCode'>,
): string {
  if (error.serviceCode === QUERY_FAILED_SERVICE_CODE) {
    // Main names an unknown service code after the message: said once, at the end, here.
    const named = ` (HTTP ${error.status ?? 400}, ${QUERY_FAILED_SERVICE_CODE})`
    const message = error.message.endsWith(named)
      ? error.message.slice(0, -named.length)
      : error.message
    return `PostgreSQL: ${message} [${QUERY_FAILED_SERVICE_CODE}]`
  }
  const refusedStatement = postgresRefusal(error.details)
  if (refusedStatement !== null) {
    const facts = [
      refusedStatement.position === null
        ? null
        : `at character ${refusedStatement.position} of the statement`,
      refusedStatement.sqlState === null ? null : `SQLSTATE ${refusedStatement.sqlState}`,
    ].filter((fact) => fact !== null)
    const where = facts.length === 0 ? '' : ` (${facts.join(', ')})`
    return `PostgreSQL: ${refusedStatement.message}${where} [${error.code}]`
  }
  const fields = fieldProblems(error.details)
  const text = `${error.code}: ${error.message}${fields === '' ? '' : ` (${fields})`}`
  return NEEDS_CONFIRMATION.includes(error.code)
    ? `${text}. To send it, run the command again with ${CONFIRM_WRITE_OPTION}`
    : text
}

interface PostgresRefusal {
  message: string
  position: number | null
  sqlState: string | null
}

/** PostgreSQL's message, position and SQLSTATE when the details carry them (object details). */
function postgresRefusal(details: unknown): PostgresRefusal | null {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return null
  const { message, position, sqlState } = details as Record<string, unknown>
  if (typeof message !== 'string' || message.trim() === '') return null
  const hasPosition = typeof position === 'number' && Number.isInteger(position) && position > 0
  const hasState = typeof sqlState === 'string' && sqlState.trim() !== ''
  // A message alone is not enough to call it PostgreSQL's: one of its facts must come with it.
  if (!hasPosition && !hasState) return null
  return {
    message: message.trim(),
    position: hasPosition ? position : null,
    sqlState: hasState ? sqlState.trim() : null,
  }
}

/**
 * A validation error's `details` ([{ path, message }], the path an array or a dotted string) as
 * `query.limit: Expected number; …`.
 */
function fieldProblems(details: unknown): string {
  return validationIssuesOf(details)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
    .join('; ')
}
