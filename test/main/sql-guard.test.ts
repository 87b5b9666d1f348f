import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChannelOutput } from '../../src/shared/bridge'
import { useSqlDesk } from '../support/sql-desk'

/** What main puts before a read-only tab's text (src/main/features/sql/services.ts, READ_ONLY_PREFIX). */
const READ_ONLY_PREFIX = 'SET TRANSACTION READ ONLY;\n'

/*
 * The SQL guard in main, through the bridge, against a real sandbox (PGlite) behind a relay that
 * records what reached it: what the guard refuses never leaves the app (nothing recorded, the
 * rows all there), and what a read-only tab sends runs in a transaction PostgreSQL keeps
 * read-only.
 */

const world = useSqlDesk('sql-guard', {
  // The small demo database: the large one's first statement seeds 100,000 rows first.
  database: 1,
  profile: { name: 'Guarded', protected: true },
  tabId: 'guard-tab',
  maxRows: 100,
})
const { runInput, run, statementsSent } = world

async function count(table: string): Promise<string | null | undefined> {
  const meta = await run(`select count(*) from ${table}`)
  return meta.firstRows[0]?.[0]
}

/** sql.run refuses `input` with `code` and words matching `reason`; nothing is sent or changed. */
async function expectRefusedUnsent(input: Record<string, unknown>, code: string, reason: RegExp) {
  const refused = await world.desk.failure('sql.run', input)
  expect(refused.code).toBe(code)
  expect(refused.message).toMatch(reason)
  expect(statementsSent()).toEqual([])
  expect(await count('guard_probe')).toBe('3')
}

beforeAll(async () => {
  // A table of our own, a sequence, and a view that writes when read (it calls nextval): a
  // read the classifier cannot see through, for PostgreSQL's read-only transaction to refuse.
  await run(
    'create table guard_probe (id int); insert into guard_probe values (1), (2), (3); ' +
      "create sequence guard_seq; create view guard_sneaky as select nextval('guard_seq') as n",
    { confirmedWrite: true },
  )
})

describe('a protected profile refuses every text holding a write, and sends nothing', () => {
  it.each([
    ['begin; delete from guard_probe; commit', /DELETE changes data/],
    ['select 1; truncate guard_probe', /TRUNCATE/],
    ['select 1; drop table guard_probe', /DROP/],
    ['WITH x AS (SELECT 1 AS a) SELECT * INTO guard_copy FROM x', /SELECT … INTO/],
    [`select "nextval"('guard_seq')`, /nextval/],
    [`select U&"\\006eextval"('guard_seq')`, /not known to be read-only/],
    ["COMMIT PREPARED 'guard'", /COMMIT PREPARED/],
    ["select lo_from_bytea(0, 'x')", /lo_from_bytea/],
    ["select pg_notify('guard', 'x')", /pg_notify/],
    ["select setval('guard_seq', 100)", /setval/],
    ['select pg_advisory_lock(7)', /pg_advisory_lock/],
    ['select guard_cleanup()', /guard_cleanup\(\), which is not known to be read-only/],
  ])('%s', async (sql, reason) => {
    await expectRefusedUnsent(runInput(sql), 'WRITE_NOT_CONFIRMED', reason)
  })
})

describe('a read-only tab', () => {
  it.each([
    ['select 1; create table guard_made (i int)', /CREATE changes the schema/],
    ['select 1; commit; select 2', /COMMIT would end the read-only transaction/],
    // COMMIT hidden behind a comment ended by CR.
    [
      'SELECT 1 --\r; COMMIT; DELETE FROM guard_probe RETURNING 1',
      /COMMIT would end the read-only transaction/,
    ],
  ])(
    'refuses %j (a write, or an end to its read-only transaction) and sends nothing',
    async (sql, reason) => {
      await expectRefusedUnsent(runInput(sql, { readOnly: true }), 'READ_ONLY_TAB', reason)
      const missing = await run("select to_regclass('guard_made') is null")
      expect(missing.firstRows[0]?.[0]).toBe('true')
    },
  )

  it('runs its reads in a transaction PostgreSQL keeps read-only', async () => {
    const meta = await run('select id from guard_probe order by id', { readOnly: true })
    expect(meta.firstRows).toEqual([['1'], ['2'], ['3']])
    expect(statementsSent()).toEqual([`${READ_ONLY_PREFIX}select id from guard_probe order by id`])
    // The view writes (nextval) behind a plain SELECT: the classifier passes it, the database
    // refuses it, and the sequence does not move.
    const refused = await world.desk.failure(
      'sql.run',
      runInput('select * from guard_sneaky', { readOnly: true }),
    )
    expect(refused.details).toMatchObject({
      sqlState: '25006',
      message: expect.stringMatching(/read-only transaction/),
    })
    const sequence = await run('select last_value, is_called from guard_seq')
    expect(sequence.firstRows[0]).toEqual(['1', 'false'])
  })

  it('reports an error at the place the user wrote it, not shifted by the prefix', async () => {
    const refused = await world.desk.failure(
      'sql.run',
      runInput('select nosuch from guard_probe', { readOnly: true }),
    )
    expect(refused.details).toMatchObject({ position: 8 })
  })
})

describe('sql.explain', () => {
  it('refuses a text with more than one statement, on the field, and sends nothing', async () => {
    for (const analyze of [false, true]) {
      const refused = await world.desk.failure('sql.explain', {
        ...runInput('select 1; delete from guard_probe'),
        analyze,
        confirmedWrite: true,
      })
      expect(refused.code).toBe('VALIDATION_ERROR')
      expect(refused.details).toEqual([
        { path: 'sql', message: 'EXPLAIN takes one statement; this text holds 2' },
      ])
    }
    expect(statementsSent()).toEqual([])
    expect(await count('guard_probe')).toBe('3')
  })
})

describe('destructive statements ask first on every profile (setting on by default)', () => {
  beforeAll(async () => {
    await world.desk.value('profiles.update', { id: world.profile.id, protected: false })
  })
  afterAll(async () => {
    await world.desk.value('settings.update', { confirmDestructive: true })
  })

  it.each([
    ['delete from guard_probe', /DELETE without WHERE/],
    ['update guard_probe set id = 0', /UPDATE without WHERE/],
    ['drop table guard_probe', /DROP/],
    ['truncate guard_probe', /TRUNCATE/],
  ])('%s is refused unconfirmed and sends nothing', async (sql, reason) => {
    const settings = await world.desk.value<{ confirmDestructive: boolean }>('settings.get')
    expect(settings.confirmDestructive).toBe(true)
    const refused = await world.desk.failure('sql.run', runInput(sql))
    expect(refused.code).toBe('DESTRUCTIVE_NOT_CONFIRMED')
    expect(refused.message).toMatch(reason)
    expect(statementsSent()).toEqual([])
  })

  it('a write with WHERE runs unasked; a confirmed destructive one runs', async () => {
    const updated = await run('update guard_probe set id = id where id = 1')
    expect(updated).toMatchObject({ command: 'UPDATE', rowCount: 1 })
    const all = await run('update guard_probe set id = id', { confirmedWrite: true })
    expect(all).toMatchObject({ command: 'UPDATE', rowCount: 3 })
  })

  it('with the setting off, it runs unasked', async () => {
    await world.desk.value('settings.update', { confirmDestructive: false })
    const all = await run('update guard_probe set id = id')
    expect(all).toMatchObject({ command: 'UPDATE', rowCount: 3 })
  })
})

describe("the lexer's holes, closed by PostgreSQL's parser (through the desk)", () => {
  beforeAll(async () => {
    // The block before made the profile unprotected.
    await world.desk.value('profiles.update', { id: world.profile.id, protected: true })
  })

  it.each([
    ["select E'a'\n'\\'' ; delete from guard_probe ; -- '", /DELETE/],
    ['select 1 --\r; delete from guard_probe returning 1', /DELETE/],
    ['select 1 as \u00a0$x$; delete from guard_probe; select 2 as \u00a0$x$', /DELETE/],
    [`select $${'t'.repeat(70)}$ ; $${'t'.repeat(70)}$; delete from guard_probe`, /DELETE/],
    ['explain ("analyze") delete from guard_probe', /EXPLAIN ANALYZE runs the statement/],
    ['select rollup(1)', /rollup\(\)/],
    ['select (array[1,2,3])[1:guard_w()]', /guard_w\(\)/],
  ])('a protected profile asks before %j, and nothing is sent', async (sql, reason) => {
    await expectRefusedUnsent(runInput(sql), 'WRITE_NOT_CONFIRMED', reason)
  })

  it('a read on a protected profile runs read-only: a user function shadowing a built-in cannot write', async () => {
    // public.upper(int) is chosen over pg_catalog.upper(text) for an int; it writes.
    await world.desk.value(
      'sql.run',
      runInput(
        'create function public.upper(int) returns int language sql as ' +
          '$$ insert into guard_probe values (99) returning 1 $$',
        { confirmedWrite: true },
      ),
    )
    world.relay.received.length = 0
    const refused = await world.desk.failure('sql.run', runInput('select upper(1)'))
    expect(refused.details).toMatchObject({ sqlState: '25006' })
    expect(statementsSent()[0]).toMatch(/read only/i)
    expect(await count('guard_probe')).toBe('3')
    await world.desk.value(
      'sql.run',
      runInput('drop function public.upper(int)', { confirmedWrite: true }),
    )
  })

  it('learns standard_conforming_strings before judging a literal with a backslash', async () => {
    const sql = "select 'a\\'' ; delete from guard_probe ; -- '"
    // On (PostgreSQL's default): one string, a read, sent read-only after asking once.
    const meta = await run(sql)
    expect(meta.firstRows[0]?.[0]).toBe("a\\' ; delete from guard_probe ; -- ")
    expect(statementsSent()[0]).toBe('SHOW standard_conforming_strings')
    expect(await count('guard_probe')).toBe('3')
    // Off (set by a confirmed statement, which makes the app ask again): the same text holds a
    // DELETE for PostgreSQL, and is refused unconfirmed.
    await world.desk.value(
      'sql.run',
      runInput('set standard_conforming_strings = off', { confirmedWrite: true }),
    )
    try {
      world.relay.received.length = 0
      const refused = await world.desk.failure('sql.run', runInput(sql))
      expect(refused.code).toBe('WRITE_NOT_CONFIRMED')
      expect(refused.message).toMatch(/backslash/)
      expect(statementsSent()).toEqual(['SHOW standard_conforming_strings'])
    } finally {
      await world.desk.value(
        'sql.run',
        runInput('set standard_conforming_strings = on', { confirmedWrite: true }),
      )
    }
    expect(await count('guard_probe')).toBe('3')
  })
})

describe("sql.plan: what the console splits and asks about is main's own reading", () => {
  const plan = (sql: string, extra: Record<string, unknown> = {}) =>
    world.desk.value<ChannelOutput<'sql.plan'>>('sql.plan', {
      sql,
      profileId: world.profile.id,
      databaseId: world.databaseId,
      ...extra,
    })

  it('keeps a BEGIN ATOMIC body whole and finds the DELETE behind a CR-ended comment; sends nothing', async () => {
    const atomic = await plan(
      'CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END; SELECT 2',
    )
    expect(atomic.statements.map((statement) => [statement.text, statement.kind])).toEqual([
      ['CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; END', 'write'],
      ['SELECT 2', 'read'],
    ])
    const hidden = await plan('SELECT 1 --\r; DELETE FROM t RETURNING 1')
    expect(hidden.statements.map((statement) => [statement.command, statement.kind])).toEqual([
      ['SELECT', 'read'],
      ['DELETE', 'write'],
    ])
    expect(statementsSent()).toEqual([])
  })

  it("judges each statement as sql.run would: the guard's own refusal, never a read for text the parser refuses", async () => {
    const planned = await plan('SELECT 1 --\r; COMMIT; DELETE FROM guard_probe RETURNING 1')
    expect(planned.statements[1]).toMatchObject({
      kind: 'transaction',
      block: 'end',
      readOnlyRefusal: expect.stringMatching(/COMMIT would end the read-only transaction/),
    })
    const broken = await plan('select * from guard_probe where id = :id; select 1')
    expect(broken.parserError).toMatchObject({ message: expect.stringMatching(/syntax error/) })
    expect(
      broken.statements.map((statement) => [statement.text, statement.refused, statement.kind]),
    ).toEqual([
      ['select * from guard_probe where id = :id', true, 'write'],
      ['select 1', false, 'read'],
    ])
    expect(broken.statements[0]?.placeholders).toEqual([
      { name: 'id', from: 37, to: 40, inIdentifierPosition: false },
    ])
  })

  it('judges an EXPLAIN as sql.explain sends it: without ANALYZE it runs nothing', async () => {
    const [explained] = (await plan('delete from guard_probe', { mode: 'explain' })).statements
    expect(explained).toMatchObject({ kind: 'read', destructive: null })
    const [analyzed] = (await plan('delete from guard_probe', { mode: 'explain-analyze' }))
      .statements
    expect(analyzed).toMatchObject({
      kind: 'write',
      destructive: expect.stringMatching(/DELETE without WHERE/),
    })
  })

  it("reads a backslash literal as the tab's database does (learned once, the app's own question)", async () => {
    const planned = await plan("select 'a\\'' ; delete from guard_probe ; -- '")
    expect(planned.statements.map((statement) => statement.kind)).toEqual(['read'])
    for (const sent of statementsSent()) expect(sent).toBe('SHOW standard_conforming_strings')
    // Without a database to ask, the literal is ambiguous: not a read.
    const unknown = await world.desk.value<ChannelOutput<'sql.plan'>>('sql.plan', {
      sql: "select 'a\\'' ; delete from guard_probe ; -- '",
    })
    expect(unknown.statements[0]?.kind).toBe('write')
  })
})
