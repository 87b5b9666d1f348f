import { classifyStatement, destructiveReason } from '../../../../shared/sql/classifier'
import type { Statement } from '../../../../shared/sql/splitter'

/*
 * What the console does with the statements a user asked to run, before anything is sent: a
 * read-only tab refuses writes outright; a protected profile asks before each write; every
 * profile asks before a destructive statement (UPDATE/DELETE without WHERE, DROP, TRUNCATE)
 * while the setting is on. Main checks all of it again; this is what the user sees first.
 */

export interface RunContext {
  mode: 'run' | 'explain'
  /** EXPLAIN ANALYZE runs the statement, so it is judged as the statement. */
  analyze: boolean
  readOnly: boolean
  protectedProfile: boolean
  confirmDestructive: boolean
}

export interface FlaggedStatement {
  statement: Statement
  reason: string
}

export type RunPlan =
  | { kind: 'send' }
  | { kind: 'refuse'; notice: string; statement: Statement }
  | { kind: 'confirm'; title: 'protected' | 'destructive'; flagged: FlaggedStatement[] }

export function planRun(statements: readonly Statement[], context: RunContext): RunPlan {
  const judged = statements.map((statement) => {
    const sql =
      context.mode === 'explain' && context.analyze
        ? `EXPLAIN ANALYZE ${statement.text}`
        : statement.text
    const classification = classifyStatement(sql)
    return {
      statement,
      write: classification.kind === 'write' ? classification.reason : null,
      destructive: context.mode === 'explain' && !context.analyze ? null : destructiveReason(sql),
    }
  })
  const writes = judged.filter((entry) => entry.write !== null)
  const [firstWrite] = writes
  if (context.readOnly && firstWrite) {
    const count = writes.length === 1 ? 'the statement is' : `${writes.length} statements are`
    return {
      kind: 'refuse',
      notice: `Refused: this tab is read-only, and ${count} not read-only (${firstWrite.write}). Nothing was sent.`,
      statement: firstWrite.statement,
    }
  }
  if (context.protectedProfile && firstWrite) {
    return {
      kind: 'confirm',
      title: 'protected',
      flagged: writes.map(({ statement, write, destructive }) => ({
        statement,
        reason: destructive === null ? (write ?? '') : `${write} — ${destructive}`,
      })),
    }
  }
  const destructive = context.confirmDestructive
    ? judged.filter((entry) => entry.destructive !== null)
    : []
  if (destructive.length > 0) {
    return {
      kind: 'confirm',
      title: 'destructive',
      flagged: destructive.map(({ statement, destructive: reason }) => ({
        statement,
        reason: reason ?? '',
      })),
    }
  }
  return { kind: 'send' }
}
