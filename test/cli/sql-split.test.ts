import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sandboxForThisFile } from '../support/sandbox-process'
import { makeTempDir, type TempDir } from '../support/tools'
import { createCliRunner, jsonOf } from './support'

/*
 * `infradesk sql` splits a script where PostgreSQL's own parser does (src/main/sql-guard): the
 * hand-written lexer split a `BEGIN ATOMIC` body at its inner `;`, sent `END` on its own (a
 * COMMIT) and failed the function.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true })
let temp: TempDir
const { cli } = createCliRunner(() => ({
  XDG_CONFIG_HOME: path.join(temp.dir, 'config'),
  TMPDIR: temp.dir,
}))

beforeAll(async () => {
  temp = await makeTempDir('infradesk-cli-split')
})

afterAll(async () => {
  await temp?.remove()
})

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
