import { describe, expect, it } from 'vitest'
import { sandboxForThisFile } from '../support/sandbox-process'
import { jsonOf, useCliHome } from './support'

/*
 * `infradesk sql` splits a script where PostgreSQL's own parser does (src/main/sql-guard): the
 * hand-written lexer split a `BEGIN ATOMIC` body at its inner `;`, sent `END` on its own (a
 * COMMIT) and failed the function.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true })
const { cli } = useCliHome('cli-split', { secrets: () => [sandbox.tokens.admin] })

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
