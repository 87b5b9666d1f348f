import { significantTokens, tokenize, type Token } from './lexer'

/*
 * Read or write? The guard of protected profiles and read-only tabs asks this of every
 * statement before it is sent. The answer is "read" only when the statement is proven
 * read-only; anything the classifier does not understand is a write. It works on tokens, so
 * a keyword inside a comment, a string, a dollar quote or a quoted identifier is never
 * mistaken for one.
 */

export type Classification =
  | { kind: 'read' }
  | {
      kind: 'write'
      /** In words, for the confirmation and the refusal: "DELETE changes data". */
      reason: string
    }

/** Statements that only read (or only change the session's transaction state). */
const READ_COMMANDS = new Set([
  'select',
  'values',
  'table',
  'show',
  'begin',
  'start',
  'commit',
  'end',
  'rollback',
  'abort',
  'savepoint',
  'release',
])

/** Words that make a WITH (or a statement nested in EXPLAIN) write. */
const DATA_MODIFYING = new Set(['insert', 'update', 'delete', 'merge'])

/** Functions that change state although called from a SELECT. Not exhaustive: user functions may write too. */
const WRITING_FUNCTIONS = new Set([
  'nextval',
  'setval',
  'set_config',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_switch_wal',
  'pg_promote',
  'pg_advisory_lock',
  'pg_advisory_xact_lock',
  'pg_try_advisory_lock',
  'pg_try_advisory_xact_lock',
  'pg_create_restore_point',
  'pg_create_physical_replication_slot',
  'pg_create_logical_replication_slot',
  'pg_drop_replication_slot',
  'pg_file_write',
  'lo_import',
  'lo_export',
  'lo_unlink',
  'lo_create',
  'dblink_exec',
  'txid_current',
  'pg_current_xact_id',
])

/** Row-locking clauses: FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE, FOR KEY SHARE. */
const LOCK_STRENGTHS = new Set(['update', 'share', 'no', 'key'])

export function classifyStatement(sql: string): Classification {
  return classifyTokens(significantTokens(tokenize(sql)))
}

export function isReadOnly(sql: string): boolean {
  return classifyStatement(sql).kind === 'read'
}

function classifyTokens(tokens: readonly Token[]): Classification {
  // Leading parentheses: "(SELECT 1) UNION (SELECT 2)".
  let start = 0
  while (tokens[start]?.kind === 'punctuation' && tokens[start]?.value === '(') start += 1
  const first = tokens[start]
  if (!first) return { kind: 'read' }
  if (first.kind !== 'word') return write('it does not start with a known command')
  const command = first.value
  const rest = tokens.slice(start)

  if (command === 'explain') return classifyExplain(rest.slice(1))
  if (command === 'with' || command === 'select' || command === 'values' || command === 'table') {
    return classifyQuery(rest, command)
  }
  if (READ_COMMANDS.has(command)) return { kind: 'read' }
  return write(`${command.toUpperCase()} ${describeCommand(command)}`)
}

function classifyQuery(tokens: readonly Token[], command: string): Classification {
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!
    if (token.kind !== 'word') continue
    const next = tokens[index + 1]
    if (DATA_MODIFYING.has(token.value) && !isLockingClause(tokens, index)) {
      return write(`the ${command.toUpperCase()} contains ${token.value.toUpperCase()}`)
    }
    if (token.value === 'for' && next?.kind === 'word' && LOCK_STRENGTHS.has(next.value)) {
      return write(`${lockClause(tokens, index)} locks the rows it reads`)
    }
    if (token.value === 'into' && command !== 'with' && isSelectInto(tokens, index)) {
      return write('SELECT … INTO creates a table')
    }
    if (WRITING_FUNCTIONS.has(token.value) && next?.kind === 'punctuation' && next.value === '(') {
      return write(`it calls ${token.value}(), which changes state`)
    }
  }
  return { kind: 'read' }
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

/** INTO at the top level of a SELECT (not INSERT INTO, which is caught as INSERT). */
function isSelectInto(tokens: readonly Token[], index: number): boolean {
  let depth = 0
  for (let cursor = 0; cursor < index; cursor += 1) {
    const token = tokens[cursor]!
    if (token.kind !== 'punctuation') continue
    if (token.value === '(') depth += 1
    if (token.value === ')') depth -= 1
  }
  return depth === 0
}

/** EXPLAIN only plans, unless ANALYZE runs the statement: then the statement decides. */
function classifyExplain(tokens: readonly Token[]): Classification {
  let index = 0
  let analyze = false
  const open = tokens[0]
  if (open?.kind === 'punctuation' && open.value === '(') {
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
  if (!analyze) return { kind: 'read' }
  const inner = classifyTokens(tokens.slice(index))
  if (inner.kind === 'read') return inner
  return write(`EXPLAIN ANALYZE runs the statement: ${inner.reason}`)
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

function write(reason: string): Classification {
  return { kind: 'write', reason }
}
