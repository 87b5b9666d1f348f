import { execFileSync, spawnSync } from 'node:child_process'
import { beforeAll, describe, expect, it } from 'vitest'
import { callOperation, GATEWAY_ARGS, sandboxForThisFile } from '../support/sandbox-process'
import { makeSelfSigned } from '../support/tools'
import { BIN, jsonOf, readCsv, useCliHome } from './support'

/*
 * A service's text that carries terminal escapes and spreadsheet formulas, through
 * the real `infradesk` against a sandbox (gateway flavour): a certificate uploaded by the API with ESC[2J, OSC 52,
 * OSC 8, a bare CR and C1 CSI in its name (and a formula at its start), a PostgreSQL error that
 * quotes such an identifier, and the activity log line of that error. Tables, notes, errors and
 * anything printed to a (pseudo-)terminal hold no raw ESC, BEL, CR or C1; CSV cells are defused.
 * Run under scripts/with-keyring.mjs (`profiles add` keeps its token in the keychain).
 */

const hasScript = spawnSync('script', ['--version']).status === 0

/** Any byte a terminal acts on: C0 but tab and LF, DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const ACTING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

const ESCAPES = '\u001b[2J\u001b]52;c;ZXZpbA==\u0007\u001b]8;;https://evil.test/\u001b\\\r\u009b31m'
/** A profile name a spreadsheet would run: the activity export's CSV must defuse it. */
const PROFILE = '@Probe'
const HOSTILE_NAME = `=cmd|' /C calc'!A0 probe${ESCAPES}`

// The gateway flavour: a failed statement's error carries PostgreSQL's own words, as a real
// deployment's does (the default flavour answers a fixed UNPROCESSABLE_ENTITY text).
const sandbox = sandboxForThisFile({ resetBeforeEach: false, args: [...GATEWAY_ARGS] })
const home = useCliHome('cli-escapes', { secrets: () => [sandbox.tokens.admin] })
const { cli } = home
const withToken = () => ({ env: { INFRADESK_TOKEN: sandbox.tokens.admin } })

beforeAll(async () => {
  const material = await makeSelfSigned(home.temp, 'escapes.example.test')
  const uploaded = await callOperation(sandbox, 'uploadCertificate', {
    body: { name: HOSTILE_NAME, ...material },
  })
  expect(uploaded.status, uploaded.text()).toBe(201)
})

/** The CLI on a pseudo-terminal (util-linux `script`): what the person would see. */
function onTerminal(args: string[]): string {
  const command = [process.execPath, BIN, ...args]
    .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
    .join(' ')
  const typed = execFileSync('script', ['-qec', command, '/dev/null'], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      ...home.env(),
    },
  }).toString()
  // The terminal's own line discipline turns LF into CRLF: that CR is not the service's.
  return typed.replace(/\r\n/g, '\n')
}

describe('a service text with terminal escapes', () => {
  it('certs list: the table shows the escapes, sends none; JSON round-trips; CSV is defused', async () => {
    const search = ['--url', sandbox.url, 'certs', 'list', '--search', 'probe']
    const table = await cli(search, withToken())
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout).toContain('probe\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07')
    expect(table.stdout).toContain('\\r\\u009b31m')
    expect(table.stdout).not.toMatch(ACTING)

    const json = await cli([...search, '--json'], withToken())
    expect(json.stdout).not.toMatch(ACTING)
    expect(jsonOf<Array<{ name: string }>>(json).map((item) => item.name)).toEqual([HOSTILE_NAME])

    // To a pipe the data is whole; the formula is defused.
    const csv = await cli([...search, '--csv'], withToken())
    const [header, row] = readCsv(csv.stdout)
    expect(row?.[header?.indexOf('NAME') ?? -1]).toBe(`'${HOSTILE_NAME}`)
  })

  it('an error quoting the escapes, its activity line, and activity export on a terminal', async () => {
    const added = await cli(['profiles', 'add', PROFILE, '--url', sandbox.url, '--json'], {
      input: `${sandbox.tokens.admin}\n`,
    })
    expect(added.code, added.stderr).toBe(0)
    const db = sandbox.seed.databases.postgres[0] as string
    // PostgreSQL quotes the unknown column in its message: the service's text, escapes and all.
    const failed = await cli([
      ...['--profile', PROFILE, 'sql', '--db', db],
      `SELECT "@x${ESCAPES}" FROM events`,
    ])
    expect(failed.code).not.toBe(0)
    expect(failed.stderr).toContain('\\x1b[2J')
    expect(failed.stderr).not.toMatch(ACTING)

    // To a pipe: the log's message whole, as data, but never a formula.
    const piped = await cli(['activity', 'export', '--csv'])
    expect(piped.code, piped.stderr).toBe(0)
    const [header, ...rows] = readCsv(piped.stdout)
    const messages = rows.map((row) => row[header?.indexOf('message') ?? -1] ?? '')
    expect(messages.some((message) => message.includes(ESCAPES))).toBe(true)
    const profiles = rows.map((row) => row[header?.indexOf('profile') ?? -1])
    expect(profiles).toContain(`'${PROFILE}`)
    expect(profiles).not.toContain(PROFILE)

    if (!hasScript) return
    // CSV shows the escape; JSON has it JSON-escaped already (and its DEL and C1 too).
    const shownCsv = onTerminal(['activity', 'export', '--csv'])
    expect(shownCsv).toContain('\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07')
    expect(shownCsv).not.toMatch(ACTING)
    const shownJson = onTerminal(['activity', 'export', '--json'])
    expect(shownJson).toContain('\\u001b[2J')
    expect(shownJson).toContain('\\u009b31m')
    expect(shownJson).not.toMatch(ACTING)
    const table = onTerminal(['--profile', PROFILE, 'certs', 'list', '--search', 'probe'])
    expect(table).toContain('probe\\x1b[2J')
    expect(table).not.toMatch(ACTING)
  })
})
