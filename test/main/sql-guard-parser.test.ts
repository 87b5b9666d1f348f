import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { analyzeSql, destructiveReasonOf, loadPgParser, verdictOf } from '../../src/main/sql-guard'
import type { GuardOptions } from '../../src/main/sql-guard'

/*
 * The SQL guard on PostgreSQL's own parser (src/main/sql-guard): the holes a hand-written lexer
 * left open (each classified `read` while PostgreSQL runs a write), statement boundaries as
 * PostgreSQL draws them, and the reads a guard must not block.
 */

beforeAll(async () => {
  await loadPgParser()
})

async function kindOf(sql: string, options: GuardOptions = {}) {
  return verdictOf(await analyzeSql(sql, options)).kind
}

async function commandsOf(sql: string) {
  const analysis = await analyzeSql(sql)
  if (!analysis.ok) throw new Error(analysis.message)
  return analysis.statements.map((statement) => statement.command)
}

describe('the holes of the hand-written lexer', () => {
  it('1: an E-string continued across a newline keeps E mode (quotecontinue)', async () => {
    expect(await commandsOf("select E'a'\n'\\'' ; drop table t ; -- '")).toEqual(['SELECT', 'DROP'])
    expect(await kindOf("select E'a'\n'\\'' ; drop table t ; -- '")).toBe('write')
    // Across a `--` comment too.
    expect(await kindOf("select E'a' -- c\n'\\'' ; drop table t ; -- '")).toBe('write')
  })

  it('2: a -- comment ends at CR as well as LF', async () => {
    expect(await commandsOf('SELECT 1 --\r; DELETE FROM t RETURNING 1')).toEqual([
      'SELECT',
      'DELETE',
    ])
    expect(await kindOf('SELECT 1 --\r; DELETE FROM t RETURNING 1')).toBe('write')
  })

  it('3: NBSP, BOM, U+3000 and U+2028 are identifier characters, not whitespace', async () => {
    for (const char of ['\u00a0', '\ufeff', '\u3000', '\u2028']) {
      const sql = `SELECT 1 AS ${char}$x$; DELETE FROM t; SELECT 2 AS ${char}$x$`
      expect(await kindOf(sql), JSON.stringify(char)).toBe('write')
    }
  })

  it('4: dollar tags of any length', async () => {
    const tag = `$${'t'.repeat(70)}$`
    expect(await commandsOf(`SELECT ${tag} ; ${tag}; DELETE FROM t`)).toEqual(['SELECT', 'DELETE'])
    expect(await kindOf(`SELECT ${tag} ; ${tag}; DELETE FROM t`)).toBe('write')
    // And a long tag really quotes: the DELETE inside it is text.
    expect(await kindOf(`SELECT ${tag} ; DELETE FROM t; ${tag}`)).toBe('read')
  })

  it('5: a plain literal with a backslash is ambiguous unless standard_conforming_strings is known on', async () => {
    const sql = "select 'a\\'' ; drop table t ; -- '"
    expect(await kindOf(sql)).toBe('write')
    expect(await kindOf(sql, { standardConformingStrings: false })).toBe('write')
    expect(await kindOf(sql, { standardConformingStrings: true })).toBe('read')
    // E'' and $$ literals mean the same either way.
    expect(await kindOf("select E'a\\\\', $$b\\$$")).toBe('read')
    // A SET of the setting is a write: it changes how later text is read.
    expect(await kindOf('SET standard_conforming_strings = off')).toBe('write')
  })

  it.each([
    // 6: EXPLAIN with quoted or spelled-out options.
    ['EXPLAIN ("analyze") DELETE FROM t', 'write'],
    ['EXPLAIN (ANALYZE true) DELETE FROM t', 'write'],
    ['EXPLAIN (analyse) DELETE FROM t', 'write'],
    ['EXPLAIN (ANALYZE off) DELETE FROM t', 'read'],
    ['EXPLAIN DELETE FROM t', 'read'],
    ['EXPLAIN ANALYZE SELECT 1', 'read'],
    // 7: unreserved keywords called as functions, and calls after `:` in a slice.
    ...['rollup', 'conflict', 'passing', 'columns', 'ordinality', 'by', 'tablesample'].map(
      (name) => [`SELECT ${name}(1)`, 'write'],
    ),
    ['SELECT (ARRAY[1,2,3])[1:w()]', 'write'],
    // 8: functions outside pg_catalog may write; built-ins by name are read.
    ['SELECT public.upper(1)', 'write'],
    ['SELECT upper(1)', 'read'],
    ['SELECT pg_catalog.upper(1)', 'read'],
    ['SELECT nextval($$s$$)', 'write'],
  ])('6 to 8: %j is a %s', async (sql, kind) => {
    expect(await kindOf(sql)).toBe(kind)
  })

  it('6: the destructive check reads EXPLAIN options the same way: a plan alone destroys nothing', async () => {
    expect(destructiveReasonOf(await analyzeSql('EXPLAIN (ANALYZE off) DELETE FROM t'))).toBeNull()
    expect(destructiveReasonOf(await analyzeSql('EXPLAIN (ANALYZE) DELETE FROM t'))).toMatch(
      /DELETE without WHERE/,
    )
  })

  it('9: transaction control hidden behind a CR-ended comment is seen', async () => {
    const analysis = await analyzeSql('SELECT 1 --\r; COMMIT; DELETE FROM t RETURNING 1')
    expect(analysis.ok && analysis.statements.map((statement) => statement.verdict.kind)).toEqual([
      'read',
      'transaction',
      'write',
    ])
    expect(await kindOf('SELECT 1; COMMIT')).toBe('transaction')
  })
})

describe('statement boundaries as PostgreSQL draws them', () => {
  it('keeps a BEGIN ATOMIC body whole', async () => {
    const sql =
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; SELECT 3'
    const analysis = await analyzeSql(sql)
    expect(analysis.ok).toBe(true)
    if (!analysis.ok) return
    expect(analysis.statements.map((statement) => statement.text)).toEqual([
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END',
      'SELECT 3',
    ])
  })

  it('gives offsets in the text as JavaScript counts them, past non-ASCII text', async () => {
    const sql = "select 'é😀' ;\n  -- note\n  select 2"
    const analysis = await analyzeSql(sql)
    if (!analysis.ok) throw new Error(analysis.message)
    for (const statement of analysis.statements) {
      expect(sql.slice(statement.start, statement.end)).toBe(statement.text)
    }
    expect(analysis.statements.map((statement) => statement.text)).toEqual([
      "select 'é😀'",
      // A comment between statements belongs to neither.
      'select 2',
    ])
  })

  it('refuses to call read what the parser refuses, with its message and position', async () => {
    // FORM is taken as a column alias, so PostgreSQL stumbles on `t` (1-based position 15).
    const analysis = await analyzeSql('SELECT 1 FORM t')
    expect(analysis).toMatchObject({
      ok: false,
      message: 'syntax error at or near "t"',
      position: 15,
    })
    expect(verdictOf(analysis).kind).toBe('write')
  })
})

describe('reads a guard must not block', () => {
  it.each([
    'DECLARE c CURSOR FOR SELECT 1',
    'FETCH 1 FROM c',
    'MOVE NEXT IN c',
    'CLOSE c',
    'SET LOCAL statement_timeout = 5000',
    'SET work_mem = $$64MB$$',
    'RESET work_mem',
    'SHOW search_path',
    // A guarded read runs inside BEGIN READ ONLY … ROLLBACK, which undoes these with it.
    'SET ROLE admin',
    'SET search_path = other, pg_catalog',
    'PREPARE p AS SELECT 1; EXECUTE p',
    'DEALLOCATE p',
    "SELECT currval('s'), lastval()",
    'SELECT enum_range(NULL::mood)',
    "SELECT has_table_privilege('t', 'select'), has_schema_privilege('public', 'usage')",
    'SELECT count(*), now(), row_number() OVER () FROM t',
    'WITH x AS (SELECT 1) SELECT * FROM x',
    'VALUES (1), (2)',
    'TABLE t',
  ])('%s', async (sql) => {
    expect(await kindOf(sql)).toBe('read')
  })

  it('still calls writes what write', async () => {
    for (const sql of [
      'WITH x AS (DELETE FROM t RETURNING 1) SELECT * FROM x',
      'SELECT * INTO t2 FROM t',
      'SELECT * FROM t FOR UPDATE',
      'EXECUTE unknown_plan',
      'COPY t FROM STDIN',
      'CALL p()',
      'DO $$ BEGIN DELETE FROM t; END $$',
      'TRUNCATE t',
    ]) {
      expect(await kindOf(sql), sql).toBe('write')
    }
    expect(await kindOf('SET TRANSACTION READ WRITE')).toBe('transaction')
    expect(await kindOf('SET transaction_read_only = off')).toBe('transaction')
  })
})

describe('property: a write among random whitespace, comments, quotes and tags', () => {
  const whitespace = fc.constantFrom(' ', '\t', '\n', '\r', '\f', '\v', '\r\n')
  const comment = fc.constantFrom('-- c\n', '-- c\r', '/* c */', '/* a /* nested */ b */', '--\n')
  const literal = fc.constantFrom(
    "'a'",
    "'it''s'",
    "E'\\''",
    "E'x'\n'y'",
    '$$a;b$$',
    '$tag$ ; DELETE $tag$',
    `$${'t'.repeat(70)}$;$${'t'.repeat(70)}$`,
    '"quoted;ident"',
    "U&'d\\0061t'",
  )
  const filler = fc
    .array(fc.oneof(whitespace, comment), { maxLength: 4 })
    .map((parts) => parts.join(''))
  const readStatement = fc
    .tuple(filler, literal, filler)
    .map(([before, value, after]) => `SELECT ${before}${value}${after}`)
  const write = fc.constantFrom(
    'DELETE FROM t',
    'UPDATE t SET a = 1',
    'INSERT INTO t VALUES (1)',
    'DROP TABLE t',
    'WITH d AS (DELETE FROM t RETURNING 1) SELECT 1',
  )

  it('never calls the text read', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(readStatement, { maxLength: 3 }),
        filler,
        write,
        filler,
        async (reads, before, statement, after) => {
          const sql = [...reads, `${before}${statement}${after}`].join(';')
          const verdict = verdictOf(await analyzeSql(sql, { standardConformingStrings: true }))
          expect(verdict.kind, sql).not.toBe('read')
        },
      ),
      { numRuns: 300 },
    )
  })
})
