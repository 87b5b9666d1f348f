import { randomUUID } from 'node:crypto'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * The SQL console through the desk against the sandbox's second personality (rows as objects
 * without a field list and `tookMs` on a small database; node-postgres's fields with type
 * OIDs and `elapsedMs` on the large one), and against the default personality's bounds
 * (maxRows at most 2,000, as a real deployment): the bound is learned from the refusal, said,
 * persisted per profile and used to cap later runs.
 */

type RunMeta = ChannelOutput<'sql.run'>

interface Target {
  desk: TestDesk
  profile: Profile
  databaseId: string
}

async function addProfile(desk: TestDesk, url: string, token: string): Promise<Profile> {
  return desk.value<Profile>('profiles.add', {
    name: `SQL ${randomUUID().slice(0, 8)}`,
    baseUrl: url,
    color: '#16a34a',
    protected: false,
    token,
  })
}

function run(target: Target, sql: string, maxRows = 1000): Promise<RunMeta> {
  return target.desk.value<RunMeta>('sql.run', {
    profileId: target.profile.id,
    databaseId: target.databaseId,
    tabId: 'tab-1',
    runId: randomUUID(),
    sql,
    maxRows,
  })
}

describe('the variant personality', () => {
  let sandbox: RunningSandbox
  let desk: TestDesk
  let small: Target
  let large: Target

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, variant: true })
    desk = await openTestDesk('sql-variant')
    const profile = await addProfile(desk, sandbox.url, sandbox.tokens.admin)
    // The seed's first PostgreSQL database is the large one (100,000 events), then a small one.
    const [first, second] = sandbox.seed().databases.postgres
    large = { desk, profile, databaseId: first as string }
    small = { desk, profile, databaseId: second as string }
  }, 120_000)

  afterAll(async () => {
    await desk?.close(small ? [small.profile.id] : [])
    await sandbox?.close()
  })

  it('reads rows as objects with no field list: columns from the keys, the row, the time', async () => {
    const meta = await run(small, "select 1 as a, 'x' as b, null as c")
    expect(meta.fields.map((field) => field.name)).toEqual(['a', 'b', 'c'])
    expect(meta.firstRows).toEqual([['1', 'x', null]])
    expect(meta.rows).toBe(1)
    expect(meta.rowCount).toBe(1)
    // The service said `tookMs`, not `durationMs`: still shown as the service's time.
    expect(meta.durationMs).toEqual(expect.any(Number))
    expect(meta.command).toBe('')
  })

  it('reads node-postgres fields { name, dataTypeID }: the types named from their OIDs', async () => {
    const meta = await run(
      large,
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
    const created = await run(small, 'create table variant_probe (id int)')
    expect(created.fields).toEqual([])
    const inserted = await run(small, 'insert into variant_probe values (1), (2)')
    expect(inserted.rowCount).toBe(2)
    const read = await run(small, 'select id from variant_probe order by id')
    expect(read.firstRows).toEqual([['1'], ['2']])
  })

  it('keeps a big object-row answer whole: every row, every column', async () => {
    const meta = await run(large, 'select id, kind from events order by id', 1500)
    expect(meta.fields.map((field) => field.name)).toEqual(['id', 'kind'])
    expect(meta.rows).toBe(1500)
    expect(meta.truncated).toBe(true)
    const window = await desk.value<{ rows: (string | null)[][] }>('sql.rows', {
      resultId: meta.resultId,
      offset: 1499,
      limit: 1,
    })
    expect(window.rows[0]?.[0]).toBe('1500')
  }, 120_000)

  it('an SQL error is still read by its body (the variant answers 400 for it)', async () => {
    const error = await desk.failure('sql.run', {
      profileId: small.profile.id,
      databaseId: small.databaseId,
      tabId: 'tab-1',
      runId: randomUUID(),
      sql: 'select * from no_such_table',
      maxRows: 10,
    })
    expect(error.code).toBe('UNPROCESSABLE_ENTITY')
    expect(error).toMatchObject({ status: 400, details: { sqlState: '42P01', position: 15 } })
  })
})

/**
 * A forwarder in front of a sandbox that notes the maxRows of every op 5 request, so a test
 * sees what the desk asked (and that it was not refused first).
 */
async function countingProxy(target: string) {
  const asked: (number | null)[] = []
  const server: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      if (incoming.url?.endsWith('/postgres/query')) {
        const parsed = JSON.parse(body.toString('utf8')) as { maxRows?: number }
        asked.push(parsed.maxRows ?? null)
      }
      const forward = httpRequest(
        new URL(incoming.url ?? '/', target),
        { method: incoming.method, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(outgoing)
        },
      )
      forward.on('error', () => outgoing.destroy())
      forward.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    asked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describe("a service's maxRows bound (the default personality: at most 2,000)", () => {
  let sandbox: RunningSandbox
  let proxy: Awaited<ReturnType<typeof countingProxy>>
  let desk: TestDesk
  let target: Target

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    proxy = await countingProxy(sandbox.url)
    desk = await openTestDesk('sql-bound')
    const profile = await addProfile(desk, proxy.url, sandbox.tokens.admin)
    target = { desk, profile, databaseId: sandbox.seed().databases.postgres[1] as string }
  }, 120_000)

  afterAll(async () => {
    await desk?.close(target ? [target.profile.id] : [])
    await proxy?.close()
    await sandbox?.close()
  })

  it('is learned from the refusal, said, and the statement runs within it', async () => {
    const meta = await run(target, 'select generate_series(1, 5000) as n', 100_000)
    expect(meta.rowLimit).toEqual({ max: 2000, asked: 100_000 })
    expect(meta.maxRows).toBe(2000)
    expect(meta.rows).toBe(2000)
    expect(meta.truncated).toBe(true)
    // One refused request, then the same statement within the bound.
    expect(proxy.asked).toEqual([100_000, 2000])
  })

  it('caps later runs without asking more first', async () => {
    proxy.asked.length = 0
    const meta = await run(target, 'select generate_series(1, 5000) as n', 3000)
    expect(meta.rowLimit).toEqual({ max: 2000, asked: 3000 })
    expect(proxy.asked).toEqual([2000])
    // A run within the bound is sent as asked and says nothing of it.
    const within = await run(target, 'select 1', 500)
    expect(within.rowLimit).toBeNull()
    expect(within.maxRows).toBe(500)
  })

  it('a refusal of the text (sql over 100,000 characters) is not taken for a row bound', async () => {
    // Named on sql, not maxRows: said as the service said it, and not sent again.
    proxy.asked.length = 0
    const error = await desk.failure('sql.run', {
      profileId: target.profile.id,
      databaseId: target.databaseId,
      tabId: 'tab-1',
      runId: randomUUID(),
      sql: `select 1 -- ${'x'.repeat(100_000)}`,
      maxRows: 10,
    })
    expect(error.code).toBe('VALIDATION_ERROR')
    expect(error.details).toEqual([{ path: ['sql'], message: expect.stringMatching(/100000/) }])
    expect(proxy.asked).toHaveLength(1)
  })

  it('is kept per profile across a restart of the desk', async () => {
    await desk.reopen()
    proxy.asked.length = 0
    const meta = await run(target, 'select generate_series(1, 5000) as n', 100_000)
    expect(meta.rowLimit).toEqual({ max: 2000, asked: 100_000 })
    expect(proxy.asked).toEqual([2000])

    // Another profile on the same service has learned nothing yet.
    const other = await addProfile(desk, proxy.url, sandbox.tokens.admin)
    proxy.asked.length = 0
    const fresh = await run({ ...target, profile: other }, 'select 1', 100_000)
    expect(fresh.rowLimit).toEqual({ max: 2000, asked: 100_000 })
    expect(proxy.asked).toEqual([100_000, 2000])
    await desk.vault.delete(other.id).catch(() => undefined)
  })
})
