import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { parseSqlAnswer } from '../../../src/main/sql/parse-result'
import { ERROR_MESSAGES, errorBodySchema, STATUS_FOR_CODE } from '../../../src/shared/api'
import type { ServiceErrorCode } from '../../../src/shared/api'
import {
  call,
  callOperation,
  sandboxForThisFile,
  startSandboxProcess,
} from '../../support/sandbox-process'
import { expectError, expectSuccess } from '../../support/answers'
import { itRejectsAnEmptyIdSegment, itRejectsEachInvalidBody } from '../../support/refusals'
import type { CallResult, SandboxProcess } from '../../support/sandbox-process'

/*
 * Operations 5 (run SQL on a real PostgreSQL) and 8 (rotate a database's TLS certificate).
 * Op 5 runs against both personalities (the default and `--variant`): what a client reads
 * (columns, rows, counts, errors by their body's code) must hold for both; the shape of the
 * result and the statuses are each personality's own choice and are checked as such.
 */

const sqlErrorDetailsSchema = z.looseObject({
  sqlState: z.string().regex(/^[0-9A-Z]{5}$/),
  position: z.number().int().nullable(),
  message: z.string().min(1),
})

type Personality = 'default' | 'variant'

describe.each([
  ['default', []],
  ['variant', ['--variant']],
] as [Personality, string[]][])(
  'op 5: POST /api/databases/{id}/postgres/query (%s)',
  (personality, args) => {
    let running: SandboxProcess | undefined
    const sandbox = {
      get url() {
        return (running as SandboxProcess).url
      },
      get tokens() {
        return (running as SandboxProcess).tokens
      },
      get seed() {
        return (running as SandboxProcess).seed
      },
    }
    let postgresId: string
    const variant = personality === 'variant'

    beforeAll(async () => {
      running = await startSandboxProcess(args)
      // The seed's first PostgreSQL database is the large one, the second a small one.
      postgresId = sandbox.seed.databases.postgres[1] as string
    })
    afterAll(async () => {
      await running?.stop()
    })
    beforeEach(async () => {
      await running?.reset()
    })

    async function query(sql: string, options: { maxRows?: number; id?: string } = {}) {
      return callOperation(sandbox, 'runPostgresQuery', {
        params: { id: options.id ?? postgresId },
        body: { sql, maxRows: options.maxRows },
      })
    }

    /** Runs SQL that must succeed; returns the result as the app reads it (rows as arrays). */
    async function rows(sql: string, options: { maxRows?: number; id?: string } = {}) {
      const response = await query(sql, options)
      expectSuccess('runPostgresQuery', response)
      return parseSqlAnswer(response.text())
    }

    /** The error body with the code's status in this personality (the variant: 400 for all). */
    function expectErrorHere(response: CallResult, code: ServiceErrorCode) {
      const status = variant && code !== 'INTERNAL_ERROR' ? 400 : STATUS_FOR_CODE[code]
      expect(response.status, response.text().slice(0, 500)).toBe(status)
      const body = errorBodySchema.parse(response.json)
      expect(body.code).toBe(code)
      expect(body.message).toBe(ERROR_MESSAGES[code])
      return body
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

    it('runs a SELECT: columns, rows, rowCount, truncated, the time', async () => {
      const result = await rows("SELECT 1 AS one, 'two'::text AS two")
      expect(result.fields.map((field) => field.name)).toEqual(['one', 'two'])
      expect(result.rows).toEqual([[1, 'two']])
      expect(result.rowCount).toBe(1)
      expect(result.truncated).toBe(false)
      expect(result.durationMs).toBeGreaterThanOrEqual(0)
    })

    it('answers in its own shape', async () => {
      const small = (await query("SELECT 1 AS one, 'two'::text AS two")).json as {
        data: Record<string, unknown>
      }
      const large = (
        await query("SELECT 1 AS one, 'two'::text AS two", {
          id: sandbox.seed.databases.postgres[0],
        })
      ).json as { data: Record<string, unknown> }
      if (!variant) {
        for (const { data } of [small, large]) {
          expect(data).toMatchObject({
            command: 'SELECT',
            fields: [
              { name: 'one', dataType: 'int4' },
              { name: 'two', dataType: 'text' },
            ],
            rows: [[1, 'two']],
          })
          expect(data.durationMs).toEqual(expect.any(Number))
        }
        return
      }
      // A small database: object rows, no field list, no command, `tookMs`.
      expect(Object.keys(small.data).sort()).toEqual(['rowCount', 'rows', 'tookMs', 'truncated'])
      expect(small.data.rows).toEqual([{ one: 1, two: 'two' }])
      // The large one: node-postgres's result, type OIDs and `elapsedMs`.
      expect(large.data).toMatchObject({
        command: 'SELECT',
        fields: [
          { name: 'one', dataTypeID: 23 },
          { name: 'two', dataTypeID: 25 },
        ],
        rows: [{ one: 1, two: 'two' }],
      })
      expect(large.data.elapsedMs).toEqual(expect.any(Number))
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

    it('honours maxRows and reports truncated; 500 rows by default, 2,000 at most', async () => {
      const large = await findLargeTable()
      const limited = await rows(`SELECT * FROM ${large.table}`, {
        id: large.databaseId,
        maxRows: 10,
      })
      expect(limited.rows).toHaveLength(10)
      expect(limited.truncated).toBe(true)
      const byDefault = await rows(`SELECT * FROM ${large.table}`, { id: large.databaseId })
      expect(byDefault.rows).toHaveLength(500)
      expect(byDefault.truncated).toBe(true)
      const most = await rows(`SELECT * FROM ${large.table}`, {
        id: large.databaseId,
        maxRows: 2000,
      })
      expect(most.rows).toHaveLength(2000)
      const fits = await rows('SELECT generate_series(1, 5) AS n', { maxRows: 5 })
      expect(fits.rows).toHaveLength(5)
      expect(fits.truncated).toBe(false)
    })

    it('refuses maxRows above 2,000 and sql over 100,000 characters, as a real deployment', async () => {
      const tooMany = expectErrorHere(
        await query('SELECT 1', { maxRows: 2001 }),
        'VALIDATION_ERROR',
      )
      expect(tooMany.details).toEqual([{ path: ['maxRows'], message: 'Must be at most 2000' }])
      const tooLong = expectErrorHere(
        await query(`SELECT 1 -- ${'x'.repeat(100_000)}`),
        'VALIDATION_ERROR',
      )
      expect(tooLong.details).toEqual([
        { path: ['sql'], message: 'Must be at most 100000 characters' },
      ])
    })

    it('writes: an INSERT is seen by a later SELECT, and a reset undoes it', async () => {
      await rows('CREATE TABLE contract_probe (id integer PRIMARY KEY, note text)')
      const inserted = await rows("INSERT INTO contract_probe VALUES (1, 'first'), (2, 'second')")
      // The command tag is the default personality's; the variant's small databases send none.
      expect(inserted.command).toBe(variant ? '' : 'INSERT')
      expect(inserted.rowCount).toBe(2)
      const read = await rows('SELECT id, note FROM contract_probe ORDER BY id')
      expect(read.rows).toEqual([
        [1, 'first'],
        [2, 'second'],
      ])
      const updated = await rows("UPDATE contract_probe SET note = 'changed' WHERE id = 2")
      expect(updated.rowCount).toBe(1)

      await running?.reset()
      const gone = expectErrorHere(
        await query('SELECT * FROM contract_probe'),
        'UNPROCESSABLE_ENTITY',
      )
      expect(sqlErrorDetailsSchema.parse(gone.details).sqlState).toBe('42P01')
    })

    it('keeps each database apart', async () => {
      const [first, second] = sandbox.seed.databases.postgres
      expect(second, 'the seed has two PostgreSQL databases').toBeDefined()
      await rows('CREATE TABLE only_in_first (id integer)', { id: first })
      const elsewhere = await query('SELECT * FROM only_in_first', { id: second })
      expectErrorHere(elsewhere, 'UNPROCESSABLE_ENTITY')
    })

    it('a failing statement is UNPROCESSABLE_ENTITY with details { sqlState, position, message }', async () => {
      const missing = expectErrorHere(
        await query('SELECT * FROM no_such_table'),
        'UNPROCESSABLE_ENTITY',
      )
      const details = sqlErrorDetailsSchema.parse(missing.details)
      expect(details.sqlState).toBe('42P01')
      expect(details.position).toBe(15)
      expect(details.message).toMatch(/no_such_table/)

      const syntax = sqlErrorDetailsSchema.parse(
        expectErrorHere(await query('SELEC 1'), 'UNPROCESSABLE_ENTITY').details,
      )
      expect(syntax.sqlState).toBe('42601')
      expect(syntax.position).toBe(1)

      const division = sqlErrorDetailsSchema.parse(
        expectErrorHere(await query('SELECT 1 / 0'), 'UNPROCESSABLE_ENTITY').details,
      )
      expect(division.sqlState).toBe('22012')
      expect(division.position).toBeNull()
    })

    it('UNPROCESSABLE_ENTITY on a database that is not PostgreSQL (Redis, ClickHouse)', async () => {
      for (const id of [sandbox.seed.databases.redis[0], sandbox.seed.databases.clickhouse[0]]) {
        expectErrorHere(await query('SELECT 1', { id }), 'UNPROCESSABLE_ENTITY')
      }
    })

    it('NOT_FOUND for an unknown database', async () => {
      expectErrorHere(await query('SELECT 1', { id: 'no-such-database' }), 'NOT_FOUND')
    })

    itRejectsEachInvalidBody(sandbox, 'runPostgresQuery', () => ({ id: postgresId }), [
      ['sql missing', { maxRows: 5 }, ['sql']],
      ['sql not a string', { sql: 42 }, ['sql']],
      ['maxRows not an integer', { sql: 'SELECT 1', maxRows: 1.5 }, ['maxRows']],
      ['maxRows a string', { sql: 'SELECT 1', maxRows: '10' }, ['maxRows']],
      ['maxRows below 1', { sql: 'SELECT 1', maxRows: 0 }, ['maxRows']],
      ['maxRows above 2000', { sql: 'SELECT 1', maxRows: 2001 }, ['maxRows']],
      ['maxRows above 100000', { sql: 'SELECT 1', maxRows: 100_001 }, ['maxRows']],
      ['an unknown field', { sql: 'SELECT 1', timeoutMs: 5 }, ['timeoutMs']],
    ])

    it('VALIDATION_ERROR when the body is missing', async () => {
      const response = await call(sandbox, {
        method: 'POST',
        path: `/api/databases/${postgresId}/postgres/query`,
      })
      expectErrorHere(response, 'VALIDATION_ERROR')
    })

    itRejectsAnEmptyIdSegment(
      sandbox,
      'VALIDATION_ERROR naming id when the database segment is empty',
      {
        method: 'POST',
        path: '/api/databases//postgres/query',
        body: { sql: 'SELECT 1' },
      },
    )
  },
)

// Op 8 is not an open point of op 5's: the default personality's sandbox, one for the file.
const sandbox = sandboxForThisFile({ resetBeforeEach: true })
let postgresId: string

beforeAll(() => {
  postgresId = sandbox.seed.databases.postgres[0] as string
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

  itRejectsAnEmptyIdSegment(sandbox, '400 naming id when the id segment is empty', {
    method: 'POST',
    path: '/api/databases/managed//rotate-certificate',
    body: {},
  })
})
