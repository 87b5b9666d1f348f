import { isServiceError } from '../api'
import { splitSqlLoaded, type ParsedText } from '../sql-guard'

/*
 * A read-only tab on a service that runs each statement of a text on its own (a real
 * deployment: `results[]`, one per statement, in order, on one pooled connection). There a
 * `SET TRANSACTION READ ONLY;` before the text is a statement of its own and guards nothing, so
 * the text goes inside a transaction of its own:
 *
 *   BEGIN TRANSACTION READ ONLY; <the tab's statements>; ROLLBACK;
 *
 * That holds because the service runs the statements in order on one connection and stops at
 * the first that fails; the console refuses, before sending, any statement that would end or
 * change that transaction (COMMIT, ROLLBACK, SET TRANSACTION…: features/sql/guard.ts), so PostgreSQL
 * itself refuses every write in between, whatever the classifier thought of it.
 */

export const READ_ONLY_BEGIN = 'BEGIN TRANSACTION READ ONLY;\n'
export const READ_ONLY_END = '\n;\nROLLBACK;'

/** What the statements of a wrapped text are: the tab's, and the two the wrap adds. */
export const WRAP_STATEMENTS = 2

export type Wrapped = { sql: string; prefix: string } | { refused: string }

/**
 * The tab's text inside its read-only transaction, or why it cannot be: the wrap must split
 * back into BEGIN, the tab's statements and ROLLBACK (as PostgreSQL's parser splits it: needs
 * `loadPgParser()` first; `parsed`, the guard's parse of `sql`, is read when given). An
 * unterminated quote or comment at the end would swallow the ROLLBACK and leave the transaction
 * open on the service's connection.
 */
export function wrapReadOnly(sql: string, parsed?: ParsedText): Wrapped {
  const own = splitSqlLoaded(sql, parsed).length
  const wrapped = `${READ_ONLY_BEGIN}${sql}${READ_ONLY_END}`
  const statements = splitSqlLoaded(wrapped)
  const last = statements[statements.length - 1]?.text
  if (statements.length !== own + WRAP_STATEMENTS || last?.toUpperCase() !== 'ROLLBACK') {
    return {
      refused:
        'the text does not end where it seems to (an unterminated quote, identifier or comment), so the ROLLBACK that ends its read-only transaction would be read as part of it',
    }
  }
  return { sql: wrapped, prefix: READ_ONLY_BEGIN }
}

/**
 * The answer's shape from its bytes, without parsing rows: `results` when `data.results` is an
 * array (one result per statement), `single` otherwise. A big answer is judged by its head (a
 * wrapped text's answer from a service that does not split is the ROLLBACK's, a few bytes).
 */
export function answerShapeOf(body: Buffer): 'results' | 'single' {
  const head = body.toString('utf8', 0, Math.min(body.byteLength, 256))
  if (/^\s*\{\s*"data"\s*:\s*\{\s*"results"\s*:\s*\[/.test(head)) return 'results'
  if (body.byteLength > 64 * 1024) return /"results"\s*:\s*\[/.test(head) ? 'results' : 'single'
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { data?: { results?: unknown } }
    return Array.isArray(parsed.data?.results) ? 'results' : 'single'
  } catch {
    return 'single'
  }
}

/**
 * A refusal for too many statements in one request (a real deployment: 400
 * POSTGRES_STATEMENT_LIMIT_EXCEEDED, "… limited to 10 statements per request") and the limit it
 * states, when it states one. Null for any other error.
 */
export function statementLimitRefusal(error: unknown): { limit: number | null } | null {
  if (!isServiceError(error)) return null
  const named = /STATEMENT_LIMIT/i.test(error.code)
  const said = /(?:limited to|at most|no more than|maximum of)\s*(\d+)\s*statements/i.exec(
    error.message,
  )
  if (!named && !said) return null
  const limit = said ? Number(said[1]) : null
  return { limit: limit !== null && Number.isInteger(limit) && limit >= 1 ? limit : null }
}

/** The tab's statements and the wrap's, as the service counts them against its limit (parser loaded). */
export function statementsSent(sql: string, wrapped: boolean, parsed?: ParsedText): number {
  return splitSqlLoaded(sql, parsed).length + (wrapped ? WRAP_STATEMENTS : 0)
}
