import { parseOnce, type ParsedText } from '../sql-guard'
import { walk } from '../sql-guard/classify'
import type { PgNode, ScannedToken } from '../sql-guard/pg-parser'
import { isPgParserLoaded, scanSql } from '../sql-guard/pg-parser'
import { shapeOf } from './statement-shape'

/*
 * A statement as the activity log keeps it (and its CSV and NDJSON exports, made for an
 * auditor): its text, comments dropped and each gap one space, with every secret PostgreSQL's
 * own parser can locate written `[redacted]`:
 *   - a role's password (CREATE/ALTER ROLE|USER … PASSWORD '…');
 *   - an option whose name speaks of a secret (password, passfile, sslkey, secret, token, …) in
 *     any OPTIONS/WITH list: user mappings, foreign servers and wrappers, foreign tables;
 *   - a subscription's CONNECTION string;
 *   - the connection string handed to dblink, dblink_exec, dblink_connect(_u);
 *   - a literal that speaks of a secret itself (code in a DO block or function body, which the
 *     parser does not open; a connection string with a password; a PEM private key).
 * The caller then cuts every token the app knows and every credential-shaped stretch (the
 * activity log's own redaction). A text the parser refuses, or whose literal boundaries hang on
 * standard_conforming_strings (a plain '…' holding a backslash), cannot have its secrets
 * located: it is kept as its shape (statement-shape.ts, every literal `…`) and says so.
 */

/** Characters of text kept at most; the rest is counted, not kept. */
export const AUDIT_TEXT_LENGTH = 4000

export const REDACTED_LITERAL = '[redacted]'

/** Said after a shape, so the log does not pass it off as the statement's text. */
export const SHAPE_NOTE = '(literals hidden: PostgreSQL could not parse the statement)'

/** Option names whose value is a credential (any FDW's spelling: password, sslpassword, …). */
const SECRET_OPTION = /pass|secret|token|key|credential/i

/**
 * A literal that itself speaks of a secret: code in a string (a DO block or a function body,
 * which PostgreSQL's parser does not open: `EXECUTE 'ALTER ROLE … PASSWORD …'`), a connection
 * string with a password, a PEM private key. Hidden whole: where its secret stands inside it
 * cannot be located.
 */
const SPEAKS_OF_A_SECRET = /password|passwd|dblink|PRIVATE KEY-----/i

/** dblink's functions that take a connection string, and which argument holds it. */
const DBLINK_CONNECTION_ARGUMENT: Readonly<Record<string, 'first' | 'last'>> = {
  dblink: 'first',
  dblink_exec: 'first',
  dblink_connect: 'last',
  dblink_connect_u: 'last',
}

/**
 * The statement text for the activity log; call after `loadPgParser()` resolved. `parsed`, the
 * guard's parse of the text it judged for this send, is read instead of parsing again.
 */
export function statementAuditText(
  sql: string,
  parsed?: ParsedText,
  max = AUDIT_TEXT_LENGTH,
): string {
  const located = isPgParserLoaded() ? textWithSecretsRedacted(sql, parsed) : null
  if (located !== null) return bounded(located, max)
  const { shape, hidden } = shapeOf(sql, max)
  return hidden === 0 ? shape : `${shape} ${SHAPE_NOTE}`
}

/** `text` cut to `max` characters, saying how many were left out. */
function bounded(text: string, max: number): string {
  if (text.length <= max) return text
  const kept = text.slice(0, max).trimEnd()
  return `${kept}… (${text.length - kept.length} more characters)`
}

function textWithSecretsRedacted(sql: string, handed: ParsedText | undefined): string | null {
  const parsed = parseOnce(sql, handed)
  if (!parsed.ok) return null
  const tokens = scanSql(sql)
  if (tokens.length === 0 && sql.trim() !== '') return null
  if (tokens.some((token) => isPlainString(token) && token.text.includes('\\'))) return null
  const byteStarts = byteStartsOf(sql, tokens)
  const secret = new Set<number>()
  const stringsBetween = (fromByte: number, endByte: number) =>
    tokens.flatMap((token, index) => {
      const byte = byteStarts[index] ?? 0
      return byte >= fromByte && byte < endByte && isString(token) ? [index] : []
    })
  for (const statement of parsed.statements) {
    const startByte = Buffer.byteLength(sql.slice(0, statement.start))
    const endByte = startByte + Buffer.byteLength(statement.text)
    const markFirstFrom = (location: number) => {
      // A secret the tree does not locate (no location) hides every literal of its statement.
      const strings = stringsBetween(Math.max(location, startByte), endByte)
      for (const index of location < startByte ? strings : strings.slice(0, 1)) secret.add(index)
    }
    for (const location of secretLocationsOf(statement.node)) markFirstFrom(location)
    if (conninfoOf(statement.node) !== null) {
      // The subscription's connection string is the first literal after its CONNECTION.
      const keyword = tokens.findIndex(
        (token, index) =>
          (byteStarts[index] ?? 0) >= startByte && token.text.toUpperCase() === 'CONNECTION',
      )
      markFirstFrom(keyword >= 0 ? (byteStarts[keyword] ?? 0) + 1 : -1)
    }
  }
  tokens.forEach((token, index) => {
    if (isString(token) && SPEAKS_OF_A_SECRET.test(token.text)) secret.add(index)
  })
  return joinTokens(sql, tokens, secret)
}

/** Byte offsets (where the parse tree's locations point) of where each statement secret is. */
function secretLocationsOf(node: PgNode): number[] {
  const locations: number[] = []
  walk(node, (key, value) => {
    if (key === 'DefElem' && isRecord(value)) {
      const option = value as { defname?: unknown; arg?: unknown; location?: unknown }
      if (
        typeof option.defname === 'string' &&
        SECRET_OPTION.test(option.defname) &&
        isRecord(option.arg) &&
        'String' in option.arg
      ) {
        // The option's name (or PASSWORD keyword) is located; its value is the next literal.
        locations.push(locationOf(option.location))
      }
    }
    if (key === 'FuncCall' && isRecord(value)) {
      const argument = connectionArgumentOf(value)
      if (argument !== undefined) locations.push(...literalLocationsIn(argument))
    }
    return true
  })
  return locations
}

/** The argument of a dblink call that holds a connection string, if this call is one. */
function connectionArgumentOf(call: Record<string, unknown>): unknown {
  const names = Array.isArray(call.funcname) ? call.funcname : []
  const last = names.at(-1) as { String?: { sval?: unknown } } | undefined
  const name = last?.String?.sval
  const which =
    typeof name === 'string' ? DBLINK_CONNECTION_ARGUMENT[name.toLowerCase()] : undefined
  const args = Array.isArray(call.args) ? call.args : []
  if (which === undefined || args.length === 0) return undefined
  return which === 'first' ? args[0] : args.at(-1)
}

/** Where each string constant inside `node` stands (`'host=' || 'x'` has two). */
function literalLocationsIn(node: unknown): number[] {
  const locations: number[] = []
  walk({ node }, (key, value) => {
    if (key === 'A_Const' && isRecord(value) && 'sval' in value) {
      locations.push(locationOf(value.location))
    }
    return true
  })
  return locations
}

/** A subscription statement's connection string, when it sets one. */
function conninfoOf(node: PgNode): string | null {
  const statement = (node.CreateSubscriptionStmt ?? node.AlterSubscriptionStmt) as
    { conninfo?: unknown } | undefined
  return typeof statement?.conninfo === 'string' ? statement.conninfo : null
}

/** The tokens in order, one space where the source had a gap or a comment. */
function joinTokens(sql: string, tokens: readonly ScannedToken[], secret: Set<number>): string {
  let text = ''
  let lastEnd: number | null = null
  let gap = false
  tokens.forEach((token, index) => {
    if (isComment(token)) {
      gap = true
      return
    }
    if (lastEnd !== null && (gap || token.start > lastEnd)) text += ' '
    text += secret.has(index) ? REDACTED_LITERAL : sql.slice(token.start, token.end)
    lastEnd = token.end
    gap = false
  })
  return text
}

/** Each token's UTF-8 byte offset, counted once along the text. */
function byteStartsOf(sql: string, tokens: readonly ScannedToken[]): number[] {
  let byte = 0
  let char = 0
  return tokens.map((token) => {
    byte += Buffer.byteLength(sql.slice(char, token.start))
    char = token.start
    return byte
  })
}

function isComment(token: ScannedToken): boolean {
  return token.kind === 'SQL_COMMENT' || token.kind === 'C_COMMENT'
}

/** A string constant in any spelling: '…', E'…', N'…', B'…', X'…', U&'…', $tag$…$tag$. */
function isString(token: ScannedToken): boolean {
  return /^(?:[EeNnBbXx]|[Uu]&)?'/.test(token.text) || /^\$[^$]*\$/.test(token.text)
}

/** A plain '…' string, the spelling standard_conforming_strings decides the end of. */
function isPlainString(token: ScannedToken): boolean {
  return /^(?:[Nn]|[Uu]&)?'/.test(token.text)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A node's byte location; -1 (unknown: every literal of its statement hidden) when absent. */
function locationOf(value: unknown): number {
  return typeof value === 'number' ? value : -1
}
