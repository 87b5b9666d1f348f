import { describe, expect, it } from 'vitest'
import { splitStatements } from '../../src/shared/sql/splitter'
import { statementAt } from '../../src/shared/sql/statement'

const texts = (sql: string) => splitStatements(sql).map((statement) => statement.text)

describe('splitStatements', () => {
  it('splits at top-level semicolons and keeps each statement in place', () => {
    const sql = 'select 1;\n  select 2 ;\n\nselect 3'
    const statements = splitStatements(sql)
    expect(statements.map((s) => s.text)).toEqual(['select 1', 'select 2', 'select 3'])
    for (const statement of statements) {
      expect(sql.slice(statement.from, statement.to)).toBe(statement.text)
    }
  })

  it('ignores semicolons in strings, escape strings and quoted identifiers', () => {
    expect(texts(`select 'a;b', 'it''s;'; select "odd;name" from t`)).toEqual([
      `select 'a;b', 'it''s;'`,
      'select "odd;name" from t',
    ])
    expect(texts(`select E'back\\'slash;' ; select 2`)).toEqual([
      `select E'back\\'slash;'`,
      'select 2',
    ])
  })

  it('ignores semicolons in dollar quotes, tagged and nested', () => {
    const body = `create function f() returns int as $fn$ begin perform $q$;$q$; return 1; end $fn$ language plpgsql`
    expect(texts(`${body}; select f()`)).toEqual([body, 'select f()'])
    expect(texts(`do $$ begin null; end $$; select 1`)).toEqual([
      'do $$ begin null; end $$',
      'select 1',
    ])
  })

  it('does not take a positional parameter for a dollar quote', () => {
    expect(texts('select $1; select $2')).toEqual(['select $1', 'select $2'])
  })

  it('ignores semicolons in line and nested block comments, and drops comment-only parts', () => {
    expect(
      texts('-- first; not a split\nselect 1; /* a /* nested; */ still; */ select 2; -- end;'),
    ).toEqual(['select 1', 'select 2'])
    expect(texts('select 1 -- trailing; comment\n, 2')).toEqual([
      'select 1 -- trailing; comment\n, 2',
    ])
    expect(texts('  ;; -- nothing\n')).toEqual([])
  })

  it('finds the statement under the cursor', () => {
    const sql = 'select 1;\nselect 22;\n\nselect 333'
    const statements = splitStatements(sql)
    expect(statementAt(statements, 3)?.text).toBe('select 1')
    expect(statementAt(statements, sql.indexOf('22'))?.text).toBe('select 22')
    // Just after a statement's ';' (cursor at the end of its line) still means that statement.
    expect(statementAt(statements, sql.indexOf(';', 10) + 1)?.text).toBe('select 22')
    expect(statementAt(statements, sql.length)?.text).toBe('select 333')
    expect(statementAt([], 0)).toBeNull()
  })
})
