import { builtInTypeName, toJsonSafe, typeNameLookupSql } from './values'
import { SqlError, type PostgresDatabaseSpec, type SqlOutcome } from './types'

/*
 * One database's connection, whatever runs it (PGlite or a real server), and the one way
 * a statement is run on it: the same result shape, truncation and errors for both.
 */

/** One statement's result as a backend reports it, values already parsed by VALUE_PARSERS. */
export interface RawResult {
  command: string | null
  rowCount: number | null
  fields: { name: string; typeOid: number }[]
  rows: unknown[][]
}

export interface SqlSession {
  /** Runs SQL by the simple query protocol (one or more statements); a result per statement. */
  exec(sql: string): Promise<RawResult[]>
  /** Called before each caller statement (a server session re-pins its search_path). */
  beforeStatement(): Promise<void>
  /** True inside a transaction block the caller opened (BEGIN without COMMIT yet). */
  inTransactionBlock(): boolean
  close(): Promise<void>
}

/** Opens seeded sessions for one kind of backend. */
export interface SessionFactory {
  /** A session on a freshly seeded database (seeded anew even if it existed before). */
  open(spec: PostgresDatabaseSpec): Promise<SqlSession>
  /** Releases what the factory keeps between sessions (templates, pools). */
  close(): Promise<void>
}

const CURSOR = 'infradesk_sandbox_cursor'

/**
 * Runs one caller statement (or a script; the last result counts) and shapes the outcome.
 *
 * A single read-only query is run through a cursor: FETCH brings back at most maxRows rows
 * and MOVE ALL counts the rest inside the database, so a 100,000-row SELECT never crosses
 * into JavaScript. Anything the cursor cannot wrap (several statements, data-modifying
 * WITH, SELECT INTO, an error) is run again as written, which is what reports the error
 * and its position exactly as PostgreSQL sees the caller's text.
 */
export async function runStatement(
  session: SqlSession,
  sql: string,
  maxRows: number,
  typeNames: TypeNameCache,
): Promise<SqlOutcome> {
  const limit = Number.isFinite(maxRows) ? Math.max(0, Math.floor(maxRows)) : 0
  await session.beforeStatement()
  const started = performance.now()
  const { readOnly, body } = splitReadOnlyPrefix(sql)
  const viaCursor = isCursorCandidate(body) && !session.inTransactionBlock()
  const outcome =
    (viaCursor ? await runThroughCursor(session, body, limit, readOnly) : null) ??
    (await runAsWritten(session, sql, limit))
  const durationMs = Math.round((performance.now() - started) * 1000) / 1000
  const names = await typeNames.namesFor(
    session,
    outcome.fields.map((field) => field.typeOid),
  )
  return {
    command: outcome.command,
    rowCount: outcome.rowCount,
    fields: outcome.fields.map((field) => ({
      name: field.name,
      dataType: names.get(field.typeOid) ?? 'unknown',
    })),
    typeOids: outcome.fields.map((field) => field.typeOid),
    rows: outcome.rows.map((row) => row.map(toJsonSafe)),
    truncated: outcome.truncated,
    durationMs,
  }
}

type ShapedResult = Omit<SqlOutcome, 'fields' | 'typeOids' | 'durationMs'> & {
  fields: RawResult['fields']
}

/**
 * A client may send `SET TRANSACTION READ ONLY;` before a query (Infradesk's read-only tabs do):
 * the query still goes through the cursor, in a read-only transaction.
 */
function splitReadOnlyPrefix(sql: string): { readOnly: boolean; body: string } {
  const prefix = /^\s*set\s+transaction\s+read\s+only\s*;/i.exec(sql)
  return prefix
    ? { readOnly: true, body: sql.slice(prefix[0].length) }
    : { readOnly: false, body: sql }
}

async function runThroughCursor(
  session: SqlSession,
  sql: string,
  limit: number,
  readOnly: boolean,
): Promise<ShapedResult | null> {
  const body = sql.replace(/[\s;]+$/, '')
  // One round trip. The caller's text holds no ';' (isCursorCandidate), and what follows it
  // holds no quote or comment end, so an unterminated literal in it can only fail. Each ';'
  // starts a line, so a trailing -- comment in the caller's text cannot swallow it.
  const script = [
    readOnly ? 'BEGIN READ ONLY' : 'BEGIN',
    `DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${body}`,
    `FETCH FORWARD ${limit} FROM ${CURSOR}`,
    `MOVE FORWARD ALL IN ${CURSOR}`,
    'COMMIT',
  ].join('\n;\n')
  let results: RawResult[]
  try {
    results = await session.exec(script)
  } catch (error) {
    if (!isDatabaseError(error)) throw error
    await session.exec('ROLLBACK').catch(() => undefined)
    return null
  }
  const page = results[2]
  const moved = results[3]
  if (!page || !moved) return null
  const rest = moved.rowCount ?? 0
  return {
    command: 'SELECT',
    rowCount: page.rows.length + rest,
    fields: page.fields,
    rows: page.rows,
    truncated: rest > 0,
  }
}

async function runAsWritten(
  session: SqlSession,
  sql: string,
  limit: number,
): Promise<ShapedResult> {
  let results: RawResult[]
  try {
    results = await session.exec(sql)
  } catch (error) {
    throw toSqlError(error)
  }
  const last = results[results.length - 1] ?? {
    command: null,
    rowCount: null,
    fields: [],
    rows: [],
  }
  return {
    command: last.command ?? '',
    rowCount: last.rowCount,
    fields: last.fields,
    rows: last.rows.slice(0, limit),
    truncated: last.rows.length > limit,
  }
}

/** A lone SELECT, WITH, VALUES or TABLE query, with no ';' but trailing ones. */
export function isCursorCandidate(sql: string): boolean {
  const body = sql.replace(/[\s;]+$/, '')
  if (body.includes(';')) return false
  const start = skipLeadingComments(body)
  return /^(select|with|values|table)\b/i.test(body.slice(start))
}

function skipLeadingComments(sql: string): number {
  let index = 0
  for (;;) {
    while (index < sql.length && /\s/.test(sql[index]!)) index++
    if (sql.startsWith('--', index)) {
      const end = sql.indexOf('\n', index)
      if (end === -1) return sql.length
      index = end + 1
    } else if (sql.startsWith('/*', index)) {
      // Block comments nest in PostgreSQL.
      let depth = 0
      do {
        if (sql.startsWith('/*', index)) {
          depth++
          index += 2
        } else if (sql.startsWith('*/', index)) {
          depth--
          index += 2
        } else {
          index++
        }
      } while (depth > 0 && index < sql.length)
    } else {
      return index
    }
  }
}

interface DatabaseErrorLike {
  message: string
  code: string
  position?: string | number
}

/** Both drivers throw pg-protocol's DatabaseError: a message, a SQLSTATE and maybe a position. */
export function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  if (!(error instanceof Error)) return false
  const code: unknown = (error as { code?: unknown }).code
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}

export function toSqlError(error: unknown): unknown {
  if (!isDatabaseError(error)) return error
  const position = Number(error.position)
  return new SqlError(
    error.message,
    error.code,
    Number.isInteger(position) && position > 0 ? position : null,
  )
}

/** Type names by OID: built-ins from a table, others asked of pg_type once per session. */
export class TypeNameCache {
  private readonly looked = new Map<number, string>()

  async namesFor(session: SqlSession, oids: number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>()
    const missing = new Set<number>()
    for (const oid of oids) {
      const name = builtInTypeName(oid) ?? this.looked.get(oid)
      if (name) names.set(oid, name)
      else missing.add(oid)
    }
    if (missing.size === 0) return names
    try {
      const [result] = await session.exec(typeNameLookupSql([...missing]))
      for (const row of result?.rows ?? []) {
        const [oid, name] = row
        if (typeof oid === 'number' && typeof name === 'string') {
          this.looked.set(oid, name)
          names.set(oid, name)
        }
      }
    } catch {
      // A caller's aborted transaction refuses even this read; the names stay unknown.
    }
    return names
  }
}
