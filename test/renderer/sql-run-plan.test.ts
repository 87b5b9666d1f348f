import { beforeAll, describe, expect, it } from 'vitest'
import { loadPgParser } from '../../src/main/sql-guard'
import { planSqlLoaded } from '../../src/main/sql-guard/plan'
import {
  planEach,
  statementsToRun,
  type EditorSnapshot,
  type Planner,
  type PlanMode,
} from '../../src/renderer/src/features/sql/planned-statements'
import { planRun, type RunContext } from '../../src/renderer/src/features/sql/run-plan'

/*
 * What the console does before anything is sent, below e2e: the statements Run, Run all and
 * Explain send are main's guard's (`sql.plan`, PostgreSQL's own parser; here main's planner
 * itself stands for the bridge), read-only tabs refuse, protected profiles ask before writes,
 * every profile asks before destructive statements (a setting). The hand-written lexer the
 * console split with before split a BEGIN ATOMIC body at its inner `;` and read `--\r` as a
 * comment to the end of the line, hiding a DELETE.
 */

const planner: Planner = async (sql, mode) => planSqlLoaded(sql, mode)

beforeAll(async () => {
  await loadPgParser()
})

const plain: RunContext = { readOnly: false, protectedProfile: false, confirmDestructive: true }

const all = (text: string, mode: PlanMode = 'run') =>
  statementsToRun(planner, { text, from: 0, to: 0 }, 'all', mode)

const plan = async (sql: string, context: Partial<RunContext> = {}, mode: PlanMode = 'run') =>
  planRun(await all(sql, mode), { ...plain, ...context })

describe("Run all's statements are main's parse", () => {
  it('keeps a BEGIN ATOMIC body whole: two statements, not three', async () => {
    const text = 'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; SELECT 2'
    const statements = await all(text)
    expect(statements.map((statement) => statement.text)).toEqual([
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END',
      'SELECT 2',
    ])
    expect(statements.map(({ from, to }) => text.slice(from, to))).toEqual(
      statements.map((statement) => statement.text),
    )
  })

  it('ends a -- comment at CR as PostgreSQL does: the DELETE is a statement, and a write', async () => {
    const statements = await all('SELECT 1 --\r; DELETE FROM t RETURNING 1')
    expect(statements.map((statement) => [statement.text, statement.kind])).toEqual([
      ['SELECT 1 --', 'read'],
      ['DELETE FROM t RETURNING 1', 'write'],
    ])
    expect(
      await plan('SELECT 1 --\r; DELETE FROM t RETURNING 1', { readOnly: true }),
    ).toMatchObject({ kind: 'refuse', statement: { text: 'DELETE FROM t RETURNING 1' } })
    expect(
      await plan('SELECT 1 --\r; DELETE FROM t RETURNING 1', { protectedProfile: true }),
    ).toMatchObject({ kind: 'confirm', title: 'protected' })
  })

  it('finds the statement under the cursor, and those of a selection, in editor offsets', async () => {
    const text = 'select 1;\nselect 2;\nselect 3'
    const at = (snapshot: EditorSnapshot) => statementsToRun(planner, snapshot, 'current', 'run')
    const cursor = text.indexOf('2')
    expect((await at({ text, from: cursor, to: cursor })).map((s) => s.text)).toEqual(['select 2'])
    const from = text.indexOf('select 2')
    const selected = await at({ text, from, to: text.length })
    expect(selected.map(({ from: start, to }) => text.slice(start, to))).toEqual([
      'select 2',
      'select 3',
    ])
  })

  it("finds :name placeholders with PostgreSQL's scanner (a -- comment ends at CR)", async () => {
    const [statement] = await all("select 1 --\r, :x, ':y', $$:z$$")
    expect(statement?.placeholders.map((placeholder) => placeholder.name)).toEqual(['x'])
  })

  it('marks transaction blocks from the parse tree', async () => {
    const statements = await all('begin; select 1; commit and chain; rollback; select 2')
    expect(statements.map((statement) => statement.block)).toEqual([
      'begin',
      null,
      null,
      'end',
      null,
    ])
  })

  it('plans bound statements again, one by one, keeping their place', async () => {
    const [planned] = await planEach(
      planner,
      [{ text: "delete from t where a = 'x'::text", from: 5, to: 12 }],
      'run',
    )
    expect(planned).toMatchObject({ kind: 'write', from: 5, to: 12, command: 'DELETE' })
  })
})

describe('planRun', () => {
  it('sends reads and ordinary writes on a plain profile', async () => {
    expect(await plan('select 1; select 2')).toEqual({ kind: 'send' })
    expect(await plan('update t set a = 1 where id = 2')).toEqual({ kind: 'send' })
  })

  it('asks before a destructive statement on every profile, naming why', async () => {
    const asked = await plan('select 1; delete from t')
    expect(asked).toMatchObject({
      kind: 'confirm',
      title: 'destructive',
      flagged: [
        {
          statement: { text: 'delete from t' },
          reason: expect.stringMatching(/DELETE without WHERE/),
        },
      ],
    })
    expect(await plan('delete from t', { confirmDestructive: false })).toEqual({ kind: 'send' })
  })

  it('EXPLAIN without ANALYZE runs nothing, so nothing is destructive; with ANALYZE it is', async () => {
    expect(await plan('drop table t', {}, 'explain')).toEqual({ kind: 'send' })
    expect(await plan('delete from t', { protectedProfile: true }, 'explain')).toEqual({
      kind: 'send',
    })
    expect(await plan('delete from t', {}, 'explain-analyze')).toMatchObject({
      kind: 'confirm',
      title: 'destructive',
    })
  })

  it('a protected profile asks before every write, the destructive reason beside it', async () => {
    expect(await plan("select nextval('s')", { protectedProfile: true })).toMatchObject({
      kind: 'confirm',
      title: 'protected',
      flagged: [{ reason: expect.stringMatching(/nextval/) }],
    })
    expect(await plan('truncate t', { protectedProfile: true })).toMatchObject({
      kind: 'confirm',
      title: 'protected',
      flagged: [{ reason: expect.stringMatching(/ — TRUNCATE empties whole tables$/) }],
    })
  })

  it('a read-only tab refuses any write and transaction control, and says how many', async () => {
    expect(
      await plan('select 1; create table x (i int); drop table y', { readOnly: true }),
    ).toMatchObject({
      kind: 'refuse',
      notice: expect.stringMatching(
        /^Refused: this tab is read-only, and 2 statements are not read-only \(.+\)\. Nothing was sent\.$/,
      ),
      statement: expect.objectContaining({ text: 'create table x (i int)' }),
    })
    expect(await plan('select 1; commit', { readOnly: true })).toMatchObject({
      kind: 'refuse',
      notice: expect.stringMatching(/COMMIT would end the read-only transaction/),
    })
  })
})
