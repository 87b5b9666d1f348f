import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { classifyStatement, destructiveReason, isReadOnly } from '../../src/shared/sql/classifier'

const reason = (sql: string) => {
  const result = classifyStatement(sql)
  return result.kind === 'write' ? result.reason : null
}

describe('classifyStatement', () => {
  it('proves plain queries read-only', () => {
    for (const sql of [
      'select * from customers',
      'SELECT count(*) FROM orders WHERE status = $1',
      '(select 1) union (select 2)',
      'values (1), (2)',
      'table customers',
      'show search_path',
      'with t as (select 1) select * from t',
      'explain select * from events',
      'explain (format json) delete from customers',
      'explain (analyze false) delete from customers',
      'select deleted_at, updated_by, inserted from t',
      '',
    ]) {
      expect(isReadOnly(sql), sql).toBe(true)
    }
  })

  it('flags every write command, with or without WHERE', () => {
    expect(reason('DELETE FROM t')).toBe('DELETE changes data')
    expect(reason('delete from t where id = 1')).toBe('DELETE changes data')
    expect(reason('update t set a = 1')).toBe('UPDATE changes data')
    expect(reason('truncate t')).toBe('TRUNCATE changes data')
    expect(reason('drop table t')).toBe('DROP removes objects')
    expect(reason('alter table t add column c int')).toBe('ALTER changes the schema')
    expect(reason('grant select on t to bob')).toBe('GRANT changes privileges')
    expect(reason('revoke select on t from bob')).toBe('REVOKE changes privileges')
    expect(reason("copy t to '/tmp/x'")).toBe('COPY reads or writes files and tables')
    expect(reason('call p()')).toBe('CALL runs code that may write')
    expect(reason('do $$ begin end $$')).toBe('DO runs code that may write')
    expect(reason('vacuum t')).toBe('VACUUM is not known to be read-only')
    expect(reason('insert into t values (1)')).toBe('INSERT changes data')
  })

  it('is not fooled by comments', () => {
    expect(reason('-- select only\nDELETE FROM t')).toBe('DELETE changes data')
    expect(reason('/* select /* nested */ */ drop table t')).toBe('DROP removes objects')
    expect(isReadOnly('select 1 -- ; delete from t')).toBe(true)
    expect(isReadOnly('select /* delete from t */ 1')).toBe(true)
  })

  it('is not fooled by keywords inside strings, dollar quotes and quoted identifiers', () => {
    expect(isReadOnly("select 'delete from t; drop table t' as text")).toBe(true)
    expect(isReadOnly("select E'it\\'s; delete' as text")).toBe(true)
    expect(isReadOnly('select $$delete from t$$, $tag$ update $inner$ x $inner$ $tag$')).toBe(true)
    expect(isReadOnly('select "delete", "update" from "drop"')).toBe(true)
    expect(isReadOnly('with "insert" as (select 1) select * from "insert"')).toBe(true)
  })

  it('finds a write inside a CTE', () => {
    expect(reason('with gone as (delete from t returning *) select * from gone')).toBe(
      'the WITH contains DELETE',
    )
    expect(reason('WITH a AS (SELECT 1), b AS (UPDATE t SET x = 1 RETURNING 1) SELECT 1')).toBe(
      'the WITH contains UPDATE',
    )
  })

  it('treats locking reads and SELECT INTO as writes', () => {
    expect(reason('select * from t for update')).toBe('SELECT … FOR UPDATE locks the rows it reads')
    expect(reason('select * from t for no key update skip locked')).toBe(
      'SELECT … FOR NO KEY UPDATE locks the rows it reads',
    )
    expect(reason('select * from t for share')).toBe('SELECT … FOR SHARE locks the rows it reads')
    expect(reason('select * into backup from t')).toBe('SELECT … INTO creates a table')
    expect(reason("select nextval('s')")).toBe('it calls nextval(), which changes state')
    expect(isReadOnly("select 'for update'")).toBe(true)
  })

  it('treats EXPLAIN ANALYZE of a write as that write, and of a read as a read', () => {
    expect(reason('EXPLAIN ANALYZE DELETE FROM t')).toBe(
      'EXPLAIN ANALYZE runs the statement: DELETE changes data',
    )
    expect(reason('explain (analyze, format json) update t set a = 1')).toBe(
      'EXPLAIN ANALYZE runs the statement: UPDATE changes data',
    )
    expect(reason('explain analyse verbose with x as (delete from t) select 1')).toBe(
      'EXPLAIN ANALYZE runs the statement: the WITH contains DELETE',
    )
    expect(isReadOnly('explain analyze select * from t')).toBe(true)
    expect(isReadOnly('explain (analyze on) select 1')).toBe(true)
  })
})

/*
 * What a probe of the landed guard got through (security issue, item 1): each text below ran on
 * a protected profile with no confirmation, or in a read-only tab. Each must now be a write.
 */
describe('texts the probe got through are writes', () => {
  const cases: [sql: string, reason: RegExp][] = [
    ['begin; delete from t; commit', /DELETE changes data/],
    ['select 1; truncate t', /TRUNCATE changes data/],
    ['select 1; drop table t', /DROP removes objects/],
    ['select 1; create table x(i int)', /CREATE changes the schema/],
    ['select 1; delete from t', /DELETE changes data/],
    ['WITH x AS (SELECT 1) SELECT * INTO t FROM x', /SELECT … INTO creates a table/],
    ['with x as (select 1) select a, b into t from x', /SELECT … INTO/],
    [`select "nextval"('s')`, /"nextval"\(\), which changes state/],
    [`select "NextVal"('s')`, /not known to be read-only/],
    [`select U&"\\006eextval"('s')`, /not known to be read-only/],
    [`select pg_catalog.nextval('s')`, /pg_catalog\.nextval\(\), which changes state/],
    [`select "pg_catalog"."setval"('s', 1)`, /changes state/],
    ["COMMIT PREPARED 'tx1'", /COMMIT PREPARED/],
    ["ROLLBACK PREPARED 'tx1'", /ROLLBACK PREPARED/],
    ["select lo_from_bytea(0, 'x')", /lo_from_bytea\(\), which changes state/],
    ['select lo_put(1, 0, 0)', /lo_put/],
    ['select lo_unlink(1)', /lo_unlink/],
    ["select pg_notify('channel', 'payload')", /pg_notify/],
    ["select dblink_exec('conn', 'delete from t')", /dblink_exec/],
    ["select * from dblink('conn', 'select 1') as t(a int)", /dblink/],
    ["select pg_logical_emit_message(true, 'x', 'y')", /pg_logical_emit_message/],
    ['select pg_stat_reset()', /pg_stat_reset/],
    ['select pg_stat_reset_shared(null)', /pg_stat_reset_shared/],
    ["select pg_replication_origin_create('o')", /pg_replication_origin_create/],
    ['select pg_advisory_lock(1)', /pg_advisory_lock/],
    ['select pg_try_advisory_xact_lock(1)', /pg_try_advisory_xact_lock/],
    ["select setval('s', 42)", /setval/],
    ['select my_cleanup_function()', /my_cleanup_function\(\), which is not known/],
    ['select count(*) from t where archive_old_rows() > 0', /archive_old_rows/],
    ['select myschema.count(x) from t', /myschema\.count\(\)/],
    ["select 1 operator(pg_catalog.+) nextval('s')", /nextval/],
    ["select 1, nextval('s') as (x)", /nextval/],
    ['select (1; drop table t)', /inside parentheses/],
    ['explain analyze select 1; delete from t', /DELETE/],
    ['explain select 1; delete from t', /DELETE/],
  ]
  it.each(cases)('%s', (sql, expected) => {
    expect(reason(sql)).toMatch(expected)
  })
})

describe('reads stay reads', () => {
  it.each([
    'select count(*) filter (where x > 1) over (partition by y) from t',
    'select * from generate_series(1, 3) as g(i)',
    'select * from generate_series(1, 3) g(i)',
    'with x(a) as (select 1) select * from x',
    'with recursive x(a) as (select 1 union all select a + 1 from x where a < 3) select * from x',
    'with a as (select 1), b(c) as materialized (select 2) select * from a, b',
    'select coalesce(a, b)::numeric(10, 2), cast(x as varchar(20)) from t',
    "select extract(epoch from now()), date_trunc('day', now()) at time zone 'utc'",
    'select * from t where id = any(array[1, 2]) and exists (select 1) and x in (1, 2)',
    'select percentile_cont(0.5) within group (order by x) from t',
    'select pg_catalog.count(*) from t',
    "select jsonb_path_query(doc, '$.a'), to_char(now(), 'YYYY') from t",
    'select * from t tablesample bernoulli (10) repeatable (42)',
    'select pg_size_pretty(pg_total_relation_size(oid)) from pg_class',
    'begin; select 1; commit',
  ])('%s', (sql) => {
    expect(reason(sql)).toBeNull()
  })
})

describe('destructiveReason', () => {
  it.each([
    ['delete from t', /DELETE without WHERE/],
    ['update t set a = 1', /UPDATE without WHERE/],
    ['update t set a = (select 1 where true)', /UPDATE without WHERE/],
    ['with gone as (delete from t returning *) select * from gone where true', /DELETE without/],
    ['drop table t', /DROP removes/],
    ['truncate t', /TRUNCATE empties/],
    ['alter table t drop column c', /ALTER … DROP/],
    ['explain analyze delete from t', /DELETE without WHERE/],
    ['select 1; delete from t', /DELETE without WHERE/],
  ])('%s', (sql, expected) => {
    expect(destructiveReason(sql)).toMatch(expected)
  })

  it.each([
    'delete from t where id = 1',
    "update t set a = 1 where b = 'x'",
    'insert into t values (1) on conflict (a) do update set b = 1',
    'explain delete from t',
    'select * from t for update',
    'create table t (a int references u (b) on update cascade)',
    "select 'drop table t'",
  ])('%s is not destructive', (sql) => {
    expect(destructiveReason(sql)).toBeNull()
  })
})

describe('property: a write after a top-level ; is never a read', () => {
  const identifier = fc.constantFrom('t', 'orders', '"Mixed Case"', 'public.t')
  const read = fc.oneof(
    fc.constant('select 1'),
    identifier.map((name) => `select * from ${name}`),
    fc.constant("select 'a; b' as text"),
    fc.constant('select $$ ; drop table t $$'),
    fc.constant('/* ; */ values (1)'),
    fc.constant('show search_path'),
    fc.constant('begin'),
    fc.constant('commit'),
    fc.constant('-- a comment\nselect 2'),
    fc.constant('table t'),
    fc.constant('explain select 1'),
  )
  const write = fc.oneof(
    identifier.map((name) => `delete from ${name}`),
    identifier.map((name) => `update ${name} set a = 1 where b = 2`),
    identifier.map((name) => `insert into ${name} values (1)`),
    identifier.map((name) => `truncate ${name}`),
    identifier.map((name) => `drop table ${name}`),
    fc.constant('create table x (i int)'),
    fc.constant("select nextval('s')"),
    fc.constant('select my_function()'),
    fc.constant('with x as (select 1) select * into y from x'),
    fc.constant('grant all on t to public'),
    fc.constant("commit prepared 'x'"),
    fc.constant('vacuum'),
  )
  const separator = fc.constantFrom(';', ';\n', ' ; ', ';-- done\n', ';/* x */')

  it('holds for any reads around any write', () => {
    fc.assert(
      fc.property(
        fc.array(read, { maxLength: 4 }),
        write,
        fc.array(read, { maxLength: 3 }),
        separator,
        (before, written, after, joint) => {
          const text = [...before, written, ...after].join(joint)
          if (before.length === 0 && after.length === 0) return
          expect(classifyStatement(text).kind).toBe('write')
        },
      ),
      { numRuns: 500 },
    )
  })
})
