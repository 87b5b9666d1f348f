import { READ_ONLY_FUNCTIONS } from '../../shared/sql/read-only-functions'
import type { PgNode } from './pg-parser'
import { STABLE_CATALOG_FUNCTIONS } from './stable-functions'

/*
 * What one statement of PostgreSQL's parse tree does: a read, a write, or transaction control.
 * "read" is a proof from the tree: the statement kind reads, nothing nested in it writes, and
 * every function it calls is one PostgreSQL itself promises cannot write. Anything else is a
 * write, with the reason in words. What a tree cannot show (a user's `public.upper(int)`
 * shadowing the built-in, attribute notation `t.f`, a view or an operator that calls a writing
 * function) is held by the read-only transaction every guarded read is sent in.
 */

export type StatementKind =
  | { kind: 'read' }
  | {
      kind: 'write'
      reason: string
      /** Set when only a literal's backslash keeps it from being a read (standard_conforming_strings). */
      literal?: true
    }
  /** BEGIN, COMMIT, SET TRANSACTION ...: never inside a guarded read-only run. */
  | { kind: 'transaction'; reason: string }

export interface ClassifyContext {
  /** Names of statements PREPAREd earlier in the same text as reads. */
  preparedReads: ReadonlySet<string>
}

/** Statement nodes whose presence anywhere in a tree means data is changed. */
const WRITING_NODES = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt'])

/** Volatile built-ins that only read (the catalogue calls them volatile for other reasons). */
const VOLATILE_READERS = new Set([
  'currval',
  'lastval',
  'random',
  'random_normal',
  'clock_timestamp',
  'timeofday',
  'statement_timestamp',
  'transaction_timestamp',
  'gen_random_uuid',
  'uuidv4',
  'uuidv7',
  'pg_backend_pid',
  'pg_postmaster_start_time',
  'inet_client_addr',
  'inet_client_port',
  'inet_server_addr',
  'inet_server_port',
  'pg_current_xact_id_if_assigned',
  // Large objects read (their writes, lo_create/lowrite/lo_unlink..., are not here).
  'loread',
  'lo_get',
  'lo_lseek',
  'lo_lseek64',
  'lo_tell',
  'lo_tell64',
  // The server's files read (superuser only).
  'pg_ls_dir',
  'pg_read_file',
  'pg_read_binary_file',
  'pg_stat_file',
])

/**
 * Settings whose change alters how the rest of the text is read: the parser reads literals as
 * if standard_conforming_strings were on. Other settings (role, search_path ...) cannot write,
 * and a guarded read runs inside `BEGIN READ ONLY … ROLLBACK`, which undoes a SET with it.
 */
const GUARDED_SETTINGS = new Set(['standard_conforming_strings'])

/** Settings that would end a read-only transaction's promise. */
const READ_ONLY_SETTINGS = new Set(['transaction_read_only', 'default_transaction_read_only'])

export function commandNameOf(node: PgNode): string {
  const type = Object.keys(node)[0] ?? 'Unknown'
  const set = (node as { VariableSetStmt?: { kind?: unknown; name?: unknown } }).VariableSetStmt
  if (set?.kind === 'VAR_SET_MULTI' && typeof set.name === 'string') return `SET ${set.name}`
  if (set !== undefined && typeof set.name === 'string') {
    return READ_ONLY_SETTINGS.has(set.name.toLowerCase()) ? `SET ${set.name}` : 'SET'
  }
  if (type === 'TransactionStmt') {
    const kind = (node as { TransactionStmt?: { kind?: unknown } }).TransactionStmt?.kind
    return typeof kind === 'string' ? kind.replace(/^TRANS_STMT_/, '').replace(/_/g, ' ') : 'BEGIN'
  }
  return (
    COMMAND_WORDS[type] ??
    type
      .replace(/Stmt$/, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toUpperCase()
  )
}

const COMMAND_WORDS: Record<string, string> = {
  SelectStmt: 'SELECT',
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  ExplainStmt: 'EXPLAIN',
  VariableSetStmt: 'SET',
  VariableShowStmt: 'SHOW',
  TransactionStmt: 'transaction control',
  DeclareCursorStmt: 'DECLARE',
  FetchStmt: 'FETCH',
  ClosePortalStmt: 'CLOSE',
  PrepareStmt: 'PREPARE',
  ExecuteStmt: 'EXECUTE',
  DeallocateStmt: 'DEALLOCATE',
  CopyStmt: 'COPY',
  CallStmt: 'CALL',
  DoStmt: 'DO',
  DropStmt: 'DROP',
  TruncateStmt: 'TRUNCATE',
}

export function classifyNode(node: PgNode, context: ClassifyContext): StatementKind {
  const [type, body] = Object.entries(node)[0] ?? ['Unknown', {}]
  const fields = (body ?? {}) as Record<string, unknown>
  switch (type) {
    case 'SelectStmt':
      return classifyQuery(node)
    case 'VariableShowStmt':
    case 'FetchStmt':
    case 'ClosePortalStmt':
    case 'DeallocateStmt':
      return { kind: 'read' }
    case 'DeclareCursorStmt':
      return classifyQuery(asNode(fields['query']))
    case 'PrepareStmt':
      return classifyQuery(asNode(fields['query']))
    case 'ExecuteStmt': {
      const name = typeof fields['name'] === 'string' ? fields['name'] : ''
      return context.preparedReads.has(name)
        ? { kind: 'read' }
        : {
            kind: 'write',
            reason: `EXECUTE ${name} runs a prepared statement this text does not show`,
          }
    }
    case 'ExplainStmt':
      return classifyExplain(fields)
    case 'VariableSetStmt':
      return classifySet(fields)
    case 'TransactionStmt':
      return { kind: 'transaction', reason: `${transactionWord(fields)} controls the transaction` }
    default:
      return { kind: 'write', reason: `${commandNameOf(node)} ${effectOf(type)}` }
  }
}

/** What a statement kind that is not a read does, in words. */
function effectOf(type: string): string {
  if (/^(Insert|Update|Delete|Merge|Truncate)Stmt$/.test(type)) return 'changes data'
  if (type === 'DropStmt' || type === 'DropRoleStmt' || type === 'DropdbStmt') {
    return 'removes objects'
  }
  if (/^(Create|Alter|Comment|Rename|Define|Index|View|Rule|CompositeType)/.test(type)) {
    return 'changes the schema'
  }
  if (type === 'GrantStmt' || type === 'GrantRoleStmt') return 'changes privileges'
  if (type === 'CopyStmt') return 'reads or writes files and tables'
  if (type === 'CallStmt' || type === 'DoStmt') return 'runs code that may write'
  return 'is not known to be read-only'
}

/** A query (SELECT, VALUES, TABLE, or what a cursor or PREPARE holds): read unless shown not. */
function classifyQuery(node: PgNode | null): StatementKind {
  if (node === null) return { kind: 'write', reason: 'the statement could not be read' }
  const type = Object.keys(node)[0] ?? ''
  if (WRITING_NODES.has(type)) {
    return { kind: 'write', reason: `${COMMAND_WORDS[type] ?? type} changes data` }
  }
  if (type !== 'SelectStmt') {
    return { kind: 'write', reason: `${commandNameOf(node)} ${effectOf(type)}` }
  }
  let verdict: StatementKind = { kind: 'read' }
  walk(node, (key, value) => {
    if (verdict.kind !== 'read') return false
    if (WRITING_NODES.has(key)) {
      verdict = { kind: 'write', reason: `a ${COMMAND_WORDS[key]} inside the query changes data` }
    } else if (key === 'intoClause') {
      verdict = { kind: 'write', reason: 'SELECT … INTO creates a table' }
    } else if (key === 'lockingClause') {
      verdict = { kind: 'write', reason: 'FOR UPDATE/SHARE locks rows for a change' }
    } else if (key === 'FuncCall') {
      const problem = functionProblem((value as Record<string, unknown>)['funcname'])
      if (problem !== null) verdict = { kind: 'write', reason: problem }
    }
    return true
  })
  return verdict
}

/** Why calling this function may write, or null when PostgreSQL promises it cannot. */
function functionProblem(funcname: unknown): string | null {
  const parts = Array.isArray(funcname)
    ? funcname.map((part) => {
        const text = (part as { String?: { sval?: unknown } }).String?.sval
        return typeof text === 'string' ? text : ''
      })
    : []
  const name = parts[parts.length - 1] ?? ''
  const schema = parts.length > 1 ? parts[parts.length - 2] : null
  const shown = parts.join('.')
  if (schema !== null && schema !== 'pg_catalog') {
    return `it calls ${shown}(), which is not a built-in function and may change data`
  }
  if (
    STABLE_CATALOG_FUNCTIONS.has(name) ||
    VOLATILE_READERS.has(name) ||
    READ_ONLY_FUNCTIONS.has(name)
  ) {
    return null
  }
  return `it calls ${shown}(), which is not known to be read-only`
}

/** Whether an ExplainStmt's options make it run its statement: ANALYZE, not set false. */
export function explainRuns(fields: Record<string, unknown>): boolean {
  const options = Array.isArray(fields['options']) ? fields['options'] : []
  return options.some((option) => {
    const element = (option as { DefElem?: { defname?: unknown; arg?: unknown } }).DefElem
    return element?.defname === 'analyze' && !isFalseOption(element.arg)
  })
}

/** EXPLAIN plans without running; EXPLAIN ANALYZE runs the statement it explains. */
function classifyExplain(fields: Record<string, unknown>): StatementKind {
  const analyzes = explainRuns(fields)
  const query = asNode(fields['query'])
  if (!analyzes) {
    // The plan alone runs nothing; a writing function in it would not be called either.
    return { kind: 'read' }
  }
  const inner = query === null ? null : classifyQuery(query)
  if (inner === null || inner.kind !== 'read') {
    return {
      kind: 'write',
      reason: `EXPLAIN ANALYZE runs the statement: ${inner?.kind === 'write' ? inner.reason : 'it may change data'}`,
    }
  }
  return inner
}

/**
 * `(ANALYZE false)`, `(ANALYZE off)`, `(ANALYZE 0)`: what PostgreSQL's boolean option parser
 * reads as false (prefixes of false/off/no included). Anything else counts as on.
 */
function isFalseOption(arg: unknown): boolean {
  if (typeof arg !== 'object' || arg === null) return false
  const record = arg as Record<string, Record<string, unknown> | undefined>
  const text = record['String']?.['sval']
  if (typeof text === 'string') return /^(f|fa|fal|fals|false|n|no|of|off|0)$/i.test(text.trim())
  // A zero is left out of libpg_query's JSON: `{ Integer: {} }` is 0.
  if (record['Integer'] !== undefined) return (record['Integer']['ival'] ?? 0) === 0
  if (record['Boolean'] !== undefined) return record['Boolean']['boolval'] !== true
  return false
}

/** SET/RESET: a session setting cannot change data, except the few that change the rules. */
function classifySet(fields: Record<string, unknown>): StatementKind {
  const name = typeof fields['name'] === 'string' ? fields['name'].toLowerCase() : ''
  const kind = fields['kind']
  if (kind === 'VAR_SET_MULTI') {
    // SET TRANSACTION ..., SET SESSION CHARACTERISTICS AS TRANSACTION ...
    return {
      kind: 'transaction',
      reason: `SET ${name.toUpperCase()} changes the transaction's mode`,
    }
  }
  if (READ_ONLY_SETTINGS.has(name)) {
    return { kind: 'transaction', reason: `SET ${name} changes the transaction's mode` }
  }
  if (kind === 'VAR_RESET_ALL') {
    return { kind: 'write', reason: 'RESET ALL resets how later statements are read and run' }
  }
  if (GUARDED_SETTINGS.has(name)) {
    return { kind: 'write', reason: `SET ${name} changes how later statements are read or run` }
  }
  return { kind: 'read' }
}

function transactionWord(fields: Record<string, unknown>): string {
  const kind = typeof fields['kind'] === 'string' ? fields['kind'] : ''
  const word = kind.replace(/^TRANS_STMT_/, '').replace(/_/g, ' ')
  return word === '' ? 'The statement' : word
}

function asNode(value: unknown): PgNode | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as PgNode)
    : null
}

/**
 * Visits every keyed value in a tree, depth first; `visit` returns false to stop. Parse trees
 * of a statement are small (a few thousand nodes at most), so recursion depth is no concern.
 */
export function walk(
  value: unknown,
  visit: (key: string, value: unknown) => boolean,
  depth = 0,
): boolean {
  if (depth > 10_000) return false
  if (Array.isArray(value)) {
    for (const item of value) if (!walk(item, visit, depth + 1)) return false
    return true
  }
  if (typeof value !== 'object' || value === null) return true
  for (const [key, child] of Object.entries(value)) {
    if (!visit(key, child)) return false
    if (!walk(child, visit, depth + 1)) return false
  }
  return true
}
