import { beforeAll, describe, expect, it } from 'vitest'
import { call, callOperation, GATEWAY_ARGS, sandboxForThisFile } from '../support/sandbox-process'
import { jsonOf, useCliHome } from './support'

/*
 * `infradesk sql` against the sandbox's gateway flavour (a real deployment's op 5: one result
 * per statement, each statement run on its own on one of its pooled connections, at most 10
 * statements per request). Scripts longer than that run; a transaction block goes in one
 * request, so it runs on one connection; a block longer than the limit is refused before
 * anything of it is sent.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS, '--faults'] })
const { cli } = useCliHome('gateway-cli', { secrets: () => [sandbox.tokens.admin] })

beforeAll(async () => {
  // The sandbox's first statement starts PGlite (initdb and the seed, then kept as a template
  // later starts load, a reset's too): seconds on a loaded machine. Started here, directly and
  // without the CLI's timeouts, so no test's first question to the database waits on it.
  const warm = await callOperation(sandbox, 'runPostgresQuery', {
    params: { id: sandbox.seed.databases.postgres[1] as string },
    body: { sql: 'select 1' },
  })
  expect(warm.status, warm.text()).toBe(200)
})

function sql(args: string[], text: string) {
  const db = sandbox.seed.databases.postgres[1] as string
  return cli(['--url', sandbox.url, 'sql', '--db', db, ...args, text], {
    env: { INFRADESK_TOKEN: sandbox.tokens.admin },
  })
}

describe('infradesk sql on a service that runs each statement on its own', () => {
  it('prints each result: int8 with every digit, bytea as \\x hex', async () => {
    const run = await sql(
      ['--json', '--read-only'],
      "select 9007199254740993::int8 as big, '\\x0102'::bytea as raw; select 'two' as second",
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('9007199254740993')
    expect(jsonOf<unknown[]>(run)).toHaveLength(2)
    expect(run.stdout).toContain('\\\\x0102')
    expect(run.stdout).toContain('"second":"two"')
  })

  it('says a backslash literal was refused because the setting could not be learned, and a retry runs it', async () => {
    // The app's question (SHOW standard_conforming_strings) fails once, as when the service is
    // out of reach or the database slow to start.
    const fault = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/faults',
      body: { rules: [{ operation: 'runPostgresQuery', fault: 'status=500', times: 1 }] },
    })
    expect(fault.status).toBeLessThan(300)
    const text = "select '\\x0102'::bytea as raw"
    const refused = await sql(['--json', '--read-only'], text)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(
      /standard_conforming_strings[^]*could not be learned \(SHOW standard_conforming_strings failed: [^)]*\); run it again/,
    )
    const again = await sql(['--json', '--read-only'], text)
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain('\\\\x0102')
  })

  it("reads PostgreSQL's refusal as the default service's: its message first, exit 1 (not a usage error)", async () => {
    const run = await sql([], 'selec 1')
    expect(run.stderr).toBe(
      'error: PostgreSQL: syntax error at or near "selec" [DATABASE_QUERY_FAILED]\n',
    )
    expect(run.code).toBe(1)
  })

  // count(*) is an int8: a string in the service's JSON, and so in ours (never a double).
  it('runs a script of 12 statements, each in its own request', async () => {
    const statements = [
      'create table cli_gw (id int)',
      ...Array.from({ length: 10 }, (_, index) => `insert into cli_gw values (${index})`),
      'select count(*) as n from cli_gw',
    ]
    const run = await sql(['--json'], statements.join(';\n'))
    expect(run.code, run.stderr).toBe(0)
    const results = jsonOf<unknown[]>(run)
    expect(results).toHaveLength(12)
    expect(results[11]).toEqual([{ n: '10' }])
  })

  it('sends a transaction block in one request and prints every statement of it', async () => {
    const run = await sql(
      ['--json'],
      'create table cli_block (id int); begin; insert into cli_block values (1), (2); ' +
        'select count(*) as n from cli_block; commit; select count(*) as after from cli_block',
    )
    expect(run.code, run.stderr).toBe(0)
    const results = jsonOf<unknown[]>(run)
    expect(results).toEqual([
      { command: 'CREATE', rowCount: 0 },
      { command: 'BEGIN', rowCount: 0 },
      { command: 'INSERT', rowCount: 2 },
      [{ n: '2' }],
      { command: 'COMMIT', rowCount: 0 },
      [{ after: '2' }],
    ])
  })

  it('refuses a block longer than the service takes per request, before sending any of it', async () => {
    const block = [
      'begin',
      ...Array.from({ length: 10 }, (_, index) => `insert into cli_long values (${index})`),
      'commit',
    ]
    const run = await sql([], `create table cli_long (id int); ${block.join('; ')}`)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toMatch(/at most 10 statements per request, and this is 12/)
    const count = await sql(['--json'], 'select count(*) as n from cli_long')
    expect(jsonOf(count)).toEqual([{ n: '0' }])
  })
})
