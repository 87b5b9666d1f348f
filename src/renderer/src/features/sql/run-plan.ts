import type { SqlPlannedStatement } from '../../../../shared/bridge/channels/sql'

/*
 * What the console does with the statements a user asked to run, before anything is sent: a
 * read-only tab refuses what main's guard would refuse; a protected profile asks before each
 * statement that is not a read; every profile asks before a destructive statement (UPDATE/DELETE
 * without WHERE, DROP, TRUNCATE) while the setting is on. The verdicts are main's own
 * (`sql.plan`, PostgreSQL's parser, in the mode the statements will be sent: an EXPLAIN without
 * ANALYZE runs nothing). Main checks all of it again when they are sent; this is what the user
 * sees first.
 */

export interface RunContext {
  readOnly: boolean
  protectedProfile: boolean
  confirmDestructive: boolean
}

export interface FlaggedStatement {
  statement: SqlPlannedStatement
  reason: string
}

export type RunPlan =
  | { kind: 'send' }
  | { kind: 'refuse'; notice: string; statement: SqlPlannedStatement }
  | { kind: 'confirm'; title: 'protected' | 'destructive'; flagged: FlaggedStatement[] }

export function planRun(statements: readonly SqlPlannedStatement[], context: RunContext): RunPlan {
  if (context.readOnly) {
    const refused = statements.filter((statement) => statement.readOnlyRefusal !== null)
    const [first] = refused
    if (first) {
      const count = refused.length === 1 ? 'the statement is' : `${refused.length} statements are`
      return {
        kind: 'refuse',
        notice: `Refused: this tab is read-only, and ${count} not read-only (${first.readOnlyRefusal}). Nothing was sent.`,
        statement: first,
      }
    }
  }
  const writes = statements.filter((statement) => statement.kind !== 'read')
  if (context.protectedProfile && writes.length > 0) {
    return {
      kind: 'confirm',
      title: 'protected',
      flagged: writes.map((statement) => ({
        statement,
        reason:
          statement.destructive === null
            ? (statement.reason ?? '')
            : `${statement.reason ?? ''} — ${statement.destructive}`,
      })),
    }
  }
  const destructive = context.confirmDestructive
    ? statements.filter((statement) => statement.destructive !== null)
    : []
  if (destructive.length > 0) {
    return {
      kind: 'confirm',
      title: 'destructive',
      flagged: destructive.map((statement) => ({
        statement,
        reason: statement.destructive ?? '',
      })),
    }
  }
  return { kind: 'send' }
}
