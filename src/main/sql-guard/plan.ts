import type { SqlPlannedStatement } from '../../shared/bridge/channels/sql'
import {
  analyzeSqlLoaded,
  destructiveReasonOf,
  needsConformingStrings,
  readOnlyConflict,
  splitSqlLoaded,
  verdictOf,
  type GuardAnalysis,
  type GuardOptions,
} from './index'
import { isPgParserLoaded, parseSql } from './pg-parser'
import { findPlaceholdersLoaded } from './placeholders'

/*
 * A text as the console will send it, read by the guard before anything leaves: its statements
 * (where PostgreSQL's parser puts them), and each one judged alone, as `sql.run` judges each
 * statement of a Run all (or `sql.explain` the EXPLAIN it sends). The renderer's Run all, its
 * parameter form and its pre-send hint read this plan, so what the screen splits and asks about
 * is what main will split and check.
 */

export type PlanMode = 'run' | 'explain' | 'explain-analyze'

export interface TextPlan {
  statements: SqlPlannedStatement[]
  parserError: { message: string; position: number | null } | null
  /** Knowing the database's standard_conforming_strings would change a verdict. */
  needsConformingStrings: boolean
}

/** The prefix `sql.explain` sends before the statement (features/sql/explain.ts). */
export function explainPrefixOf(analyze: boolean): string {
  return analyze ? 'EXPLAIN (ANALYZE, FORMAT JSON) ' : 'EXPLAIN (FORMAT JSON) '
}

/** Plans `sql`; needs the parser loaded (`loadPgParser()`). */
export function planSqlLoaded(sql: string, mode: PlanMode, options: GuardOptions = {}): TextPlan {
  if (!isPgParserLoaded()) throw new Error('The PostgreSQL parser is not loaded')
  const whole = parseSql(sql)
  const parserError = whole.ok ? null : { message: whole.message, position: whole.position }
  let needs = false
  const statements = splitSqlLoaded(sql).map((span): SqlPlannedStatement => {
    const prefix = mode === 'run' ? '' : explainPrefixOf(mode === 'explain-analyze')
    const analysis = analyzeSqlLoaded(prefix + span.text, options)
    if (needsConformingStrings(analysis)) needs = true
    const own = prefix === '' ? analysis : analyzeSqlLoaded(span.text, options)
    const verdict = verdictOf(analysis)
    return {
      text: span.text,
      from: span.start,
      to: span.end,
      command: own.ok ? (own.statements[0]?.command ?? '') : '',
      kind: verdict.kind,
      reason: verdict.kind === 'read' ? null : verdict.reason,
      destructive: destructiveReasonOf(analysis),
      readOnlyRefusal: readOnlyRefusalOf(analysis),
      refused: !own.ok,
      block: own.ok && own.statements.length === 1 ? blockRoleOf(own.statements[0]!.node) : null,
      placeholders: findPlaceholdersLoaded(span.text),
    }
  })
  return { statements, parserError, needsConformingStrings: needs }
}

/**
 * Why a read-only tab refuses the text, in the words main's guard uses (features/sql/guard.ts),
 * or null when it sends it.
 */
export function readOnlyRefusalOf(analysis: GuardAnalysis): string | null {
  if (!analysis.ok) {
    const unterminated = /unterminated/i.test(analysis.message)
      ? 'the text does not end where it seems to: '
      : ''
    return (
      `${unterminated}PostgreSQL's parser refuses it (${analysis.message}` +
      `${analysis.position === null ? '' : `, at character ${analysis.position}`})`
    )
  }
  const conflict = readOnlyConflict(analysis)
  if (conflict !== null) return conflict
  const verdict = verdictOf(analysis)
  return verdict.kind === 'read' ? null : verdict.reason
}

/**
 * Whether a statement opens a transaction block (BEGIN, START TRANSACTION) or ends one
 * (COMMIT, END, ROLLBACK, ABORT, PREPARE TRANSACTION), from its parse tree. COMMIT/ROLLBACK AND
 * CHAIN start the next transaction at once, ROLLBACK TO stays in the block, and COMMIT/ROLLBACK
 * PREPARED end another, prepared transaction: none of them ends the block.
 */
export function blockRoleOf(node: Record<string, unknown>): 'begin' | 'end' | null {
  const statement = (node as { TransactionStmt?: { kind?: unknown; chain?: unknown } })
    .TransactionStmt
  if (statement === undefined) return null
  switch (statement.kind) {
    case 'TRANS_STMT_BEGIN':
    case 'TRANS_STMT_START':
      return 'begin'
    case 'TRANS_STMT_COMMIT':
    case 'TRANS_STMT_ROLLBACK':
      return statement.chain === true ? null : 'end'
    case 'TRANS_STMT_PREPARE':
      return 'end'
    default:
      return null
  }
}
