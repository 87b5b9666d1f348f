import { describe, expect, it } from 'vitest'
import { classifyStatement, isReadOnly } from '../../src/shared/sql/classifier'

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
