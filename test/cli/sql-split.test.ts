import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxForThisFile } from '../support/sandbox-process'
import { jsonOf, useCliHome } from './support'

/*
 * `infradesk sql` splits a script where PostgreSQL's own parser does (src/main/sql-guard): the
 * hand-written lexer split a `BEGIN ATOMIC` body at its inner `;`, sent `END` on its own (a
 * COMMIT) and failed the function. And `infradesk call runPostgresQuery` is judged by the same
 * guard as `sql`: it was sent unjudged, so "confirm destructive statements" did not apply to it.
 * Its request is checked before the guard judges it: without a database id, the refusal was the
 * guard's about the statement, not about the missing parameter.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true })
const home = useCliHome('cli-split', { secrets: () => [sandbox.tokens.admin] })
const { cli } = home
const withToken = () => ({ env: { INFRADESK_TOKEN: sandbox.tokens.admin } })

describe('infradesk sql splits as PostgreSQL does', () => {
  it('keeps a BEGIN ATOMIC body whole and runs the statement after it', async () => {
    const db = sandbox.seed.databases.postgres[0] as string
    const run = await cli(
      [
        '--url',
        sandbox.url,
        'sql',
        '--db',
        db,
        '--json',
        'create function cli_atomic() returns int language sql begin atomic select 41; select 42; end;\n' +
          'select cli_atomic() as answer',
      ],
      { env: { INFRADESK_TOKEN: sandbox.tokens.admin } },
    )
    expect(run.code, run.stderr).toBe(0)
    expect(jsonOf<unknown[]>(run)).toHaveLength(2)
    expect(run.stdout).toContain('"answer":42')
  })
})

describe('infradesk call runPostgresQuery is judged as infradesk sql is', () => {
  const query = (target: string[], sql: string, ...more: string[]) => {
    const db = sandbox.seed.databases.postgres[0] as string
    return cli(
      [...target, 'call', 'runPostgresQuery', '--param', `id=${db}`]
        .concat('--body', JSON.stringify({ sql }))
        .concat(more),
      withToken(),
    )
  }
  // Read back through `sql`, whose JSON is the rows themselves.
  const tableExists = async (target: string[]) => {
    const db = sandbox.seed.databases.postgres[0] as string
    const sql = "select to_regclass('cli_call_drop') is not null as present"
    const run = await cli([...target, 'sql', '--db', db, '--json', sql], withToken())
    expect(run.code, run.stderr).toBe(0)
    return jsonOf<Array<{ present: boolean }>>(run)[0]?.present
  }

  it('holds a destructive statement back unless --confirm-write while the setting asks; a read passes', async () => {
    const target = ['--url', sandbox.url]
    expect((await query(target, 'select 1 as one')).code).toBe(0)
    expect((await query(target, 'create table cli_call_drop (id int)')).code).toBe(0)
    const refused = await query(target, 'drop table cli_call_drop')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('DESTRUCTIVE_NOT_CONFIRMED')
    expect(refused.stderr).toContain('run the command again with --confirm-write')
    expect(await tableExists(target)).toBe(true)
    expect((await query(target, 'drop table cli_call_drop', '--confirm-write')).code).toBe(0)
    expect(await tableExists(target)).toBe(false)
  })

  it.each([
    ['without a', []],
    ['with an empty', ['--param', 'id=']],
  ])('refuses it %s database id as a usage error naming id, before the guard', async (_, id) => {
    const body = JSON.stringify({ sql: 'drop table cli_call_drop' })
    const run = await cli(
      ['--url', sandbox.url, 'call', 'runPostgresQuery', ...id, '--body', body],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr).toMatch(/^error: VALIDATION_ERROR: Request validation failed \(id: /)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('sends it unconfirmed when the setting is off, as sql does', async () => {
    const added = await cli(['profiles', 'add', 'Dev', '--url', sandbox.url], {
      input: `${sandbox.tokens.admin}\n`,
    })
    expect(added.code, added.stderr).toBe(0)
    const dataDir = path.join(home.temp.dir, 'config', 'Infradesk')
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(path.join(dataDir, 'settings.json'), '{"confirmDestructive": false}\n')
    const target = ['--profile', 'Dev']
    expect((await query(target, 'create table cli_call_drop (id int)')).code).toBe(0)
    const sent = await query(target, 'drop table cli_call_drop')
    expect(sent.code, sent.stderr).toBe(0)
    expect(await tableExists(target)).toBe(false)
  })
})
