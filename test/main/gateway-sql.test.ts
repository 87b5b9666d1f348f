import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ChannelOutput } from '../../src/shared/bridge'
import { useSqlDesk } from '../support/sql-desk'

/*
 * The SQL console through the desk against the sandbox's gateway flavour (a real deployment's
 * op 5: `results[]`, each statement run on its own on one connection, names-only fields, int8
 * as strings, bytea as a Buffer's JSON, 512 KiB cuts, 10 statements per request), behind a
 * relay that records what reached the service.
 */

const world = useSqlDesk('gateway-sql', {
  sandbox: { flavor: 'gateway' },
  // The small demo database: the large one's first start seeds 100,000 rows.
  database: 1,
  profile: { name: 'Gateway', color: '#2563eb' },
  tabId: 'gateway-tab',
  maxRows: 500,
})
const { runInput, run } = world
/** Texts (op 5 bodies) the service received since the test began. */
const textsSent = world.statementsSent

async function probeRows(): Promise<string | null | undefined> {
  const meta = await run('select count(*) from gw_probe')
  return meta.firstRows[0]?.[0]
}

beforeAll(async () => {
  // A table of our own, and a view that writes when read (it calls a function that inserts):
  // a read the classifier cannot see through, for PostgreSQL's read-only transaction to refuse.
  await run(
    'create table gw_probe (id int); insert into gw_probe values (1), (2), (3); ' +
      "create function gw_bump() returns int language sql as 'insert into gw_probe values (99) returning 99'; " +
      'create view gw_sneaky as select gw_bump() as n',
    { confirmedWrite: true },
  )
})

afterAll(() => {
  vi.useRealTimers()
})

describe('results[] from a service that runs each statement on its own', () => {
  it('shows int8 and numeric with every digit, right-aligned as numbers, and bytea as \\x hex', async () => {
    const meta = await run(
      "select 9007199254740993::int8 as big, 12.50::numeric as price, '\\x00ff10'::bytea as raw, 'abc' as word",
    )
    expect(meta.command).toBe('SELECT')
    expect(meta.firstRows).toEqual([['9007199254740993', '12.50', '\\x00ff10', 'abc']])
    expect(meta.fields.map((field) => [field.name, field.display])).toEqual([
      ['big', 'number'],
      ['price', 'number'],
      ['raw', 'text'],
      ['word', 'text'],
    ])
  })

  it('sorts a column of int8 strings by value, exactly, past 2^53', async () => {
    const meta = await run(
      "select v from (values ('9007199254740993'::int8), (10), (-3), ('9007199254740992'::int8), (null)) t(v)",
    )
    await world.desk.value('sql.sort', { resultId: meta.resultId, column: 0, direction: 'asc' })
    const sorted = await world.desk.value<ChannelOutput<'sql.rows'>>('sql.rows', {
      resultId: meta.resultId,
      offset: 0,
      limit: 10,
    })
    expect(sorted.rows.map((row) => row[0])).toEqual([
      '-3',
      '10',
      '9007199254740992',
      '9007199254740993',
      null,
    ])
  })

  it('says in words that the service cut a result at its size limit', async () => {
    const meta = await run(
      "select g, repeat('x', 1000) as filler from generate_series(1, 2000) g",
      {
        maxRows: 2000,
      },
    )
    expect(meta.truncated).toBe(true)
    expect(meta.rowCount).toBe(2000)
    expect(meta.rows).toBeLessThan(2000)
    expect(meta.notes.join('\n')).toMatch(
      new RegExp(`The service cut this result at its size limit .*: ${meta.rows} of 2000 rows`),
    )
  })

  it('marks a member the service left out of a cut row as cut, not NULL', async () => {
    const meta = await run(
      "select repeat('s', 600000) as long, jsonb_build_object('a', (select jsonb_agg(g) from generate_series(1, 1000) g)) as j",
    )
    expect(meta.truncated).toBe(true)
    expect(meta.firstRows[0]?.[1]).toBe('[cut by the service]')
    expect(meta.notes.join('\n')).toMatch(/cut a value of this result/)
  })
})

describe("the service's time budget", () => {
  it('says a statement that ran past the 15 s budget (408) ran out of time, in its words and ours', async () => {
    const refused = await world.desk.failure('sql.run', runInput('select pg_sleep(16)'))
    expect(refused.code).toBe('SERVICE_TIMEOUT')
    expect(refused.message).toMatch(/ran past the service's time budget/)
    expect(refused.message).toContain('Interactive query budget exhausted')
    // Asked once: a statement that ran out of time is not sent again.
    expect(textsSent().filter((text) => text.includes('pg_sleep'))).toHaveLength(1)
  }, 60_000)
})

describe('a read-only tab on a service that runs each statement on its own', () => {
  it('sends its text inside BEGIN TRANSACTION READ ONLY … ROLLBACK and shows only its own result', async () => {
    const meta = await run('select id from gw_probe order by id', { readOnly: true })
    expect(textsSent()).toEqual([
      'BEGIN TRANSACTION READ ONLY;\nselect id from gw_probe order by id\n;\nROLLBACK;',
    ])
    expect(meta.command).toBe('SELECT')
    expect(meta.firstRows).toEqual([['1'], ['2'], ['3']])
    expect(meta.notes).toEqual([])
  })

  it.each([
    [
      'SELECT 1; COMMIT; DELETE FROM gw_probe RETURNING 1',
      /COMMIT would end the read-only transaction/,
    ],
    ['SELECT 1; END; DELETE FROM gw_probe', /END would end/],
    ['SET TRANSACTION READ WRITE; DELETE FROM gw_probe', /SET TRANSACTION would change/],
    [
      'SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE',
      /SET SESSION CHARACTERISTICS would change/,
    ],
    ['SELECT 1; DELETE FROM gw_probe', /DELETE changes data/],
    ['SELECT 1 /* unterminated', /does not end where it seems to/],
  ])('refuses %s before sending, and the rows stay', async (sql, reason) => {
    const refused = await world.desk.failure('sql.run', runInput(sql, { readOnly: true }))
    expect(refused.code).toBe('READ_ONLY_TAB')
    expect(refused.message).toMatch(reason)
    expect(textsSent()).toEqual([])
    expect(await probeRows()).toBe('3')
  })

  it('has PostgreSQL refuse a write the classifier cannot see; the write never lands', async () => {
    const refused = await world.desk.failure(
      'sql.run',
      runInput('select * from gw_sneaky', { readOnly: true }),
    )
    expect(refused.message).toMatch(/cannot execute INSERT in a read-only transaction/)
    // A real deployment leaves the failed transaction open on its connection: said with it.
    expect(refused.message).toMatch(/stays open, aborted/)
    const next = await world.desk.failure('sql.run', runInput('select 1'))
    expect(next.message).toMatch(/current transaction is aborted/)
    expect(next.message).toMatch(/still inside a transaction that failed earlier/)
    // The service's pool closes a connection idle for 30 s; the transaction goes with it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 })
    try {
      expect(await probeRows()).toBe('3')
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('a transaction block (Run all, the CLI)', () => {
  it('goes to the service in one request, so it runs on one connection; a result per statement', async () => {
    const answer = await world.desk.value<ChannelOutput<'sql.runBlock'>>('sql.runBlock', {
      ...runInput(''),
      sql: undefined,
      statements: [
        'begin',
        'insert into gw_probe values (4)',
        'select count(*) from gw_probe',
        'rollback',
      ],
    })
    expect(textsSent()).toEqual([
      'begin;\ninsert into gw_probe values (4);\nselect count(*) from gw_probe;\nrollback',
    ])
    if (!('results' in answer)) throw new Error('expected the block in one request')
    expect(answer.results.map((meta) => meta?.command)).toEqual([
      'BEGIN',
      'INSERT',
      'SELECT',
      'ROLLBACK',
    ])
    expect(answer.results[2]?.firstRows).toEqual([['4']])
    expect(await probeRows()).toBe('3')
  })
})

describe('the service runs at most 10 statements per request', () => {
  it('learns the limit from the answers and refuses a read-only text over it before sending', async () => {
    // Nine statements and the wrap's two are eleven.
    const nine = Array.from({ length: 9 }, (_, index) => `select ${index}`).join(';\n')
    const refused = await world.desk.failure('sql.run', runInput(nine, { readOnly: true }))
    expect(refused.code).toBe('STATEMENT_LIMIT')
    expect(refused.message).toMatch(/at most 10 statements per request, and this is 11/)
    expect(textsSent()).toEqual([])
    // Eight are sent, and the last result is the one shown, the others named.
    const eight = await run(Array.from({ length: 8 }, (_, i) => `select ${i} as n`).join(';'), {
      readOnly: true,
    })
    expect(eight.firstRows).toEqual([['7']])
    expect(eight.notes.join('\n')).toMatch(/answered 8 results for this text; this is the last/)
  })

  it('says so plainly when the service refuses more than 10', async () => {
    const eleven = Array.from({ length: 11 }, (_, index) => `select ${index}`).join(';\n')
    const refused = await world.desk.failure('sql.run', runInput(eleven))
    expect(refused.message).toMatch(
      /runs at most 10 statements per request and refused these 11; nothing ran/,
    )
  })
})
