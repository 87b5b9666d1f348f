import type { ChannelOutput } from '../../../../shared/bridge'
import type { SqlPlannedStatement } from '../../../../shared/bridge/channels/sql'
import { statementAt } from '../../../../shared/sql/statement'

/*
 * Which statements a Run, Run all or Explain sends, as main's guard splits the editor's text
 * (`sql.plan`: PostgreSQL's own parser, so a `BEGIN ATOMIC` body is one statement and a `--`
 * comment ends at CR as PostgreSQL ends it). Offsets are the editor's.
 */

export type PlanMode = 'run' | 'explain' | 'explain-analyze'
export type SqlPlan = ChannelOutput<'sql.plan'>
/** Asks main for the plan of a text (the bridge's `sql.plan`; a test gives main's planner). */
export type Planner = (sql: string, mode: PlanMode) => Promise<SqlPlan>

export interface EditorSnapshot {
  text: string
  /** The selection, or the cursor when from === to. */
  from: number
  to: number
}

export function planModeOf(mode: 'run' | 'explain', analyze: boolean): PlanMode {
  return mode === 'run' ? 'run' : analyze ? 'explain-analyze' : 'explain'
}

/**
 * The statements to send: every one of the text (Run all), those of the selection, or the one
 * under the cursor; an Explain takes the first only.
 */
export async function statementsToRun(
  planner: Planner,
  snapshot: EditorSnapshot,
  scope: 'current' | 'all',
  mode: PlanMode,
): Promise<SqlPlannedStatement[]> {
  let statements: SqlPlannedStatement[]
  if (scope === 'all') {
    statements = (await planner(snapshot.text, mode)).statements
  } else if (snapshot.to > snapshot.from) {
    const selected = await planner(snapshot.text.slice(snapshot.from, snapshot.to), mode)
    statements = selected.statements.map((statement) => ({
      ...statement,
      from: statement.from + snapshot.from,
      to: statement.to + snapshot.from,
    }))
  } else {
    const current = statementAt((await planner(snapshot.text, mode)).statements, snapshot.from)
    statements = current ? [current] : []
  }
  return mode === 'run' ? statements : statements.slice(0, 1)
}

/**
 * Statements whose text changed since they were planned (parameters bound into them) or whose
 * plan is not at hand (a rerun from the results), planned again one by one, as `sql.run` will
 * judge each; each keeps its place in the editor.
 */
export async function planEach(
  planner: Planner,
  items: readonly { text: string; from: number; to: number }[],
  mode: PlanMode,
): Promise<SqlPlannedStatement[]> {
  return Promise.all(
    items.map(async (item) => {
      const { statements } = await planner(item.text, mode)
      // One statement as a rule (a bound value is one literal); were there more, the one that
      // is not a read speaks for the text, as main's verdict of the whole text does.
      const speaking =
        statements.find((statement) => statement.kind === 'write') ??
        statements.find((statement) => statement.kind !== 'read') ??
        statements[0]
      if (speaking === undefined) {
        return { ...emptyPlan(item.text), from: item.from, to: item.to }
      }
      return {
        ...speaking,
        destructive:
          statements.find((statement) => statement.destructive !== null)?.destructive ?? null,
        readOnlyRefusal:
          statements.find((statement) => statement.readOnlyRefusal !== null)?.readOnlyRefusal ??
          null,
        text: item.text,
        from: item.from,
        to: item.to,
      }
    }),
  )
}

function emptyPlan(text: string): SqlPlannedStatement {
  return {
    text,
    from: 0,
    to: text.length,
    command: '',
    kind: 'read',
    reason: null,
    destructive: null,
    readOnlyRefusal: null,
    refused: false,
    block: null,
    placeholders: [],
  }
}
