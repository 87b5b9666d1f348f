import { describe, expect, it } from 'vitest'
import type { SqlPlannedStatement } from '../../src/shared/bridge/channels/sql'
import {
  planEach,
  statementsToRun,
  type Planner,
  type PlanMode,
  type SqlPlan,
} from '../../src/renderer/src/features/sql/planned-statements'
import { planRun, type RunContext } from '../../src/renderer/src/features/sql/run-plan'

/*
 * What the console does before anything is sent, below e2e: the statements Run, Run all and
 * Explain send are main's (`sql.plan`: PostgreSQL's own parse, test/main/sql-plan.test.ts), never
 * a split of the renderer's own; read-only tabs refuse what main would; protected profiles ask
 * before what is not a read; every profile asks before destructive statements (a setting).
 */

/** A statement as main plans it; the fields a case does not name are a plain read's. */
function planned(text: string, from: number, fields: Partial<SqlPlannedStatement> = {}) {
  return {
    text,
    from,
    to: from + text.length,
    command: text.split(' ')[0]?.toUpperCase() ?? '',
    kind: 'read',
    reason: null,
    destructive: null,
    readOnlyRefusal: null,
    refused: false,
    block: null,
    placeholders: [],
    ...fields,
  } satisfies SqlPlannedStatement
}

/** Main's answers by text, and what it was asked. */
function fakePlanner(answers: Record<string, SqlPlannedStatement[]>) {
  const asked: [string, PlanMode][] = []
  const planner: Planner = async (sql, mode): Promise<SqlPlan> => {
    asked.push([sql, mode])
    return { statements: answers[sql] ?? [], parserError: null }
  }
  return { planner, asked }
}

const ATOMIC = 'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END'
const plain: RunContext = { readOnly: false, protectedProfile: false, confirmDestructive: true }

describe("the statements to run are main's", () => {
  it("Run all sends main's statements, a BEGIN ATOMIC body whole", async () => {
    const text = `${ATOMIC}; SELECT 2`
    const { planner, asked } = fakePlanner({
      [text]: [planned(ATOMIC, 0, { kind: 'write' }), planned('SELECT 2', ATOMIC.length + 2)],
    })
    const statements = await statementsToRun(planner, { text, from: 0, to: 0 }, 'all', 'run')
    expect(statements.map((statement) => statement.text)).toEqual([ATOMIC, 'SELECT 2'])
    expect(asked).toEqual([[text, 'run']])
  })

  it('Run takes the statement under the cursor; a selection is planned alone, in editor offsets', async () => {
    const text = 'select 1;\nselect 2;\nselect 3'
    const { planner } = fakePlanner({
      [text]: [planned('select 1', 0), planned('select 2', 10), planned('select 3', 20)],
      'select 2;\nselect 3': [planned('select 2', 0), planned('select 3', 10)],
    })
    const cursor = text.indexOf('2')
    const current = await statementsToRun(
      planner,
      { text, from: cursor, to: cursor },
      'current',
      'run',
    )
    expect(current.map((statement) => statement.text)).toEqual(['select 2'])
    const selected = await statementsToRun(
      planner,
      { text, from: 10, to: text.length },
      'current',
      'run',
    )
    expect(selected.map(({ from, to }) => text.slice(from, to))).toEqual(['select 2', 'select 3'])
  })

  it('Explain takes the first statement, planned as the EXPLAIN it sends', async () => {
    const { planner, asked } = fakePlanner({
      'select 1; select 2': [planned('select 1', 0), planned('select 2', 10)],
    })
    const statements = await statementsToRun(
      planner,
      { text: 'select 1; select 2', from: 0, to: 0 },
      'all',
      'explain-analyze',
    )
    expect(statements).toHaveLength(1)
    expect(asked).toEqual([['select 1; select 2', 'explain-analyze']])
  })

  it('bound statements are planned again one by one, keeping their place in the editor', async () => {
    const bound = "delete from t where a = 'x'::text"
    const { planner } = fakePlanner({
      [bound]: [planned(bound, 0, { kind: 'write', reason: 'DELETE changes data' })],
    })
    const [again] = await planEach(planner, [{ text: bound, from: 5, to: 12 }], 'run')
    expect(again).toMatchObject({ kind: 'write', from: 5, to: 12, text: bound })
  })
})

describe('planRun', () => {
  const write = (text: string, fields: Partial<SqlPlannedStatement> = {}) =>
    planned(text, 0, {
      kind: 'write',
      reason: `${text.split(' ')[0]?.toUpperCase()} changes data`,
      readOnlyRefusal: `${text.split(' ')[0]?.toUpperCase()} changes data`,
      ...fields,
    })

  it('sends reads and ordinary writes on a plain profile', () => {
    expect(planRun([planned('select 1', 0)], plain)).toEqual({ kind: 'send' })
    expect(planRun([write('update t set a = 1 where id = 2')], plain)).toEqual({ kind: 'send' })
  })

  it('asks before a destructive statement on every profile, naming why', () => {
    const destructive = write('delete from t', { destructive: 'DELETE without WHERE …' })
    expect(planRun([planned('select 1', 0), destructive], plain)).toMatchObject({
      kind: 'confirm',
      title: 'destructive',
      flagged: [{ statement: { text: 'delete from t' }, reason: 'DELETE without WHERE …' }],
    })
    expect(planRun([destructive], { ...plain, confirmDestructive: false })).toEqual({
      kind: 'send',
    })
  })

  it('a protected profile asks before every statement that is not a read, the destructive reason beside it', () => {
    expect(
      planRun([write('truncate t', { destructive: 'TRUNCATE empties whole tables' })], {
        ...plain,
        protectedProfile: true,
      }),
    ).toMatchObject({
      kind: 'confirm',
      title: 'protected',
      flagged: [{ reason: 'TRUNCATE changes data — TRUNCATE empties whole tables' }],
    })
  })

  it("a read-only tab refuses what main would, in main's words, and says how many", () => {
    const statements = [
      planned('select 1', 0),
      write('create table x (i int)'),
      planned('commit', 0, {
        kind: 'transaction',
        reason: 'COMMIT ends the transaction',
        readOnlyRefusal: 'COMMIT would end the read-only transaction this tab runs in',
      }),
    ]
    expect(planRun(statements, { ...plain, readOnly: true })).toEqual({
      kind: 'refuse',
      notice:
        'Refused: this tab is read-only, and 2 statements are not read-only (CREATE changes data). Nothing was sent.',
      statement: expect.objectContaining({ text: 'create table x (i int)' }),
    })
  })
})
