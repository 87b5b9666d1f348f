import { significantTokens, tokenize, type Token } from './lexer'
import { isKnownWriter, READ_ONLY_FUNCTIONS } from './read-only-functions'
import { splitStatements } from './splitter'

/*
 * Read or write? The guard of protected profiles and read-only tabs asks this of every
 * statement before it is sent. The answer is "read" only when the statement is proven
 * read-only; anything the classifier does not understand is a write. It works on tokens, so
 * a keyword inside a comment, a string, a dollar quote or a quoted identifier is never
 * mistaken for one.
 *
 * A text is judged whole: a service runs every statement in it (the sandbox does), so a text is
 * a read only when each of its statements is. A function call is a read only when the function
 * is on the read-only list (read-only-functions.ts); a user's or an extension's function may
 * write.
 */

export type Classification =
  | { kind: 'read' }
  | {
      kind: 'write'
      /** In words, for the confirmation and the refusal: "DELETE changes data". */
      reason: string
    }

/** Statements that open, end or mark a transaction (a read-only tab's own transaction too). */
export const TRANSACTION_CONTROL = new Set([
  'begin',
  'start',
  'commit',
  'end',
  'rollback',
  'abort',
  'savepoint',
  'release',
  'prepare',
])

/**
 * Statements that only read (or only change the session's transaction state). PREPARE
 * TRANSACTION is not one: it hands the transaction over to be committed later.
 */
const READ_COMMANDS = new Set([
  'select',
  'values',
  'table',
  'show',
  ...[...TRANSACTION_CONTROL].filter((command) => command !== 'prepare'),
])

/** Words that make a WITH (or a statement nested in EXPLAIN) write. */
const DATA_MODIFYING = new Set(['insert', 'update', 'delete', 'merge'])

/** Row-locking clauses: FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE. */
const LOCK_STRENGTHS = new Set(['update', 'share', 'no', 'key'])

/**
 * Words that PostgreSQL reads as grammar before a '(' (reserved keywords, and the few others
 * that open a parenthesised part of a query): `IN (`, `EXISTS (`, `ANY (`, `OVER (`... never a
 * function call. A quoted identifier is always a name, so `"exists"(…)` is a call.
 */
const GRAMMAR_BEFORE_PARENS = new Set(
  `all analyse analyze and any array as asc asymmetric both case cast check collate column
  constraint create current_catalog current_date current_role current_time current_timestamp
  current_user default deferrable desc distinct do else end except false fetch for foreign from
  grant group having in initially intersect into lateral leading limit localtime localtimestamp
  not null offset on only or order placing primary references returning select session_user
  some symmetric system_user table then to trailing true union unique user using variadic when
  where window with exists values row between by rollup conflict operator columns passing
  ordinality tablesample`
    .split(/\s+/)
    .filter((word) => word !== ''),
)

/** Unreserved words that are grammar only right after a closing ')': `count(*) FILTER (…)`. */
const GRAMMAR_AFTER_CLOSE = new Set(['filter', 'over', 'repeatable'])

export function classifyStatement(sql: string): Classification {
  for (const statement of splitStatements(sql)) {
    const classification = classifyOne(statement.text)
    if (classification.kind === 'write') return classification
  }
  return { kind: 'read' }
}

export function isReadOnly(sql: string): boolean {
  return classifyStatement(sql).kind === 'read'
}

/** The first command word of a statement (leading parentheses skipped), or null. */
export function commandOf(statement: string): string | null {
  const tokens = significantTokens(tokenize(statement))
  return firstWord(tokens)?.value ?? null
}

function classifyOne(statement: string): Classification {
  const tokens = significantTokens(tokenize(statement))
  // The splitter keeps ';' inside parentheses in one statement (CREATE RULE … DO (a; b)); a
  // service may still split there, so what follows it cannot be proven read-only.
  if (tokens.some((token) => isPunctuation(token, ';'))) {
    return write("it holds a ';' inside parentheses, so it may be more than one statement")
  }
  return classifyTokens(tokens)
}

function firstWord(tokens: readonly Token[]): Token | undefined {
  let start = 0
  while (isPunctuation(tokens[start], '(')) start += 1
  return tokens[start]
}

function classifyTokens(tokens: readonly Token[]): Classification {
  // Leading parentheses: "(SELECT 1) UNION (SELECT 2)".
  let start = 0
  while (isPunctuation(tokens[start], '(')) start += 1
  const first = tokens[start]
  if (!first) return { kind: 'read' }
  if (first.kind !== 'word') return write('it does not start with a known command')
  const command = first.value
  const rest = tokens.slice(start)

  if (command === 'explain') return classifyExplain(rest.slice(1))
  if (command === 'with' || command === 'select' || command === 'values' || command === 'table') {
    return classifyQuery(rest, command)
  }
  if ((command === 'commit' || command === 'rollback') && rest[1]?.value === 'prepared') {
    return write(`${command.toUpperCase()} PREPARED ends a prepared transaction`)
  }
  if (READ_COMMANDS.has(command)) return { kind: 'read' }
  return write(`${command.toUpperCase()} ${describeCommand(command)}`)
}

function classifyQuery(tokens: readonly Token[], command: string): Classification {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    const next = tokens[index + 1]
    const call = calledFunction(tokens, index)
    if (call !== null) {
      if (call.trusted && isKnownWriter(call.name)) {
        return write(`it calls ${call.display}(), which changes state`)
      }
      if (!call.trusted || !READ_ONLY_FUNCTIONS.has(call.name)) {
        return write(`it calls ${call.display}(), which is not known to be read-only`)
      }
    }
    if (token.kind !== 'word') continue
    if (DATA_MODIFYING.has(token.value) && !isLockingClause(tokens, index)) {
      return write(`the ${command.toUpperCase()} contains ${token.value.toUpperCase()}`)
    }
    if (token.value === 'for' && next?.kind === 'word' && LOCK_STRENGTHS.has(next.value)) {
      return write(`${lockClause(tokens, index)} locks the rows it reads`)
    }
    if (token.value === 'into' && depthAt(tokens, index) === 0) {
      return write('SELECT … INTO creates a table')
    }
  }
  return { kind: 'read' }
}

interface FunctionCall {
  /** The function's own name, as PostgreSQL resolves it (quoted names keep their case). */
  name: string
  /** As written, with its schema: `pg_catalog.nextval`, `"NextVal"`. */
  display: string
  /** Unqualified or in pg_catalog: a built-in. Any other schema's function is someone's own. */
  trusted: boolean
}

/**
 * The function called at `index` (a name followed by '('), or null when that '(' is grammar:
 * a keyword's (`IN (`), a type's modifier (`::numeric(10,2)`, `AS varchar(20)`), a CTE's or an
 * alias's column list (`WITH x(a) AS (`, `generate_series(1, 3) g(i)`).
 */
function calledFunction(tokens: readonly Token[], index: number): FunctionCall | null {
  const token = tokens[index]!
  if (!isPunctuation(tokens[index + 1], '(')) return null
  const before = tokens[index - 1]
  let name: string
  if (token.kind === 'word') {
    if (GRAMMAR_BEFORE_PARENS.has(token.value)) return null
    if (GRAMMAR_AFTER_CLOSE.has(token.value) && isPunctuation(before, ')')) return null
    name = token.value
  } else if (token.kind === 'quoted-identifier') {
    name = unquoteIdentifier(token.value)
  } else {
    return null
  }
  if (before?.kind === 'word' && before.value === 'as') return null
  if (isPunctuation(before, ':')) return null
  if (isPunctuation(before, ')') && !closesOperatorName(tokens, index - 1)) return null
  if (isCteColumnList(tokens, index)) return null
  if (isPunctuation(before, '.')) {
    const schema = tokens[index - 2]
    const schemaName =
      schema?.kind === 'quoted-identifier' ? unquoteIdentifier(schema.value) : schema?.value
    return {
      name,
      display: `${schema?.value ?? ''}.${token.value}`,
      trusted: schemaName === 'pg_catalog',
    }
  }
  return { name, display: token.value, trusted: true }
}

/** `WITH [RECURSIVE] name(cols) AS (` or `, name(cols) AS [NOT] [MATERIALIZED] (`. */
function isCteColumnList(tokens: readonly Token[], index: number): boolean {
  const before = tokens[index - 1]
  const opensCte =
    (before?.kind === 'word' && (before.value === 'with' || before.value === 'recursive')) ||
    isPunctuation(before, ',')
  if (!opensCte) return false
  const close = matchingClose(tokens, index + 1)
  if (close === -1 || tokens[close + 1]?.value !== 'as') return false
  const body = tokens[close + 2]
  const opensBody =
    isPunctuation(body, '(') || body?.value === 'materialized' || body?.value === 'not'
  return opensBody && inWithList(tokens, index)
}

/** Words that may stand between WITH and a later CTE's name (earlier CTEs, SEARCH/CYCLE). */
const WITH_LIST_WORDS = new Set(['as', 'not', 'by', 'recursive'])

/**
 * Walking back at the same depth from a name reaches WITH through nothing but earlier CTEs:
 * `select 1, f(x) as (…)` reaches SELECT (or a number) first, so f is called, not defined.
 */
function inWithList(tokens: readonly Token[], index: number): boolean {
  for (let cursor = index - 1; cursor >= 0; cursor -= 1) {
    const token = tokens[cursor]!
    if (isPunctuation(token, ')')) {
      cursor = matchingOpen(tokens, cursor)
      if (cursor === -1) return false
      continue
    }
    if (isPunctuation(token, ',') || token.kind === 'quoted-identifier') continue
    if (token.kind !== 'word') return false
    if (token.value === 'with') return true
    if (GRAMMAR_BEFORE_PARENS.has(token.value) && !WITH_LIST_WORDS.has(token.value)) return false
  }
  return false
}

/** Index of the '(' that the ')' at `close` closes, or -1. */
function matchingOpen(tokens: readonly Token[], close: number): number {
  let depth = 0
  for (let cursor = close; cursor >= 0; cursor -= 1) {
    if (isPunctuation(tokens[cursor], ')')) depth += 1
    if (isPunctuation(tokens[cursor], '(')) {
      depth -= 1
      if (depth === 0) return cursor
    }
  }
  return -1
}

/** `OPERATOR(pg_catalog.+) f(x)`: the ')' closes an operator's name, and a call may follow. */
function closesOperatorName(tokens: readonly Token[], closeIndex: number): boolean {
  const open = matchingOpen(tokens, closeIndex)
  return open > 0 && tokens[open - 1]?.value === 'operator'
}

/** Index of the ')' that closes the '(' at `open`, or -1. */
function matchingClose(tokens: readonly Token[], open: number): number {
  let depth = 0
  for (let cursor = open; cursor < tokens.length; cursor += 1) {
    if (isPunctuation(tokens[cursor], '(')) depth += 1
    if (isPunctuation(tokens[cursor], ')')) {
      depth -= 1
      if (depth === 0) return cursor
    }
  }
  return -1
}

/** `"na""me"` → `na"me`. A U&"…" name keeps its escapes, so it never matches a known name. */
function unquoteIdentifier(quoted: string): string {
  const body = quoted.endsWith('"') && quoted.length >= 2 ? quoted.slice(1, -1) : quoted.slice(1)
  return body.replaceAll('""', '"')
}

/** "update" right after FOR / FOR NO KEY is the locking clause, reported as such. */
function isLockingClause(tokens: readonly Token[], index: number): boolean {
  const before = tokens[index - 1]?.value
  const twoBefore = tokens[index - 2]?.value
  const threeBefore = tokens[index - 3]?.value
  return (
    tokens[index]?.value === 'update' &&
    (before === 'for' || (before === 'key' && twoBefore === 'no' && threeBefore === 'for'))
  )
}

function lockClause(tokens: readonly Token[], forIndex: number): string {
  const words: string[] = ['FOR']
  for (let index = forIndex + 1; index < tokens.length && words.length < 4; index += 1) {
    const value = tokens[index]!.value
    if (!LOCK_STRENGTHS.has(value)) break
    words.push(value.toUpperCase())
    if (value === 'update' || value === 'share') break
  }
  return `SELECT … ${words.join(' ')}`
}

/** Parenthesis depth at `index`: INTO at depth 0 is SELECT … INTO (INSERT INTO is caught as INSERT). */
function depthAt(tokens: readonly Token[], index: number): number {
  let depth = 0
  for (let cursor = 0; cursor < index; cursor += 1) {
    if (isPunctuation(tokens[cursor], '(')) depth += 1
    if (isPunctuation(tokens[cursor], ')')) depth -= 1
  }
  return depth
}

/** EXPLAIN's options and the statement it explains. */
function explainTarget(tokens: readonly Token[]): { analyze: boolean; statement: Token[] } {
  let index = 0
  let analyze = false
  if (isPunctuation(tokens[0], '(')) {
    // EXPLAIN (ANALYZE [true|on|1], FORMAT JSON, ...) statement
    index = 1
    while (index < tokens.length && tokens[index]!.value !== ')') {
      const option = tokens[index]!
      if (option.kind === 'word' && (option.value === 'analyze' || option.value === 'analyse')) {
        const value = tokens[index + 1]
        analyze = !(value && ['false', 'off', '0'].includes(value.value))
      }
      index += 1
    }
    index += 1
  } else {
    // Old syntax: EXPLAIN [ANALYZE] [VERBOSE] statement
    while (
      tokens[index]?.kind === 'word' &&
      ['analyze', 'analyse', 'verbose'].includes(tokens[index]!.value)
    ) {
      if (tokens[index]!.value !== 'verbose') analyze = true
      index += 1
    }
  }
  return { analyze, statement: tokens.slice(index) }
}

/** EXPLAIN only plans, unless ANALYZE runs the statement: then the statement decides. */
function classifyExplain(tokens: readonly Token[]): Classification {
  const { analyze, statement } = explainTarget(tokens)
  if (!analyze) return { kind: 'read' }
  const inner = classifyTokens(statement)
  if (inner.kind === 'read') return inner
  return write(`EXPLAIN ANALYZE runs the statement: ${inner.reason}`)
}

/**
 * Why a statement of the text is destructive, or null: `UPDATE`/`DELETE` without `WHERE`
 * (anywhere, a CTE's too), `DROP`, `ALTER … DROP` and `TRUNCATE`. Every profile asks before
 * these (a setting, on by default), protected or not; EXPLAIN without ANALYZE runs nothing.
 */
export function destructiveReason(sql: string): string | null {
  for (const statement of splitStatements(sql)) {
    const reason = destructiveReasonOf(significantTokens(tokenize(statement.text)))
    if (reason !== null) return reason
  }
  return null
}

function destructiveReasonOf(allTokens: readonly Token[]): string | null {
  let tokens = allTokens
  let start = 0
  while (isPunctuation(tokens[start], '(')) start += 1
  if (tokens[start]?.value === 'explain') {
    const { analyze, statement } = explainTarget(tokens.slice(start + 1))
    if (!analyze) return null
    tokens = statement
    start = 0
  }
  const command = tokens[start]?.kind === 'word' ? tokens[start]!.value : null
  if (command === 'drop') return 'DROP removes objects and their data'
  if (command === 'truncate') return 'TRUNCATE empties whole tables'
  if (command === 'alter') {
    const dropAt = tokens.findIndex(
      (token, index) =>
        token.kind === 'word' && token.value === 'drop' && depthAt(tokens, index) === 0,
    )
    if (dropAt !== -1) return 'ALTER … DROP removes objects and their data'
  }
  for (let index = start; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (token.kind !== 'word') continue
    const before = tokens[index - 1]?.value
    const isDelete = token.value === 'delete' && tokens[index + 1]?.value === 'from'
    // Not FOR UPDATE, ON UPDATE (a foreign key's action), DO UPDATE (ON CONFLICT: one row).
    const isUpdate =
      token.value === 'update' &&
      !isLockingClause(tokens, index) &&
      before !== 'on' &&
      before !== 'do'
    if ((isDelete || isUpdate) && !hasWhereInScope(tokens, index)) {
      return isDelete
        ? 'DELETE without WHERE removes every row of the table'
        : 'UPDATE without WHERE changes every row of the table'
    }
  }
  return null
}

/** A WHERE at the statement's own depth before its parentheses close (a CTE ends there). */
function hasWhereInScope(tokens: readonly Token[], from: number): boolean {
  let depth = 0
  for (let index = from + 1; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (isPunctuation(token, '(')) depth += 1
    if (isPunctuation(token, ')')) {
      depth -= 1
      if (depth < 0) return false
    }
    if (depth === 0 && token.kind === 'word' && token.value === 'where') return true
  }
  return false
}

function describeCommand(command: string): string {
  switch (command) {
    case 'insert':
    case 'update':
    case 'delete':
    case 'merge':
    case 'truncate':
      return 'changes data'
    case 'drop':
      return 'removes objects'
    case 'alter':
    case 'create':
    case 'comment':
      return 'changes the schema'
    case 'grant':
    case 'revoke':
      return 'changes privileges'
    case 'copy':
      return 'reads or writes files and tables'
    case 'call':
    case 'do':
    case 'execute':
      return 'runs code that may write'
    default:
      return 'is not known to be read-only'
  }
}

function isPunctuation(token: Token | undefined, value: string): boolean {
  return token?.kind === 'punctuation' && token.value === value
}

function write(reason: string): Classification {
  return { kind: 'write', reason }
}
