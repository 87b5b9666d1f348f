import { tokenize, type Token } from '../../../../shared/sql/lexer'

/*
 * The table aliases of the statement under the cursor, for completion:
 * `select a.| from accounts a join public.orders as o on …` knows that `a` is accounts and `o`
 * is public.orders, so `a.` completes accounts' columns. Read with the project's lexer, so a
 * FROM inside a string, a comment or a dollar quote is never taken for one. Only the statement
 * holding the cursor counts (statements end at a top-level ';'). Scope is not modelled: an alias
 * in a subquery counts for the whole statement, which is what completion wants of it.
 */

export interface TableRef {
  /** The schema written before the table (`public.orders`), or null. */
  schema: string | null
  table: string
}

/** Words after which a table reference (name [AS] alias) follows. */
const TABLE_INTRODUCERS = new Set(['from', 'join', 'update', 'into'])

/** Words that end a FROM list (its commas then separate something else). */
const END_FROM_LIST = new Set(
  'where group order having limit offset fetch for union intersect except window set values returning select on using'.split(
    ' ',
  ),
)

/** Words that follow a table name without being its alias. */
const NOT_AN_ALIAS = new Set(
  (
    'where join inner left right full outer cross natural on using group order having limit ' +
    'offset fetch for union intersect except window set values returning select lateral only ' +
    'tablesample default do with as and or not into'
  ).split(' '),
)

/** Aliases by name (unquoted names lowercased, as PostgreSQL folds them). */
export function aliasesAt(text: string, cursor: number): Map<string, TableRef> {
  const tokens = statementTokens(tokenize(text), cursor)
  const aliases = new Map<string, TableRef>()
  let index = 0
  // After FROM, a comma starts another table reference; a clause keyword ends the list.
  let inFromList = false
  while (index < tokens.length) {
    const token = tokens[index]!
    if (token.kind === 'word' && END_FROM_LIST.has(token.value)) inFromList = false
    const introduces =
      (token.kind === 'word' && TABLE_INTRODUCERS.has(token.value)) ||
      (inFromList && isPunctuation(token, ','))
    if (token.kind === 'word' && token.value === 'from') inFromList = true
    const read = introduces ? readTableRef(tokens, index + 1) : null
    if (read === null) {
      index += 1
      continue
    }
    if (read.alias !== null) aliases.set(read.alias, read.ref)
    index = read.next
  }
  return aliases
}

/** `[ONLY] [schema.]table [[AS] alias]` from `start`; null when no table name is there. */
function readTableRef(
  tokens: readonly Token[],
  start: number,
): { ref: TableRef; alias: string | null; next: number } | null {
  let index = start
  if (isWord(tokens[index], 'only')) index += 1
  const first = nameOf(tokens[index])
  if (first === null) return null
  index += 1
  let ref: TableRef = { schema: null, table: first }
  if (isPunctuation(tokens[index], '.')) {
    const second = nameOf(tokens[index + 1])
    if (second === null) return null
    ref = { schema: first, table: second }
    index += 2
  }
  // A function in FROM (generate_series(…)) is not a table.
  if (isPunctuation(tokens[index], '(')) return null
  let explicit = false
  if (isWord(tokens[index], 'as')) {
    explicit = true
    index += 1
  }
  const candidate = tokens[index]
  const alias =
    candidate === undefined
      ? null
      : candidate.kind === 'quoted-identifier'
        ? unquote(candidate.value)
        : candidate.kind === 'word' && (explicit || !NOT_AN_ALIAS.has(candidate.value))
          ? candidate.value
          : null
  return { ref, alias, next: alias === null ? index : index + 1 }
}

/** The significant tokens of the statement holding `cursor`, parentheses and all. */
function statementTokens(tokens: readonly Token[], cursor: number): Token[] {
  let start = 0
  let depth = 0
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (token.kind === 'punctuation' && token.value === '(') depth += 1
    if (token.kind === 'punctuation' && token.value === ')') depth = Math.max(0, depth - 1)
    if (token.kind !== 'punctuation' || token.value !== ';' || depth > 0) continue
    if (token.from >= cursor) {
      return significant(tokens.slice(start, index))
    }
    start = index + 1
  }
  return significant(tokens.slice(start))
}

function significant(tokens: readonly Token[]): Token[] {
  return tokens.filter((token) => token.kind !== 'comment')
}

function nameOf(token: Token | undefined): string | null {
  if (token === undefined) return null
  if (token.kind === 'quoted-identifier') return unquote(token.value)
  if (token.kind === 'word' && !NOT_AN_ALIAS.has(token.value)) return token.value
  return null
}

function unquote(quoted: string): string {
  return quoted.slice(1, -1).replace(/""/g, '"')
}

function isWord(token: Token | undefined, word: string): boolean {
  return token?.kind === 'word' && token.value === word
}

function isPunctuation(token: Token | undefined, value: string): boolean {
  return token?.kind === 'punctuation' && token.value === value
}

/**
 * The columns of `ref` in the completion schema (schema → table → column names), looked up
 * as PostgreSQL would: the named schema, else `public`, else the first schema that has it.
 */
export function columnsOf(
  schema: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>,
  ref: TableRef,
): readonly string[] | null {
  const lookIn = ref.schema !== null ? [ref.schema] : ['public', ...Object.keys(schema)]
  for (const name of lookIn) {
    // Own keys only: a table named "constructor" must not find Object's.
    if (!Object.hasOwn(schema, name)) continue
    const tables = schema[name]!
    if (Object.hasOwn(tables, ref.table)) return tables[ref.table]!
  }
  return null
}

/**
 * The qualifier and partial column just before the cursor (`a.na|` → a, "na"), or null when
 * the cursor does not follow `name.`. Unquoted names come back lowercased.
 */
export function qualifiedPrefix(textBefore: string): { qualifier: string; partial: string } | null {
  const match = /(?:([A-Za-z_][A-Za-z0-9_$]*)|"((?:[^"]|"")+)")\.([A-Za-z0-9_$]*)$/.exec(textBefore)
  if (!match) return null
  const qualifier = match[1] !== undefined ? match[1].toLowerCase() : match[2]!.replace(/""/g, '"')
  return { qualifier, partial: match[3] ?? '' }
}
