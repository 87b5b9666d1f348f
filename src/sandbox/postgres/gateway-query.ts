import { splitStatements } from '../../shared/sql/splitter'
import { GatewayFailure } from '../gateway'
import { compactRows, jsonBytes, RESPONSE_MAX_BYTES } from './compaction'
import { isDatabaseError, runStatement, toSqlError, type SqlSession } from './session'
import { SqlError, type PostgresEngine, type SqlOutcome } from './types'

/*
 * Op 5 as a real deployment runs it (the gateway flavour). Facts from wiolett-industries/gateway,
 * `modules/databases/database-query-execution.ts`, `database-error-mapping.ts` and
 * `databases.routes.ts` (the code is ours):
 * - the text is split into statements and each is sent on its own, in order, on ONE pooled
 *   connection (so `SET TRANSACTION READ ONLY;` before a text guards nothing: it is a
 *   statement of its own); more than 10 statements is refused before anything runs;
 * - a 15 s budget for the request, shared out before each statement as `statement_timeout`;
 * - one result per statement: `{command, rowCount, durationMs, fields: [names], rows: [objects
 *   keyed by column name; of two columns with one name the last value wins], truncated,
 *   maxRows}`; values as node-postgres gives them (int8 and numeric as strings, bytea as a
 *   Buffer's JSON, dates as ISO instants, a float's NaN as null); cut by compaction.ts;
 * - the first failing statement ends the request: no result of the others is returned, and
 *   no ROLLBACK is sent. A transaction the text opened stays open (aborted, after an error) on
 *   that connection, which goes back to the pool: the next request that gets it fails at its
 *   `SET statement_timeout` until the pool closes it after 30 s idle. The sandbox has one
 *   connection per database, which the pool hands out every time (as pg-pool's last-in-first-
 *   out idle list does for one user), and models that idle close.
 * - errors: 400 DATABASE_QUERY_FAILED with PostgreSQL's message (no position: the driver's
 *   error is reduced to its message), 408 DATABASE_QUERY_BUDGET_EXCEEDED for a statement
 *   timeout or a spent budget. The 499 DATABASE_QUERY_CANCELLED of the real code is wired to
 *   the request's abort signal on its other SQL route only; this route never answers it.
 */

export const GATEWAY_SQL = {
  statementLimit: 10,
  budgetMs: 15_000,
  /** pg.Pool's idleTimeoutMillis in the real service: an idle connection is closed after it. */
  poolIdleMs: 30_000,
} as const

export interface GatewayResult {
  command: string
  rowCount: number
  durationMs: number
  fields: string[]
  rows: Record<string, unknown>[]
  truncated: boolean
  maxRows: number
}

export interface GatewayAnswer {
  results: GatewayResult[]
  truncated: boolean
  resultLimit: number
}

/** When each connection was last handed back to the pool (epoch ms). */
const idleSince = new WeakMap<SqlSession, number>()

export async function runGatewayQuery(
  engine: PostgresEngine,
  databaseId: string,
  sql: string,
  maxRows: number,
  now: () => number,
): Promise<GatewayAnswer> {
  const statements = statementsOf(sql)
  const outcomes = await engine.withSession(databaseId, async (session, typeNames) => {
    // Counted from the connection in hand: the sandbox's first statement on a database waits
    // for PGlite to start, which a real deployment's pool never does.
    const deadline = now() + GATEWAY_SQL.budgetMs
    await closeIfIdle(session, now())
    const done: { outcome: SqlOutcome; durationMs: number }[] = []
    try {
      for (const [index, statement] of statements.entries()) {
        const share = Math.floor((deadline - now()) / (statements.length - index))
        if (share <= 0) throw budgetExceeded()
        await exec(session, `SET statement_timeout = ${share}`)
        const started = now()
        const outcome = await runStatement(session, statement, maxRows, typeNames)
        const durationMs = now() - started
        // A real server cancels the statement at its timeout; PGlite cannot be interrupted,
        // so the sandbox answers what that cancel answers once the statement is done.
        if (durationMs > share) throw budgetExceeded()
        done.push({ outcome, durationMs })
      }
    } catch (error) {
      throw failureOf(error)
    } finally {
      await session.exec('RESET statement_timeout').catch(() => undefined)
      idleSince.set(session, now())
    }
    return done
  })
  const results: GatewayResult[] = []
  let used = 2
  let truncated = false
  for (const { outcome, durationMs } of outcomes) {
    const compacted = compactRows(objectRowsOf(outcome), maxRows)
    const result: GatewayResult = {
      command: outcome.command,
      rowCount: outcome.rowCount ?? 0,
      durationMs,
      fields: outcome.fields.map((field) => field.name),
      rows: compacted.rows,
      truncated: compacted.truncated || outcome.truncated,
      maxRows,
    }
    const added = jsonBytes(result) + (results.length > 0 ? 1 : 0)
    if (used + added > RESPONSE_MAX_BYTES) {
      truncated = true
      break
    }
    results.push(result)
    used += added
  }
  return { results, truncated, resultLimit: GATEWAY_SQL.statementLimit }
}

/** The statements the service runs, refused as it refuses them before anything runs. */
function statementsOf(sql: string): string[] {
  const statements = splitStatements(sql).map((statement) => statement.text)
  if (statements.length === 0) {
    throw new GatewayFailure(400, 'INVALID_SQL', 'SQL statement is required')
  }
  if (statements.length > GATEWAY_SQL.statementLimit) {
    throw new GatewayFailure(
      400,
      'POSTGRES_STATEMENT_LIMIT_EXCEEDED',
      `Postgres SQL execution is limited to ${GATEWAY_SQL.statementLimit} statements per request`,
    )
  }
  return statements
}

/** The pool closed a connection idle for 30 s: a transaction left open on it is gone. */
async function closeIfIdle(session: SqlSession, now: number): Promise<void> {
  const since = idleSince.get(session)
  if (since === undefined || now - since < GATEWAY_SQL.poolIdleMs) return
  if (session.inTransactionBlock()) await session.exec('ROLLBACK').catch(() => undefined)
}

async function exec(session: SqlSession, sql: string): Promise<void> {
  try {
    await session.exec(sql)
  } catch (error) {
    throw toSqlError(error)
  }
}

function budgetExceeded(): GatewayFailure {
  return new GatewayFailure(
    408,
    'DATABASE_QUERY_BUDGET_EXCEEDED',
    'Interactive query budget exhausted',
  )
}

/** A failure as the real service maps a driver's error for a query. */
function failureOf(error: unknown): unknown {
  const sqlError = isDatabaseError(error) ? toSqlError(error) : error
  if (!(sqlError instanceof SqlError)) return sqlError
  const message = sqlError.message
  if (sqlError.sqlState === '57014' && /statement timeout/i.test(message)) return budgetExceeded()
  if (sqlError.sqlState === '28P01' || /password authentication failed/i.test(message)) {
    return new GatewayFailure(401, 'DATABASE_AUTH_FAILED', message)
  }
  if (sqlError.sqlState === '3D000' || /database does not exist/i.test(message)) {
    return new GatewayFailure(422, 'DATABASE_CONNECTION_FAILED', message)
  }
  return new GatewayFailure(400, 'DATABASE_QUERY_FAILED', message)
}

const OID = { bytea: 17, float4: 700, float8: 701, date: 1082, timestamp: 1114 } as const

/** Rows as node-postgres's objects: keyed by name, the last of two same-named columns wins. */
function objectRowsOf(outcome: SqlOutcome): Record<string, unknown>[] {
  const names = outcome.fields.map((field) => field.name)
  return outcome.rows.map((row) => {
    const record: Record<string, unknown> = {}
    names.forEach((name, column) => {
      record[name] = driverValue(row[column] ?? null, outcome.typeOids[column] ?? 0)
    })
    return record
  })
}

/**
 * A value as node-postgres's default parsers leave it once JSON-encoded, from the sandbox's own
 * JSON-safe value: bytea a Buffer (`{type:"Buffer",data:[…]}`), a float's NaN or ±Infinity
 * null, a date or a timestamp a Date (an ISO instant, the server's zone being UTC).
 */
function driverValue(value: unknown, oid: number): unknown {
  if (typeof value !== 'string') return value
  switch (oid) {
    case OID.bytea:
      return /^\\x([0-9a-f]{2})*$/i.test(value)
        ? { type: 'Buffer', data: [...Buffer.from(value.slice(2), 'hex')] }
        : value
    case OID.float4:
    case OID.float8:
      return null
    case OID.date:
      return /^\d{4}-\d\d-\d\d$/.test(value) ? `${value}T00:00:00.000Z` : value
    case OID.timestamp: {
      const instant = Date.parse(`${value}Z`)
      return /^\d{4}-\d\d-\d\dT/.test(value) && Number.isFinite(instant)
        ? new Date(instant).toISOString()
        : value
    }
    default:
      return value
  }
}
