import type { SqlPlaceholder } from '../../shared/bridge/channels/sql'
import { scanSql, type ScannedToken } from './pg-parser'

/*
 * The SQL console's `:name` placeholders, found with PostgreSQL's own scanner: a `:name` inside
 * a string, a quoted identifier, a comment or a dollar quote is text as PostgreSQL reads it
 * (an E-string continued across lines, a `--` comment ended by CR), `::cast` is one token, and
 * `a[1:n]` is a slice. A placeholder where a table or column name goes (after FROM, JOIN, INTO,
 * UPDATE, TABLE, or beside a `.`) is marked: a literal cannot stand there.
 */

/** Keywords after which a name, not a value, is expected. */
const IDENTIFIER_KEYWORDS = new Set(['from', 'join', 'into', 'update', 'table'])

const COMMENTS = new Set(['SQL_COMMENT', 'C_COMMENT'])

/** A word of the scanner: an identifier or a keyword (keywords have no token name of their own). */
function isWord(token: ScannedToken): boolean {
  return (
    token.kind === 'IDENT' ||
    (/^[A-Za-z_][A-Za-z0-9_$]*$/.test(token.text) && token.kind !== 'SCONST')
  )
}

/** Every `:name` placeholder of `sql`, in text order (a name may occur more than once). Needs the parser loaded. */
export function findPlaceholdersLoaded(sql: string): SqlPlaceholder[] {
  if (!sql.includes(':')) return []
  const tokens = scanSql(sql)
  const placeholders: SqlPlaceholder[] = []
  let bracketDepth = 0
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (token.text === '[') bracketDepth += 1
    if (token.text === ']') bracketDepth = Math.max(0, bracketDepth - 1)
    if (token.text !== ':' || bracketDepth > 0) continue
    const next = tokens[index + 1]
    // `:name` is one unit: no space between the colon and the name; a quoted name is not one.
    if (
      next === undefined ||
      next.start !== token.end ||
      !isWord(next) ||
      next.text.startsWith('"')
    ) {
      continue
    }
    const previous = previousSignificant(tokens, index)
    const after = tokens[index + 2]
    const inIdentifierPosition =
      (previous !== undefined &&
        IDENTIFIER_KEYWORDS.has(previous.text.toLowerCase()) &&
        previous.kind !== 'IDENT') ||
      (previous?.text === '.' && previous.end === token.start) ||
      (after?.text === '.' && after.start === next.end)
    placeholders.push({
      name: next.text,
      from: token.start,
      to: next.end,
      inIdentifierPosition,
    })
  }
  return placeholders
}

function previousSignificant(
  tokens: readonly ScannedToken[],
  index: number,
): ScannedToken | undefined {
  for (let at = index - 1; at >= 0; at -= 1) {
    if (!COMMENTS.has(tokens[at]!.kind)) return tokens[at]
  }
  return undefined
}
