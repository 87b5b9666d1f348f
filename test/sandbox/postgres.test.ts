import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createPostgresEngine,
  schemaNameFor,
  SqlError,
  UnknownDatabaseError,
  type PostgresDatabaseSpec,
  type PostgresEngine,
  type SqlOutcome,
} from '../../src/sandbox/postgres'

const DATABASES: PostgresDatabaseSpec[] = [
  { id: 'pg-small', name: 'shop', seed: 'small' },
  { id: 'pg-large', name: 'analytics', seed: 'large' },
  { id: 'pg-other', name: 'shop-copy', seed: 'small' },
]

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now()
  const result = await work()
  console.log(`${label}: ${(performance.now() - started).toFixed(1)} ms`)
  return result
}

async function sqlError(work: Promise<unknown>): Promise<SqlError> {
  try {
    await work
  } catch (error) {
    expect(error).toBeInstanceOf(SqlError)
    return error as SqlError
  }
  throw new Error('expected the statement to fail')
}

function column(outcome: SqlOutcome, index: number): unknown[] {
  return outcome.rows.map((row) => row[index])
}

/** What both backends must do alike. */
function describeEngine(label: string, databaseUrl: string | undefined): void {
  describe(label, () => {
    let engine: PostgresEngine

    beforeAll(() => {
      engine = createPostgresEngine({ databases: DATABASES, databaseUrl })
    })

    afterAll(async () => {
      await engine.close()
    })

    /** `count(*)` of the database's orders with this status, as the engine answers it. */
    async function orderRowsWithStatus(database: string, status: string) {
      const sql = `SELECT count(*) FROM orders WHERE status = '${status}'`
      return (await engine.query(database, sql, 10)).rows
    }

    it('answers from the small seed (started and seeded on first use)', async () => {
      const outcome = await timed(`${label}: cold start + seed 'small' + first query`, () =>
        engine.query(
          'pg-small',
          'SELECT id, name, email, is_active FROM customers ORDER BY id',
          100,
        ),
      )
      expect(outcome.command).toBe('SELECT')
      expect(outcome.rowCount).toBe(24)
      expect(outcome.rows).toHaveLength(24)
      expect(outcome.truncated).toBe(false)
      expect(outcome.fields.map((field) => field.name)).toEqual([
        'id',
        'name',
        'email',
        'is_active',
      ])
      expect(outcome.rows[0]).toEqual([1, 'Ada Hamilton', 'customer1@example.com', true])
      expect(outcome.durationMs).toBeGreaterThanOrEqual(0)

      const view = await engine.query(
        'pg-small',
        'SELECT customer_id, order_count, total_spent FROM customer_order_totals ORDER BY customer_id',
        100,
      )
      expect(view.rowCount).toBe(24)
      const orders = column(view, 1).reduce<number>((sum, count) => sum + Number(count), 0)
      expect(orders).toBe(60)
    })

    it('holds at least 100,000 rows in the large seed', async () => {
      const outcome = await timed(`${label}: cold start + seed 'large' + count(*)`, () =>
        engine.query('pg-large', 'SELECT count(*) FROM events', 10),
      )
      expect(outcome.fields).toEqual([{ name: 'count', dataType: 'int8' }])
      expect(Number(outcome.rows[0]?.[0])).toBeGreaterThanOrEqual(100_000)
    })

    it('returns exactly maxRows rows and reports truncation', async () => {
      const outcome = await timed(`${label}: SELECT * FROM events (100k rows), maxRows 1000`, () =>
        engine.query('pg-large', 'SELECT * FROM events ORDER BY id', 1000),
      )
      expect(outcome.truncated).toBe(true)
      expect(outcome.rows).toHaveLength(1000)
      expect(outcome.rowCount).toBe(100_000)
      expect(outcome.rows[0]?.[0]).toBe('1')
      expect(outcome.rows[999]?.[0]).toBe('1000')

      // The ';' in the comment sends the same query down the run-as-written path.
      const asWritten = await timed(
        `${label}: the same SELECT materialised whole, then cut to 1000 rows`,
        () => engine.query('pg-large', '/* ; */ SELECT * FROM events ORDER BY id', 1000),
      )
      expect(asWritten.rows).toEqual(outcome.rows)
      expect(asWritten.rowCount).toBe(100_000)
      expect(asWritten.truncated).toBe(true)

      const exact = await engine.query('pg-small', 'SELECT * FROM customers', 24)
      expect(exact.truncated).toBe(false)
      expect(exact.rows).toHaveLength(24)

      const none = await engine.query('pg-small', 'SELECT * FROM customers;', 0)
      expect(none.rows).toEqual([])
      expect(none.truncated).toBe(true)
      expect(none.rowCount).toBe(24)
      expect(none.fields).toHaveLength(6)
    })

    it('reports the rows an INSERT affects, and a later SELECT sees them', async () => {
      const insert = await engine.query(
        'pg-small',
        `INSERT INTO customers (name, email, country) VALUES
           ('Edsger Dijkstra', 'edsger@example.com', 'NL'),
           ('Tony Hoare', 'tony@example.com', 'GB')`,
        100,
      )
      expect(insert).toMatchObject({ command: 'INSERT', rowCount: 2, rows: [], fields: [] })

      const found = await engine.query(
        'pg-small',
        "SELECT name FROM customers WHERE email LIKE '%@example.com' AND id > 24 ORDER BY id",
        100,
      )
      expect(column(found, 0)).toEqual(['Edsger Dijkstra', 'Tony Hoare'])

      const update = await engine.query(
        'pg-small',
        "UPDATE customers SET country = 'NL' WHERE id <= 5",
        10,
      )
      expect(update).toMatchObject({ command: 'UPDATE', rowCount: 5 })

      // A data-modifying WITH cannot be a cursor: it runs as written and still returns rows.
      const returning = await engine.query(
        'pg-small',
        "WITH added AS (INSERT INTO products (sku, name, price) VALUES ('T-1', 'Test', 1.50) RETURNING sku, price) SELECT * FROM added",
        10,
      )
      expect(returning.rows).toEqual([['T-1', '1.50']])
    })

    it('keeps a transaction the caller opened across statements', async () => {
      await engine.query('pg-small', 'BEGIN', 10)
      await engine.query('pg-small', "DELETE FROM orders WHERE status = 'refunded'", 10)
      expect(await orderRowsWithStatus('pg-small', 'refunded')).toEqual([['0']])
      await engine.query('pg-small', 'ROLLBACK', 10)
      expect(await orderRowsWithStatus('pg-small', 'refunded')).toEqual([['12']])
    })

    it('turns a syntax error into SqlError 42601 with its position', async () => {
      const error = await sqlError(engine.query('pg-small', 'SELEC * FROM customers', 10))
      expect(error.sqlState).toBe('42601')
      expect(error.position).toBe(1)
      expect(error.message).toMatch(/syntax error/)

      const later = await sqlError(engine.query('pg-small', 'SELECT id FROM customers WHERE', 10))
      expect(later.sqlState).toBe('42601')
      expect(later.position).toBe(31)
    })

    it('turns an unknown table into SqlError 42P01', async () => {
      const error = await sqlError(engine.query('pg-small', 'SELECT * FROM no_such_table', 10))
      expect(error.sqlState).toBe('42P01')
      expect(error.position).toBe(15)

      // Positions count from the start of the whole script.
      const script = await sqlError(engine.query('pg-small', 'SELECT 1; SELECT * FROM nope', 10))
      expect(script.sqlState).toBe('42P01')
      expect(script.position).toBe(25)

      const runtime = await sqlError(engine.query('pg-small', 'SELECT 1 / 0', 10))
      expect(runtime.sqlState).toBe('22012')
      expect(runtime.position).toBeNull()
    })

    it('names the types and gives JSON-safe values', async () => {
      const outcome = await engine.query(
        'pg-small',
        `SELECT 42::int4 AS i, 'hi'::text AS t, timestamptz '2024-05-06 07:08:09.5+02' AS ts,
                12.50::numeric AS n, true AS b, '{"k": [1, "x"]}'::jsonb AS j,
                9007199254740993::int8 AS big, '\\x00ff'::bytea AS bytes, date '2024-02-29' AS d,
                ARRAY[1, 2, 3] AS arr`,
        10,
      )
      expect(outcome.fields).toEqual([
        { name: 'i', dataType: 'int4' },
        { name: 't', dataType: 'text' },
        { name: 'ts', dataType: 'timestamptz' },
        { name: 'n', dataType: 'numeric' },
        { name: 'b', dataType: 'bool' },
        { name: 'j', dataType: 'jsonb' },
        { name: 'big', dataType: 'int8' },
        { name: 'bytes', dataType: 'bytea' },
        { name: 'd', dataType: 'date' },
        { name: 'arr', dataType: 'int4[]' },
      ])
      expect(outcome.rows).toEqual([
        [
          42,
          'hi',
          '2024-05-06T05:08:09.500Z',
          '12.50',
          true,
          { k: [1, 'x'] },
          '9007199254740993',
          '\\x00ff',
          '2024-02-29',
          [1, 2, 3],
        ],
      ])
      expect(JSON.parse(JSON.stringify(outcome.rows))).toEqual(outcome.rows)

      await engine.query('pg-small', "CREATE TYPE mood AS ENUM ('ok', 'meh')", 10)
      const custom = await engine.query(
        'pg-small',
        "SELECT 'ok'::mood AS m, ARRAY['meh'::mood] AS ms",
        10,
      )
      expect(custom.fields).toEqual([
        { name: 'm', dataType: 'mood' },
        { name: 'ms', dataType: 'mood[]' },
      ])
      expect(custom.rows).toEqual([['ok', '{meh}']])
    })

    it('keeps databases apart', async () => {
      await engine.query('pg-small', 'CREATE TABLE only_here (id int4)', 10)
      await engine.query('pg-small', "DELETE FROM orders WHERE status = 'pending'", 10)

      const error = await sqlError(engine.query('pg-other', 'SELECT * FROM only_here', 10))
      expect(error.sqlState).toBe('42P01')
      expect(await orderRowsWithStatus('pg-other', 'pending')).toEqual([['12']])
      expect(await orderRowsWithStatus('pg-small', 'pending')).toEqual([['0']])
    })

    it('restores every database to its seed on reset', async () => {
      await engine.query('pg-small', 'DROP VIEW customer_order_totals', 10)
      await engine.query('pg-large', 'DELETE FROM events WHERE id > 10', 10)
      await engine.reset()

      const customers = await timed(`${label}: first query after reset ('small')`, () =>
        engine.query('pg-small', 'SELECT count(*) FROM customers', 10),
      )
      expect(customers.rows).toEqual([['24']])
      expect(await orderRowsWithStatus('pg-small', 'pending')).toEqual([['12']])
      const view = await engine.query('pg-small', 'SELECT count(*) FROM customer_order_totals', 10)
      expect(view.rows).toEqual([['24']])
      const gone = await sqlError(engine.query('pg-small', 'SELECT * FROM only_here', 10))
      expect(gone.sqlState).toBe('42P01')
      const events = await timed(`${label}: first query after reset ('large')`, () =>
        engine.query('pg-large', 'SELECT count(*) FROM events', 10),
      )
      expect(events.rows).toEqual([['100000']])
    })

    it('refuses a database it was not given', async () => {
      await expect(engine.query('pg-missing', 'SELECT 1', 10)).rejects.toBeInstanceOf(
        UnknownDatabaseError,
      )
    })
  })
}

describeEngine('PGlite', undefined)

const serverUrl = process.env.INFRADESK_TEST_DATABASE_URL

describe.runIf(Boolean(serverUrl))('a real PostgreSQL server', () => {
  describeEngine('server', serverUrl)

  it('puts each database in its own schema and drops it on close', async () => {
    const engine = createPostgresEngine({ databases: DATABASES, databaseUrl: serverUrl })
    const schema = await engine.query('pg-other', 'SELECT current_schema()', 1)
    expect(schema.rows).toEqual([[schemaNameFor('pg-other')]])
    expect(schemaNameFor('pg-other')).toMatch(/^sandbox_[0-9a-f]{24}$/)
    await engine.close()

    const observer = createPostgresEngine({
      databases: DATABASES.slice(0, 1),
      databaseUrl: serverUrl,
    })
    const left = await observer.query(
      'pg-small',
      `SELECT count(*) FROM pg_namespace WHERE nspname = '${schemaNameFor('pg-other')}'`,
      1,
    )
    expect(left.rows).toEqual([['0']])
    await observer.close()
  })
})
