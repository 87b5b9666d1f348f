import { describe, expect, it } from 'vitest'
import {
  callOperation,
  GATEWAY_ARGS,
  sandboxForThisFile,
  type CallResult,
} from '../../support/sandbox-process'

/*
 * Op 5 and op 8 in the gateway flavour (src/sandbox/postgres/gateway-query.ts): what a real
 * deployment answers. One result per statement, each statement run on its own on one
 * connection, node-postgres's values, the 512 KiB / 768 KiB cuts, the 10-statement limit and
 * its error codes; op 8's 200 that says the rotation failed.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS] })

/** The small demo database (customers, products, orders). */
function inventory(): string {
  return sandbox.seed.databases.postgres[1] as string
}

function query(sql: string, maxRows?: number): Promise<CallResult> {
  return callOperation(sandbox, 'runPostgresQuery', {
    params: { id: inventory() },
    body: maxRows === undefined ? { sql } : { sql, maxRows },
  })
}

interface Result {
  command: string
  rowCount: number
  durationMs: number
  fields: string[]
  rows: Record<string, unknown>[]
  truncated: boolean
  maxRows: number
}

interface Answer {
  results: Result[]
  truncated: boolean
  resultLimit: number
}

function answerOf(response: CallResult): Answer {
  expect(response.status, response.text()).toBe(200)
  return (response.json as { data: Answer }).data
}

async function customerCount(): Promise<string> {
  const answer = answerOf(await query('select count(*) as n from customers'))
  return answer.results[0]?.rows[0]?.['n'] as string
}

describe('gateway flavour: op 5 answers one result per statement', () => {
  it('reads {results:[{command,rowCount,durationMs,fields,rows,truncated,maxRows}],truncated,resultLimit}', async () => {
    const answer = answerOf(
      await query(
        "select 9007199254740993::int8 as big, 12.50::numeric as price, '\\x00ff10'::bytea as raw, " +
          "1 as same, 2 as same, 'NaN'::float8 as nan, date '2024-02-29' as day; " +
          'select id from customers order by id limit 2',
      ),
    )
    expect(answer.truncated).toBe(false)
    expect(answer.resultLimit).toBe(10)
    expect(answer.results).toHaveLength(2)
    const [values, ids] = answer.results as [Result, Result]
    expect(values).toMatchObject({ command: 'SELECT', rowCount: 1, truncated: false, maxRows: 500 })
    expect(values.durationMs).toEqual(expect.any(Number))
    // Names only, duplicates kept; the row is an object, so the last `same` wins.
    expect(values.fields).toEqual(['big', 'price', 'raw', 'same', 'same', 'nan', 'day'])
    expect(values.rows).toEqual([
      {
        big: '9007199254740993',
        price: '12.50',
        raw: { type: 'Buffer', data: [0, 255, 16] },
        same: 2,
        nan: null,
        day: '2024-02-29T00:00:00.000Z',
      },
    ])
    expect(ids.rows).toEqual([{ id: 1 }, { id: 2 }])
  })

  it('runs each statement on its own: a SET TRANSACTION READ ONLY prefix guards nothing', async () => {
    const answer = answerOf(
      await query('SET TRANSACTION READ ONLY; DELETE FROM orders WHERE id = 1 RETURNING id'),
    )
    expect(answer.results.map((result) => result.command)).toEqual(['SET', 'DELETE'])
    expect(answer.results[1]?.rows).toEqual([{ id: 1 }])
  })

  it('keeps BEGIN READ ONLY … ROLLBACK in one request on one connection: the write is refused', async () => {
    const before = await customerCount()
    const response = await query(
      'BEGIN TRANSACTION READ ONLY; SELECT 1; DELETE FROM orders; ROLLBACK',
    )
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      code: 'DATABASE_QUERY_FAILED',
      message: 'cannot execute DELETE in a read-only transaction',
    })
    // No ROLLBACK ran: the connection went back to the pool inside the failed transaction,
    // and the next request that gets it fails at its first command, as on a real deployment.
    const next = await query('select 1')
    expect(next.status).toBe(400)
    expect(next.json).toEqual({
      code: 'DATABASE_QUERY_FAILED',
      message: 'current transaction is aborted, commands ignored until end of transaction block',
    })
    await sandbox.reset()
    expect(await customerCount()).toBe(before)
  })

  it('returns every result of a read-only transaction that ends with ROLLBACK', async () => {
    const answer = answerOf(
      await query('BEGIN TRANSACTION READ ONLY; SELECT 1 AS one; SELECT 2 AS two; ROLLBACK'),
    )
    expect(answer.results.map((result) => result.command)).toEqual([
      'BEGIN',
      'SELECT',
      'SELECT',
      'ROLLBACK',
    ])
    expect(answer.results[2]?.rows).toEqual([{ two: 2 }])
  })

  it('refuses more than 10 statements before running any: 400 POSTGRES_STATEMENT_LIMIT_EXCEEDED', async () => {
    const statements = [
      'DELETE FROM orders',
      ...Array.from({ length: 10 }, (_, i) => `SELECT ${i}`),
    ]
    const response = await query(statements.join(';\n'))
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      code: 'POSTGRES_STATEMENT_LIMIT_EXCEEDED',
      message: 'Postgres SQL execution is limited to 10 statements per request',
    })
    const orders = answerOf(await query('select count(*) as n from orders'))
    expect(orders.results[0]?.rows[0]?.['n']).toBe('60')
    // Ten are fine.
    expect(answerOf(await query(statements.slice(1).join(';'))).results).toHaveLength(10)
  })

  it("answers an SQL error 400 DATABASE_QUERY_FAILED with PostgreSQL's message and no position", async () => {
    const response = await query('select 1; select nope from customers')
    expect(response.status).toBe(400)
    expect(response.json).toEqual({
      code: 'DATABASE_QUERY_FAILED',
      message: 'column "nope" does not exist',
    })
  })

  it('keeps maxRows (1..2000, 500 by default) and refuses more as VALIDATION_ERROR', async () => {
    const few = answerOf(await query('select g from generate_series(1, 30) g', 7))
    expect(few.results[0]).toMatchObject({ rowCount: 30, truncated: true, maxRows: 7 })
    expect(few.results[0]?.rows).toHaveLength(7)
    const refused = await query('select 1', 2001)
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'maxRows', message: expect.any(String) }],
    })
  })

  it('cuts a result at 512 KiB of rows and says so', async () => {
    const answer = answerOf(
      await query("select g, repeat('x', 1000) as filler from generate_series(1, 2000) g", 2000),
    )
    const [result] = answer.results as [Result]
    expect(result.truncated).toBe(true)
    expect(result.rowCount).toBe(2000)
    expect(result.rows.length).toBeGreaterThan(400)
    expect(result.rows.length).toBeLessThan(2000)
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(512 * 1024)
  })

  it('cuts a value that does not fit: a string shortened, a deep member left out', async () => {
    const answer = answerOf(
      await query(
        "select 1 as n, repeat('s', 600000) as long, jsonb_build_object('a', jsonb_build_object('b', " +
          "jsonb_build_object('c', jsonb_build_object('d', (select jsonb_agg(g) from generate_series(1, 150000) g))))) as j",
      ),
    )
    const [result] = answer.results as [Result]
    expect(result.truncated).toBe(true)
    const [row] = result.rows as [{ n: number; long: string; j?: unknown }]
    expect(row.n).toBe(1)
    // Shortened to what is left of 512 KiB, with no mark of its own: only `truncated` says it.
    expect(row.long.length).toBeGreaterThan(500_000)
    expect(row.long.length).toBeLessThan(600_000)
    // Nothing was left for the JSON column; the {preview, truncated} the rules make for a
    // value four levels down is larger than the budget it was cut to, so it never fits either.
    expect(row.j).toBeUndefined()
    const deep = answerOf(
      await query(
        "select jsonb_build_object('a', jsonb_build_object('b', jsonb_build_object('c', " +
          "jsonb_build_object('d', (select jsonb_agg(g) from generate_series(1, 150000) g))))) as j",
      ),
    )
    expect(deep.results[0]?.truncated).toBe(true)
    expect(deep.results[0]?.rows).toEqual([{ j: { a: { b: {} } } }])
  })

  it('stops the answer at 768 KiB: the whole answer says truncated', async () => {
    const big = "select repeat('y', 400000) as s"
    const answer = answerOf(await query(`${big}; ${big}; ${big}`))
    expect(answer.truncated).toBe(true)
    expect(answer.results.length).toBeLessThan(3)
  })
})

describe('gateway flavour: op 8 answers 200 when the engine could not take the certificate', () => {
  it('says status "error" and lastError for the database whose daemon cannot reload', async () => {
    const [id] = sandbox.seed.databases.daemonCannotReload ?? []
    expect(id).toBeDefined()
    const response = await callOperation(sandbox, 'rotateDatabaseCertificate', {
      params: { id: id as string },
      body: {},
    })
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({
      data: { id, status: 'error', lastError: expect.stringMatching(/update failed/) },
    })
  })
})
