import { beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { SqlResult } from '../../../src/shared/api'
import {
  call,
  callOperation,
  expectError,
  expectSuccess,
  expectValidationError,
  itRejectsEachInvalidBody,
  sandboxForThisFile,
} from '../../support/sandbox-process'

/* Operations 5 (run SQL on a real PostgreSQL) and 8 (rotate a database's TLS certificate). */

const sqlErrorDetailsSchema = z.looseObject({
  sqlState: z.string().regex(/^[0-9A-Z]{5}$/),
  position: z.number().int().nullable(),
  message: z.string().min(1),
})

const sandbox = sandboxForThisFile({ resetBeforeEach: true })
let postgresId: string

beforeAll(() => {
  postgresId = sandbox.seed.databases.postgres[0] as string
})

async function query(sql: string, options: { maxRows?: number; id?: string } = {}) {
  return callOperation(sandbox, 'runPostgresQuery', {
    params: { id: options.id ?? postgresId },
    body: { sql, maxRows: options.maxRows },
  })
}

/** Runs SQL that must succeed; returns the result with rows as arrays (the sandbox's form). */
async function rows(sql: string, options: { maxRows?: number; id?: string } = {}) {
  const result: SqlResult = expectSuccess('runPostgresQuery', await query(sql, options)).data
  expect(result.rows).toBeDefined()
  return { ...result, rows: (result.rows ?? []) as unknown[][] }
}

/** The seeded table of >= 100,000 rows: found by asking PostgreSQL, not by knowing its name. */
async function findLargeTable(): Promise<{ databaseId: string; table: string; count: number }> {
  for (const databaseId of sandbox.seed.databases.postgres) {
    const tables = await rows(
      `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name)
         FROM information_schema.tables
        WHERE table_type = 'BASE TABLE'
          AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      { id: databaseId },
    )
    for (const [table] of tables.rows) {
      const counted = await rows(`SELECT count(*) FROM ${String(table)}`, { id: databaseId })
      const count = Number(counted.rows[0]?.[0])
      if (count >= 100_000) return { databaseId, table: String(table), count }
    }
  }
  throw new Error('no seeded PostgreSQL table holds 100,000 rows')
}

describe('op 5: POST /api/databases/{id}/postgres/query', () => {
  it('runs a SELECT: command, rowCount, fields, rows as arrays, truncated, durationMs', async () => {
    const result = await rows("SELECT 1 AS one, 'two'::text AS two")
    expect(result.command).toBe('SELECT')
    expect(result.rowCount).toBe(1)
    expect(result.fields?.map((field) => field.name)).toEqual(['one', 'two'])
    for (const field of result.fields ?? []) expect(field.dataType).toEqual(expect.any(String))
    expect(result.rows).toEqual([[1, 'two']])
    expect(result.truncated).toBe(false)
    expect(result.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('returns JSON-safe values: bigint and numeric as strings, null as null', async () => {
    const result = await rows(
      "SELECT 9007199254740993::bigint AS big, 1.50::numeric AS price, NULL::text AS nothing, true AS yes, '2024-01-02T03:04:05Z'::timestamptz AS at",
    )
    const [big, price, nothing, yes, at] = result.rows[0] ?? []
    expect(big).toBe('9007199254740993')
    expect(price).toBe('1.50')
    expect(nothing).toBeNull()
    expect(yes).toBe(true)
    expect(new Date(String(at)).toISOString()).toBe('2024-01-02T03:04:05.000Z')
  })

  it('is seeded: a table of at least 100,000 rows', async () => {
    const large = await findLargeTable()
    expect(large.count).toBeGreaterThanOrEqual(100_000)
  })

  it('honours maxRows and reports truncated; 1000 rows by default', async () => {
    const large = await findLargeTable()
    const limited = await rows(`SELECT * FROM ${large.table}`, {
      id: large.databaseId,
      maxRows: 10,
    })
    expect(limited.rows).toHaveLength(10)
    expect(limited.truncated).toBe(true)
    const byDefault = await rows(`SELECT * FROM ${large.table}`, { id: large.databaseId })
    expect(byDefault.rows).toHaveLength(1000)
    expect(byDefault.truncated).toBe(true)
    const fits = await rows('SELECT generate_series(1, 5) AS n', { maxRows: 5 })
    expect(fits.rows).toHaveLength(5)
    expect(fits.truncated).toBe(false)
  })

  it('writes: an INSERT is seen by a later SELECT, and a reset undoes it', async () => {
    await rows('CREATE TABLE contract_probe (id integer PRIMARY KEY, note text)')
    const inserted = await rows("INSERT INTO contract_probe VALUES (1, 'first'), (2, 'second')")
    expect(inserted.command).toBe('INSERT')
    expect(inserted.rowCount).toBe(2)
    const read = await rows('SELECT id, note FROM contract_probe ORDER BY id')
    expect(read.rows).toEqual([
      [1, 'first'],
      [2, 'second'],
    ])
    const updated = await rows("UPDATE contract_probe SET note = 'changed' WHERE id = 2")
    expect(updated.command).toBe('UPDATE')
    expect(updated.rowCount).toBe(1)

    await sandbox.reset()
    const gone = expectError(await query('SELECT * FROM contract_probe'), 'UNPROCESSABLE_ENTITY')
    expect(sqlErrorDetailsSchema.parse(gone.details).sqlState).toBe('42P01')
  })

  it('keeps each database apart', async () => {
    const [first, second] = sandbox.seed.databases.postgres
    expect(second, 'the seed has two PostgreSQL databases').toBeDefined()
    await rows('CREATE TABLE only_in_first (id integer)', { id: first })
    const elsewhere = await query('SELECT * FROM only_in_first', { id: second })
    expectError(elsewhere, 'UNPROCESSABLE_ENTITY')
  })

  it('a failing statement is 422 with details { sqlState, position, message }', async () => {
    const missing = expectError(await query('SELECT * FROM no_such_table'), 'UNPROCESSABLE_ENTITY')
    const details = sqlErrorDetailsSchema.parse(missing.details)
    expect(details.sqlState).toBe('42P01')
    expect(details.position).toBe(15)
    expect(details.message).toMatch(/no_such_table/)

    const syntax = sqlErrorDetailsSchema.parse(
      expectError(await query('SELEC 1'), 'UNPROCESSABLE_ENTITY').details,
    )
    expect(syntax.sqlState).toBe('42601')
    expect(syntax.position).toBe(1)

    const division = sqlErrorDetailsSchema.parse(
      expectError(await query('SELECT 1 / 0'), 'UNPROCESSABLE_ENTITY').details,
    )
    expect(division.sqlState).toBe('22012')
    expect(division.position).toBeNull()
  })

  it('422 on a database that is not PostgreSQL (Redis, ClickHouse)', async () => {
    for (const id of [sandbox.seed.databases.redis[0], sandbox.seed.databases.clickhouse[0]]) {
      expectError(await query('SELECT 1', { id }), 'UNPROCESSABLE_ENTITY')
    }
  })

  it('404 for an unknown database', async () => {
    expectError(await query('SELECT 1', { id: 'no-such-database' }), 'NOT_FOUND')
  })

  itRejectsEachInvalidBody(sandbox, 'runPostgresQuery', () => ({ id: postgresId }), [
    ['sql missing', { maxRows: 5 }, ['sql']],
    ['sql not a string', { sql: 42 }, ['sql']],
    ['maxRows not an integer', { sql: 'SELECT 1', maxRows: 1.5 }, ['maxRows']],
    ['maxRows a string', { sql: 'SELECT 1', maxRows: '10' }, ['maxRows']],
    ['maxRows below 1', { sql: 'SELECT 1', maxRows: 0 }, ['maxRows']],
    ['maxRows above 100000', { sql: 'SELECT 1', maxRows: 100_001 }, ['maxRows']],
    ['an unknown field', { sql: 'SELECT 1', timeoutMs: 5 }, ['timeoutMs']],
  ])

  it('400 when the body is missing', async () => {
    const response = await call(sandbox, {
      method: 'POST',
      path: `/api/databases/${postgresId}/postgres/query`,
    })
    expectError(response, 'VALIDATION_ERROR')
  })

  it('400 naming id when the database segment is empty', async () => {
    const response = await call(sandbox, {
      method: 'POST',
      path: '/api/databases//postgres/query',
      body: { sql: 'SELECT 1' },
    })
    expectValidationError(response, ['id'])
  })
})

describe('op 8: POST /api/databases/managed/{id}/rotate-certificate', () => {
  const rotationSchema = z.looseObject({
    mode: z.enum(['reloaded_in_place', 'scheduled_reread', 'restarted']),
    status: z.enum(['completed', 'pending']),
    previousSerialNumber: z.string().min(1),
    certificate: z.looseObject({
      serialNumber: z.string().min(1),
      notAfter: z.iso.datetime({ offset: true }),
    }),
  })

  async function rotate(id: string, body?: unknown) {
    const response = await callOperation(sandbox, 'rotateDatabaseCertificate', {
      params: { id },
      body,
    })
    return rotationSchema.parse(expectSuccess('rotateDatabaseCertificate', response).data)
  }

  function reloadable(ids: string[]): string {
    const cannot = sandbox.seed.databases.daemonCannotReload ?? []
    const id = ids.find((candidate) => !cannot.includes(candidate))
    if (!id) throw new Error('no database of that engine on a node that can reload')
    return id
  }

  it('PostgreSQL reloads in place; the new serial differs from the previous one, every time', async () => {
    const id = reloadable(sandbox.seed.databases.postgres)
    const first = await rotate(id)
    expect(first.mode).toBe('reloaded_in_place')
    expect(first.status).toBe('completed')
    expect(first.certificate.serialNumber).not.toBe(first.previousSerialNumber)
    expect(Date.parse(first.certificate.notAfter)).toBeGreaterThan(Date.now())
    // A later rotation replaces the certificate the first one issued.
    const second = await rotate(id, {})
    expect(second.previousSerialNumber).toBe(first.certificate.serialNumber)
    expect(second.certificate.serialNumber).not.toBe(first.certificate.serialNumber)
  })

  it('Redis keeps serving too: in place', async () => {
    expect((await rotate(reloadable(sandbox.seed.databases.redis))).mode).toBe('reloaded_in_place')
  })

  it('an engine that rereads on a schedule finishes later, unless allowRestart', async () => {
    const id = reloadable(sandbox.seed.databases.clickhouse)
    const scheduled = await rotate(id, { allowRestart: false })
    expect(scheduled.mode).toBe('scheduled_reread')
    expect(scheduled.status).toBe('pending')
    const restarted = await rotate(id, { allowRestart: true })
    expect(restarted.mode).toBe('restarted')
    expect(restarted.status).toBe('completed')
    expect(restarted.previousSerialNumber).toBe(scheduled.certificate.serialNumber)
  })

  it('a node whose daemon cannot reload yet restarts the engine', async () => {
    const id = sandbox.seed.databases.daemonCannotReload?.[0]
    expect(id, 'the seed has a database on such a node').toBeDefined()
    expect((await rotate(id as string)).mode).toBe('restarted')
  })

  it('takes no body at all, or an empty one', async () => {
    const id = reloadable(sandbox.seed.databases.postgres)
    const response = await call(sandbox, {
      method: 'POST',
      path: `/api/databases/managed/${id}/rotate-certificate`,
    })
    expectSuccess('rotateDatabaseCertificate', response)
  })

  it('404 for an unknown database', async () => {
    expectError(
      await callOperation(sandbox, 'rotateDatabaseCertificate', {
        params: { id: 'no-such-database' },
        body: {},
      }),
      'NOT_FOUND',
    )
  })

  itRejectsEachInvalidBody(sandbox, 'rotateDatabaseCertificate', () => ({ id: postgresId }), [
    ['allowRestart not a boolean', { allowRestart: 'yes' }, ['allowRestart']],
    ['an unknown field', { restartNow: true }, ['restartNow']],
  ])

  it('400 naming id when the id segment is empty', async () => {
    const response = await call(sandbox, {
      method: 'POST',
      path: '/api/databases/managed//rotate-certificate',
      body: {},
    })
    expectValidationError(response, ['id'])
  })
})
