import { describe, expect, it } from 'vitest'
import { useSqlDesk } from '../support/sql-desk'

/*
 * The SQL console through the desk against the sandbox's second personality (rows as objects
 * without a field list and `tookMs` on a small database; node-postgres's fields with type
 * OIDs and `elapsedMs` on the large one), and against the default personality's bounds
 * (maxRows at most 2,000, as a real deployment): the bound is learned from the refusal, said,
 * persisted per profile and used to cap later runs.
 */

describe('the variant personality', () => {
  const world = useSqlDesk('sql-variant', {
    sandbox: { variant: true },
    // The seed's first PostgreSQL database is the large one (100,000 events), then a small one.
    database: 1,
    tabId: 'tab-1',
    maxRows: 1000,
  })
  const small = (sql: string, maxRows = 1000) => world.run(sql, { maxRows })
  const large = (sql: string, maxRows = 1000) =>
    world.run(sql, { maxRows, databaseId: world.sandbox.seed().databases.postgres[0] })

  it('reads rows as objects with no field list: columns from the keys, the row, the time', async () => {
    const meta = await small("select 1 as a, 'x' as b, null as c")
    expect(meta.fields.map((field) => field.name)).toEqual(['a', 'b', 'c'])
    expect(meta.firstRows).toEqual([['1', 'x', null]])
    expect(meta.rows).toBe(1)
    expect(meta.rowCount).toBe(1)
    // The service said `tookMs`, not `durationMs`: still shown as the service's time.
    expect(meta.durationMs).toEqual(expect.any(Number))
    expect(meta.command).toBe('')
  })

  it('reads node-postgres fields { name, dataTypeID }: the types named from their OIDs', async () => {
    const meta = await large(
      "select 1 as a, 'x'::text as b, null::numeric as c, 9007199254740993::int8 as d, '{\"k\":1}'::jsonb as e",
    )
    expect(meta.fields.map((field) => [field.name, field.dataType, field.display])).toEqual([
      ['a', 'int4', 'number'],
      ['b', 'text', 'text'],
      ['c', 'numeric', 'number'],
      ['d', 'int8', 'number'],
      ['e', 'jsonb', 'json'],
    ])
    expect(meta.firstRows).toEqual([['1', 'x', null, '9007199254740993', '{"k":1}']])
    expect(meta.command).toBe('SELECT')
    expect(meta.durationMs).toEqual(expect.any(Number))
  }, 120_000)

  it('reads a write without rows or command', async () => {
    const created = await small('create table variant_probe (id int)')
    expect(created.fields).toEqual([])
    const inserted = await small('insert into variant_probe values (1), (2)')
    expect(inserted.rowCount).toBe(2)
    const read = await small('select id from variant_probe order by id')
    expect(read.firstRows).toEqual([['1'], ['2']])
  })

  it('keeps a big object-row answer whole: every row, every column', async () => {
    const meta = await large('select id, kind from events order by id', 1500)
    expect(meta.fields.map((field) => field.name)).toEqual(['id', 'kind'])
    expect(meta.rows).toBe(1500)
    expect(meta.truncated).toBe(true)
    const window = await world.desk.value<{ rows: (string | null)[][] }>('sql.rows', {
      resultId: meta.resultId,
      offset: 1499,
      limit: 1,
    })
    expect(window.rows[0]?.[0]).toBe('1500')
  }, 120_000)

  it('an SQL error is still read by its body (the variant answers 400 for it)', async () => {
    const error = await world.desk.failure(
      'sql.run',
      world.runInput('select * from no_such_table', { maxRows: 10 }),
    )
    expect(error.code).toBe('UNPROCESSABLE_ENTITY')
    expect(error).toMatchObject({ status: 400, details: { sqlState: '42P01', position: 15 } })
  })
})

describe("a service's maxRows bound (the default personality: at most 2,000)", () => {
  const world = useSqlDesk('sql-bound', { database: 1, tabId: 'tab-1', maxRows: 1000 })
  const run = (sql: string, maxRows: number) => world.run(sql, { maxRows })
  /** The maxRows of every op 5 request the service received since the test began, in order. */
  const asked = () =>
    world.relay.received
      .filter((request) => request.path.endsWith('/postgres/query'))
      .map((request) => (JSON.parse(request.body) as { maxRows?: number }).maxRows ?? null)

  it('is learned from the refusal, said, and the statement runs within it', async () => {
    const meta = await run('select generate_series(1, 5000) as n', 100_000)
    expect(meta.rowLimit).toEqual({ max: 2000, asked: 100_000 })
    expect(meta.maxRows).toBe(2000)
    expect(meta.rows).toBe(2000)
    expect(meta.truncated).toBe(true)
    // One refused request, then the same statement within the bound.
    expect(asked()).toEqual([100_000, 2000])
  })

  it('caps later runs without asking more first', async () => {
    const meta = await run('select generate_series(1, 5000) as n', 3000)
    expect(meta.rowLimit).toEqual({ max: 2000, asked: 3000 })
    expect(asked()).toEqual([2000])
    // A run within the bound is sent as asked and says nothing of it.
    const within = await run('select 1', 500)
    expect(within.rowLimit).toBeNull()
    expect(within.maxRows).toBe(500)
  })

  it('a refusal of the text (sql over 100,000 characters) is not taken for a row bound', async () => {
    // Named on sql, not maxRows: said as the service said it, and not sent again.
    const error = await world.desk.failure(
      'sql.run',
      world.runInput(`select 1 -- ${'x'.repeat(100_000)}`, { maxRows: 10 }),
    )
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.details).toEqual([{ path: ['sql'], message: expect.stringMatching(/100000/) }])
    expect(asked()).toHaveLength(1)
  })

  it('is kept per profile across a restart of the desk', async () => {
    await world.desk.reopen()
    const meta = await run('select generate_series(1, 5000) as n', 100_000)
    expect(meta.rowLimit).toEqual({ max: 2000, asked: 100_000 })
    expect(asked()).toEqual([2000])

    // Another profile on the same service has learned nothing yet.
    const other = await world.desk.addProfile(
      { url: world.relay.url, tokens: world.sandbox.tokens },
      { name: 'Another' },
    )
    world.relay.received.length = 0
    const fresh = await world.run('select 1', { profileId: other.id, maxRows: 100_000 })
    expect(fresh.rowLimit).toEqual({ max: 2000, asked: 100_000 })
    expect(asked()).toEqual([100_000, 2000])
    await world.desk.vault.delete(other.id).catch(() => undefined)
  })
})
