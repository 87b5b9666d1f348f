import { randomUUID } from 'node:crypto'
import { readFile, readdir } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import { createTransferLog } from '../../src/main/cache/transfers'
import type { ActivityEntry, ChannelOutput } from '../../src/shared/bridge'
import type { KnownObject } from '../../src/shared/bridge/channels/known-objects'
import { waitUntil } from '../support/poll'
import { useSqlDesk } from '../support/sql-desk'

/*
 * The SQL console's main half through the bridge, against a real sandbox (PGlite), the real
 * keychain and a real SQLite file: results kept and read in windows, exact values, sorting,
 * copy and save, the read-only and protected guards, errors, history, tabs and the schema.
 */

const world = useSqlDesk('sql', {
  // Results of 3,000 and 5,000 rows: past a real deployment's 2,000 (the sandbox's default).
  sandbox: { sqlLimits: 'wide' },
  database: 0,
  tabId: 'tab-1',
  maxRows: 1000,
})
const { run, runInput } = world

async function activity(): Promise<ActivityEntry[]> {
  return world.desk.value<ActivityEntry[]>('activity.list', { profileId: world.profile.id })
}

describe('sql.run', () => {
  it('answers with the meta and the first rows; the rest is read in windows', async () => {
    const meta = await run('select id, kind, amount from events order by id', { maxRows: 5000 })
    expect(meta).toMatchObject({ command: 'SELECT', rows: 5000, truncated: true, maxRows: 5000 })
    expect(meta.rowCount).toBe(100_000)
    expect(meta.fields.map((field) => [field.name, field.dataType, field.display])).toEqual([
      ['id', 'int8', 'number'],
      ['kind', 'text', 'text'],
      ['amount', 'numeric', 'number'],
    ])
    expect(meta.firstRows).toHaveLength(100)
    expect(meta.firstRows[0]).toEqual(['1', 'page_view', null])
    // The first rows went out before the rest was parsed; the exact counts follow as an event.
    expect(meta.complete).toBe(false)
    const window = await world.desk.value<ChannelOutput<'sql.rows'>>('sql.rows', {
      resultId: meta.resultId,
      offset: 4998,
      limit: 100,
    })
    expect(window.rows.map((row) => row[0])).toEqual(['4999', '5000'])
    expect(world.desk.events).toContainEqual({
      event: 'sql.result.completed',
      payload: expect.objectContaining({
        resultId: meta.resultId,
        rows: 5000,
        rowCount: 100_000,
        truncated: true,
        error: null,
      }),
    })
  })

  it('keeps int8 and big numbers exact, and NULL apart from the string NULL', async () => {
    const meta = await run(
      "select 9223372036854775807::int8 as big, 12345678901234567890.123456789::numeric as exact, null::text as nothing, 'NULL' as word",
    )
    expect(meta.firstRows[0]).toEqual([
      '9223372036854775807',
      '12345678901234567890.123456789',
      null,
      'NULL',
    ])
  })

  it('sorts the kept rows in main, numbers by value and NULLs first descending', async () => {
    const meta = await run('select id, amount from events where id <= 20 order by id')
    await world.desk.value('sql.sort', { resultId: meta.resultId, column: 1, direction: 'desc' })
    const sorted = await world.desk.value<ChannelOutput<'sql.rows'>>('sql.rows', {
      resultId: meta.resultId,
      offset: 0,
      limit: 20,
    })
    const amounts = sorted.rows.map((row) => row[1])
    const present = amounts.filter((amount): amount is string => amount !== null)
    expect(present.length).toBeGreaterThan(0)
    expect(present).toEqual([...present].sort((a, b) => Number(b) - Number(a)))
    // As PostgreSQL's ORDER BY … DESC: NULLs first.
    const nulls = amounts.length - present.length
    expect(amounts.slice(0, nulls).every((amount) => amount === null)).toBe(true)
    await world.desk.value('sql.sort', { resultId: meta.resultId, column: null })
    const back = await world.desk.value<ChannelOutput<'sql.rows'>>('sql.rows', {
      resultId: meta.resultId,
      offset: 0,
      limit: 3,
    })
    expect(back.rows.map((row) => row[0])).toEqual(['1', '2', '3'])
  })

  it('copies as TSV, CSV, JSON and Markdown', async () => {
    const meta = await run(
      `select 1::int8 as n, 'a,b' as "text", null::text as "nothing", '{"k":[1,2]}'::jsonb as doc, 'tab	here' as t`,
    )
    const copy = async (format: string) =>
      (
        await world.desk.value<ChannelOutput<'sql.copy'>>('sql.copy', {
          resultId: meta.resultId,
          format,
        })
      ).text
    expect(await copy('csv')).toBe('n,text,nothing,doc,t\r\n1,"a,b",,"{""k"":[1,2]}",tab\there\r\n')
    expect(await copy('tsv')).toBe(
      'n\ttext\tnothing\tdoc\tt\r\n1\ta,b\t\t"{""k"":[1,2]}"\t"tab\there"\r\n',
    )
    expect(JSON.parse(await copy('json'))).toEqual([
      { n: '1', text: 'a,b', nothing: null, doc: { k: [1, 2] }, t: 'tab\there' },
    ])
    expect(await copy('markdown')).toBe(
      '| n | text | nothing | doc | t |\n| ---: | --- | --- | --- | --- |\n| 1 | a,b | *NULL* | {"k":[1,2]} | tab\there |\n',
    )
  })

  it('saves a result as CSV through the atomic writer and logs the transfer', async () => {
    const meta = await run('select id, kind from events order by id', { maxRows: 3000 })
    const saved = await world.desk.value<ChannelOutput<'sql.save'>>('sql.save', {
      profileId: world.profile.id,
      resultId: meta.resultId,
      format: 'csv',
    })
    expect(saved.rows).toBe(3000)
    expect(path.dirname(saved.path ?? '')).toBe(world.desk.downloads)
    const text = await readFile(saved.path ?? '', 'utf8')
    const lines = text.trimEnd().split('\r\n')
    expect(lines).toHaveLength(3001)
    expect(lines[0]).toBe('id,kind')
    expect(lines[3000]).toBe('3000,login')
    expect((await readdir(world.desk.downloads)).filter((name) => name.endsWith('.part'))).toEqual(
      [],
    )
    // The transfers log, read from the cache file as the Transfers panel will read it.
    const { cache } = openCache(path.join(world.desk.dataDir, CACHE_FILE_NAME))
    try {
      const [logged] = createTransferLog(cache).list({ profileId: world.profile.id, limit: 1 })
      expect(logged).toMatchObject({
        kind: 'sql-result',
        state: 'completed',
        destination: saved.path,
        bytesDone: saved.bytes,
      })
    } finally {
      cache.close()
    }
  })

  it('reports a syntax error with its SQLSTATE and position, and records it', async () => {
    const error = await world.desk.failure(
      'sql.run',
      runInput('select * fromm events', { maxRows: 10 }),
    )
    expect(error.code).toBe('UNPROCESSABLE_ENTITY')
    expect(error.details).toMatchObject({ sqlState: '42601', position: 10 })
    const [latest] = await activity()
    expect(latest).toMatchObject({ operation: 'runPostgresQuery', outcome: 'error' })
    // The statement follows the service's words, as it is written (no literal here to hide).
    expect(latest?.message).toMatch(/ · select \* fromm events$/)
  })
  // What the log keeps of a statement's text: sql-audit-text.test.ts.
})

describe('guards', () => {
  it('a read-only tab refuses an UPDATE and sends nothing', async () => {
    const before = (await activity()).length
    const error = await world.desk.failure(
      'sql.run',
      runInput("/* harmless */ update customers set name = 'x'", { maxRows: 10, readOnly: true }),
    )
    expect(error.code).toBe('READ_ONLY_TAB')
    expect(error.message).toContain('UPDATE changes data')
    expect(await activity()).toHaveLength(before)
  })

  it('a protected profile refuses an unconfirmed write and runs a confirmed one', async () => {
    await world.desk.value('profiles.update', { id: world.profile.id, protected: true })
    const before = (await activity()).length
    const refused = await world.desk.failure(
      'sql.run',
      runInput('with gone as (delete from orders where id = 1 returning id) select * from gone', {
        maxRows: 10,
      }),
    )
    expect(refused.code).toBe('WRITE_NOT_CONFIRMED')
    expect(await activity()).toHaveLength(before)
    const count = await run('select count(*) from orders where id = 1')
    expect(count.firstRows[0]).toEqual(['1'])
    // Reads still run unconfirmed; a confirmed write runs.
    const deleted = await run('delete from orders where id = 1', { confirmedWrite: true })
    expect(deleted).toMatchObject({ command: 'DELETE', rowCount: 1 })
    await world.desk.value('profiles.update', { id: world.profile.id, protected: false })
  })
})

describe('explain, schema, tabs and history', () => {
  it('explains a statement as a JSON plan', async () => {
    const explained = await world.desk.value<ChannelOutput<'sql.explain'>>(
      'sql.explain',
      runInput('select * from customers where id = 3'),
    )
    const plan = explained.plan as [{ Plan: { 'Node Type': string } }]
    expect(plan[0].Plan['Node Type']).toMatch(/Scan/)
  })

  it('reads the schema into the cache', async () => {
    const logged = (await activity()).length
    const refreshed = await world.desk.value<ChannelOutput<'sql.schema.refresh'>>(
      'sql.schema.refresh',
      {
        profileId: world.profile.id,
        databaseId: world.databaseId,
      },
    )
    const relations = refreshed.tree?.schemas.flatMap((schema) => schema.relations) ?? []
    const customers = relations.find((relation) => relation.name === 'customers')
    expect(customers?.kind).toBe('table')
    expect(customers?.columns[0]).toEqual({ name: 'id', dataType: 'integer', nullable: false })
    expect(relations.find((relation) => relation.name === 'customer_order_totals')?.kind).toBe(
      'view',
    )
    const cached = await world.desk.value<ChannelOutput<'sql.schema.cached'>>('sql.schema.cached', {
      profileId: world.profile.id,
      databaseId: world.databaseId,
    })
    expect(cached).toEqual(refreshed)
    // The schema panel's catalogue query is the app's own, not a statement the user ran: the
    // audit trail does not carry it (it did, as if the user had run it).
    expect((await activity()).length).toBe(logged)
    // The database's own name is learned with it: the console offers it by name from then on.
    const [database] = await world.desk.value<KnownObject[]>('knownObjects.search', {
      profileId: world.profile.id,
      kind: 'database',
      text: '',
    })
    const named = await run('select current_database()')
    expect(database).toMatchObject({ id: world.databaseId, name: named.firstRows[0]?.[0] })
    expect(database?.name).toMatch(/\S/)
  })

  it('keeps tabs and history across a restart; history is searchable', async () => {
    await world.desk.value('sql.tabs.save', {
      id: 'tab-1',
      profileId: world.profile.id,
      title: 'Events',
      databaseId: world.databaseId,
      text: 'select * from events;',
      maxRows: 250,
      readOnly: true,
      position: 0,
    })
    await world.desk.reopen()
    const tabs = await world.desk.value<ChannelOutput<'sql.tabs.list'>>('sql.tabs.list', {
      profileId: world.profile.id,
    })
    expect(tabs).toEqual([
      expect.objectContaining({
        id: 'tab-1',
        text: 'select * from events;',
        maxRows: 250,
        readOnly: true,
      }),
    ])
    const found = await world.desk.value<ChannelOutput<'sql.history.list'>>('sql.history.list', {
      profileId: world.profile.id,
      databaseId: world.databaseId,
      search: 'FROMM',
    })
    expect(found).toEqual([
      expect.objectContaining({
        sql: 'select * fromm events',
        outcome: 'error',
        errorCode: 'UNPROCESSABLE_ENTITY',
      }),
    ])
    await world.desk.value('sql.tabs.close', { id: 'tab-1' })
    expect(await world.desk.value('sql.tabs.list', { profileId: world.profile.id })).toEqual([])
  })

  it('a cancelled run says the statement may still finish on the server', async () => {
    const before = (await activity()).length
    const runId = randomUUID()
    const running = world.desk.call('sql.run', {
      profileId: world.profile.id,
      databaseId: world.databaseId,
      tabId: 'tab-2',
      runId,
      sql: 'select pg_sleep(3)',
      maxRows: 1,
    })
    // The cancel is accepted only while the run is in flight, which it is until it answers.
    await waitUntil(
      async () =>
        (await world.desk.value<{ cancelled: boolean }>('sql.cancel', { runId })).cancelled,
      { what: 'sql.cancel to find the run in flight', intervalMs: 20 },
    )
    const result = await running
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('CANCELLED')
      expect(result.error.message).toContain('may still finish on the server')
    }
    const [latest] = await world.desk.value<ChannelOutput<'sql.history.list'>>('sql.history.list', {
      profileId: world.profile.id,
    })
    expect(latest).toMatchObject({ sql: 'select pg_sleep(3)', outcome: 'cancelled' })
    // One cancel, one line in the activity log.
    const after = await activity()
    const logged = after.slice(0, after.length - before)
    expect(logged.map((entry) => [entry.errorCode, entry.message])).toEqual([
      ['CANCELLED', expect.stringMatching(/ · select pg_sleep\(3\)$/)],
    ])
  })
})
