import { beforeAll, describe, expect, it } from 'vitest'
import { loadPgParser } from '../../src/main/sql-guard'
import { planSqlLoaded } from '../../src/main/sql-guard/plan'

/*
 * `sql.plan`'s reading of a text (src/main/sql-guard/plan.ts), which the console's Run all, its
 * parameter form and its pre-send hint follow: PostgreSQL's own parse, each statement judged
 * alone as `sql.run` judges it. The hand-written lexer the console split with before cut a
 * BEGIN ATOMIC body at its inner `;` (three statements, END sent as a COMMIT) and read `--\r`
 * as a comment to the end of the line, hiding a DELETE (one statement, a read).
 */

beforeAll(async () => {
  await loadPgParser()
})

const plan = (sql: string, mode: 'run' | 'explain' | 'explain-analyze' = 'run') =>
  planSqlLoaded(sql, mode).statements

describe('the statements of a text, as PostgreSQL splits them', () => {
  it('keeps a BEGIN ATOMIC body whole: two statements, not three', () => {
    const text = 'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; SELECT 2'
    const statements = plan(text)
    expect(statements.map((statement) => statement.text)).toEqual([
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END',
      'SELECT 2',
    ])
    expect(statements.map(({ from, to }) => text.slice(from, to))).toEqual(
      statements.map((statement) => statement.text),
    )
  })

  it('ends a -- comment at CR as PostgreSQL does: the DELETE is a statement, and a write', () => {
    expect(
      plan('SELECT 1 --\r; DELETE FROM t RETURNING 1').map((statement) => [
        statement.text,
        statement.kind,
        statement.readOnlyRefusal !== null,
      ]),
    ).toEqual([
      ['SELECT 1 --', 'read', false],
      ['DELETE FROM t RETURNING 1', 'write', true],
    ])
  })

  it("finds :name placeholders with PostgreSQL's scanner (a -- comment ends at CR)", () => {
    const [statement] = plan("select 1 --\r, :x, ':y', $$:z$$, a::int, b[1:n]")
    expect(statement?.placeholders.map((placeholder) => placeholder.name)).toEqual(['x'])
    // A text with placeholders does not parse: its statements come from the scanner's `;`.
    expect(
      plan('select :a; select 2').map((statement) => [statement.text, statement.refused]),
    ).toEqual([
      ['select :a', true],
      ['select 2', false],
    ])
  })

  it('marks transaction blocks from the parse tree (AND CHAIN and ROLLBACK TO stay inside)', () => {
    expect(
      plan('begin; savepoint s; rollback to s; commit and chain; rollback; select 2').map(
        (statement) => statement.block,
      ),
    ).toEqual(['begin', null, null, null, 'end', null])
  })

  it('judges an EXPLAIN as sql.explain sends it: without ANALYZE it runs nothing', () => {
    expect(plan('delete from t', 'explain')[0]).toMatchObject({ kind: 'read', destructive: null })
    expect(plan('delete from t', 'explain-analyze')[0]).toMatchObject({
      kind: 'write',
      destructive: expect.stringMatching(/DELETE without WHERE/),
    })
  })

  it("gives a read-only tab's refusal in the guard's words", () => {
    expect(plan('select 1; commit')[1]?.readOnlyRefusal).toMatch(
      /COMMIT would end the read-only transaction/,
    )
    expect(plan('truncate t')[0]).toMatchObject({
      kind: 'write',
      destructive: 'TRUNCATE empties whole tables',
    })
  })
})
