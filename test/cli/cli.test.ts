import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { makePrivateCa } from '../support/private-ca'
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import { call, callOperation, repoRoot, sandboxForThisFile } from '../support/sandbox-process'
import { startTinyproxy } from '../support/tinyproxy'
import { waitUntil } from '../support/poll'
import { waitForValue } from '../support/wait-for'
import { CACHE_FILE_NAME, OPEN_MARKER_SUFFIX } from '../../src/main/cache'
import { BIN, jsonOf, readCsv, useCliHome, volumeExportArgs } from './support'

/*
 * `infradesk` as child processes against a fresh sandbox: every command, its JSON
 * parsed, exports read back by openssl, a cut volume download resumed, every exit code, and no
 * token in any child's arguments or output. Run under scripts/with-keyring.mjs: `profiles add`
 * keeps its token in that throwaway keychain, as the app does.
 */

/** util-linux `script`, to run a child on a pseudo-terminal. */
const hasScript = spawnSync('script', ['--version']).status === 0
/** Whether a program is installed (zsh, fish, tinyproxy: each test that needs one says so). */
const installed = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0

const sandbox = sandboxForThisFile({ resetBeforeEach: false, args: ['--faults'] })
// No token in any child's argv, stdout or stderr, in any test of this file.
const home = useCliHome('cli', { secrets: () => [sandbox.tokens.admin, sandbox.tokens.viewer] })
const { cli, runs } = home

/** `--url` runs: the token only in the environment. */
const withToken = (token = sandbox.tokens.admin) => ({ env: { INFRADESK_TOKEN: token } })

/** A CLI child this file signals itself: its exit code, and what it wrote so far. */
function startCli(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...home.env(), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  return {
    process: child,
    exitCode: new Promise<number | null>((resolve) => child.once('close', resolve)),
    stdout: () => stdout,
    stderr: () => stderr,
  }
}

afterAll(() => {
  // Every `--url` run removed its throwaway data folder (cache, profile) in TMPDIR again.
  const left = readdirSync(path.join(home.temp.dir, 'tmp')).filter((name) =>
    name.startsWith('infradesk-cli-'),
  )
  expect(left).toEqual([])
})

describe('help, version, usage', () => {
  it('prints help with the exit codes on every level, the version, and exits 2 on a bad argument', async () => {
    const root = await cli(['--help'])
    expect(root.code).toBe(0)
    expect(root.stdout).toContain('certs')
    expect(root.stdout).toContain('7  the service')
    const sub = await cli(['certs', 'export', '--help'])
    expect(sub.code).toBe(0)
    expect(sub.stdout).toContain('--passphrase-file')
    expect(sub.stdout).toContain('Exit codes:')
    const version = await cli(['--version'])
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    // The package's bin, as `npx infradesk` finds it in a checkout (no build needed).
    const viaNpx = execFileSync('npm', ['exec', '--', 'infradesk', '--version'], {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1' },
    })
    expect(viaNpx.toString().trim()).toBe(version.stdout.trim())
    const unknown = await cli(['certs', 'list', '--nope'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('refuses a token on the command line with exit 2, without echoing it', async () => {
    for (const args of [
      ['--url', sandbox.url, '--token', sandbox.tokens.admin, 'certs', 'list'],
      ['certs', 'list', `--token=${sandbox.tokens.admin}`],
    ]) {
      // The token is in these argv on purpose: checked here, left out of the afterAll scan.
      const run = await cli(args)
      runs.pop()
      expect(run.code).toBe(2)
      expect(run.stderr).toContain('never taken as a command-line argument')
      expect(run.stderr).not.toContain(sandbox.tokens.admin)
    }
  })

  it('generates bash, zsh and fish completion from the command table', async () => {
    const bash = await cli(['completion', 'bash'])
    expect(bash.code).toBe(0)
    expect(bash.stdout).toContain('complete -F')
    expect(bash.stdout).toContain('pkcs12')
    const script = path.join(home.temp.dir, 'completion.bash')
    writeFileSync(script, bash.stdout)
    // Sourced by a real bash: asks what follows `infradesk certs ex` and `--format p`.
    const complete = (line: string) =>
      execFileSync('bash', [
        '-c',
        `source ${script}; COMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); ` +
          `_infradesk_complete; echo "\${COMPREPLY[*]}"`,
      ])
        .toString()
        .trim()
    expect(complete('infradesk certs ex')).toBe('export')
    expect(complete('infradesk --url U certs export ID --format pk')).toBe('pkcs12')
    const zsh = await cli(['completion', 'zsh'])
    expect(zsh.stdout).toContain('#compdef infradesk')
    const fish = await cli(['completion', 'fish'])
    expect(fish.stdout).toContain("complete -c infradesk -n '__fish_use_subcommand' -a 'certs'")
    expect((await cli(['completion', 'tcsh'])).code).toBe(2)
  })

  it.skipIf(!installed('fish'))('completes in a real fish', async () => {
    const script = path.join(home.temp.dir, 'infradesk.fish')
    writeFileSync(script, (await cli(['completion', 'fish'])).stdout)
    const complete = (line: string) =>
      execFileSync('fish', ['-c', `source ${script}; complete -C '${line}'`])
        .toString()
        .trim()
    expect(complete('infradesk certs ex')).toBe('export')
    expect(complete('infradesk certs export X --format pk')).toBe('pkcs12')
    expect(complete('infradesk call listC')).toBe('listCertificates')
  })

  it.skipIf(!installed('zsh'))('completes in a real zsh', async () => {
    const script = path.join(home.temp.dir, '_infradesk')
    writeFileSync(script, (await cli(['completion', 'zsh'])).stdout)
    // compadd stands in for the completion system's matcher: it prints the words offered.
    const offered = (words: string[]) =>
      execFileSync('zsh', [
        '-fc',
        `autoload -U compinit && compinit -u; source ${script}; ` +
          `compadd() { shift; print -l -- "$@" }; ` +
          `words=(${words.join(' ')}); CURRENT=${words.length}; _infradesk_complete`,
      ])
        .toString()
        .split('\n')
    expect(offered(['infradesk', 'certs', 'ex'])).toContain('export')
    expect(offered(['infradesk', 'certs', 'ex'])).not.toContain('sessions')
    expect(offered(['infradesk', '--url', 'U', 'certs', 'export', 'I', '--format', 'p'])).toEqual(
      expect.arrayContaining(['pem', 'pkcs12', 'jks']),
    )
  })
})

describe('with --url and INFRADESK_TOKEN', () => {
  it('lists certificates as the service sent them, with --url before or after the words', async () => {
    const before = await cli(['--url', sandbox.url, 'certs', 'list', '--json'], withToken())
    const after = await cli(['certs', 'list', '--json', '--url', sandbox.url], withToken())
    expect(before.code).toBe(0)
    const listed = jsonOf<Array<Record<string, unknown>>>(before)
    expect(jsonOf(after)).toEqual(listed)
    const seeded = new Set(sandbox.seed.certificates.all)
    expect(listed.length).toBeGreaterThan(0)
    for (const item of listed) {
      expect(seeded.has(String(item['id']))).toBe(true)
      expect(item).toHaveProperty('commonName')
    }
  })

  it('lists those expiring within 30 days as CSV', async () => {
    const run = await cli(
      ['--url', sandbox.url, 'certs', 'list', '--expiring', '30', '--csv'],
      withToken(),
    )
    expect(run.code).toBe(0)
    const [header, ...rows] = readCsv(run.stdout)
    expect(header).toContain('NOT AFTER')
    expect(rows.length).toBeGreaterThan(0)
    const column = header?.indexOf('NOT AFTER') ?? -1
    const now = Date.now()
    // The app's Expiring list: expired ones included (test/cli/certs-expiring.test.ts).
    for (const row of rows) {
      const at = Date.parse(row[column] ?? '')
      expect(at).toBeLessThanOrEqual(now + 30 * 86_400_000)
    }
  })

  it('exports PEM and PKCS#12 that openssl reads, 0600, through the atomic writer', async () => {
    const id = sandbox.seed.certificates.withPrivateKey[0] as string
    const pem = path.join(home.temp.dir, 'out', 'cert.pem')
    const missingFolder = await cli(
      ['--url', sandbox.url, 'certs', 'export', id, '--format', 'pem', '--out', pem],
      withToken(),
    )
    // The folder does not exist: the writer refuses (exit 1), nothing is left behind.
    expect(missingFolder.code).toBe(1)
    execFileSync('mkdir', ['-p', path.dirname(pem)])
    const run = await cli(
      ['--url', sandbox.url, 'certs', 'export', id, '--format', 'pem', '--out', pem, '--json'],
      withToken(),
    )
    expect(run.code).toBe(0)
    const saved = jsonOf<{ path: string; size: number; sha256: string }>(run)
    expect(saved.path).toBe(pem)
    const bytes = readFileSync(pem)
    expect(saved.sha256).toBe(createHash('sha256').update(bytes).digest('hex'))
    expect(statSync(pem).mode & 0o777).toBe(0o600)
    const subject = execFileSync('openssl', ['x509', '-in', pem, '-noout', '-subject']).toString()
    expect(subject).toMatch(/subject=/)

    const p12 = path.join(home.temp.dir, 'out', 'cert.p12')
    const passFile = path.join(home.temp.dir, 'pass.txt')
    writeFileSync(passFile, 'correct horse\n')
    const exported = await cli(
      ['certs', 'export', id, '--format', 'pkcs12', '--out', p12, '--passphrase-file', passFile],
      withToken(),
    )
    // No --url and no --profile: a usage error.
    expect(exported.code).toBe(2)
    const secured = await cli(
      [
        ...['--url', sandbox.url, 'certs', 'export', id, '--format', 'pkcs12'],
        ...['--out', p12, '--passphrase-file', passFile],
      ],
      withToken(),
    )
    expect(secured.code).toBe(0)
    const certs = execFileSync('openssl', [
      ...['pkcs12', '-in', p12, '-nokeys', '-passin', `file:${passFile}`],
    ]).toString()
    expect(certs).toContain('-----BEGIN CERTIFICATE-----')
    // The PEM read back: the same certificate.
    const fromP12 = execFileSync('openssl', ['x509', '-noout', '-fingerprint', '-sha256'], {
      input: certs,
    }).toString()
    const fromPem = execFileSync('openssl', [
      ...['x509', '-in', pem, '-noout', '-fingerprint', '-sha256'],
    ]).toString()
    expect(fromP12).toBe(fromPem)
    // jks without a passphrase: refused before anything is asked (usage, exit 2).
    const jks = await cli(
      [
        ...['--url', sandbox.url, 'certs', 'export', id, '--format', 'jks'],
        ...['--out', path.join(home.temp.dir, 'out', 'x.jks')],
      ],
      withToken(),
    )
    expect(jks.code).toBe(2)
  })

  it('takes a certificate by its name as by its id (export, formats), and says when neither names one', async () => {
    const id = sandbox.seed.certificates.withPrivateKey[0] as string
    const listed = jsonOf<{ id: string; name: string }[]>(
      await cli(['--url', sandbox.url, 'certs', 'list', '--json', '--system'], withToken()),
    )
    const name = listed.find((item) => item.id === id)?.name as string
    const exportPem = (given: string, file: string) =>
      cli(
        [
          ...['--url', sandbox.url, 'certs', 'export', given, '--format', 'pem', '--json'],
          ...['--out', path.join(home.temp.dir, file)],
        ],
        withToken(),
      )
    const byName = await exportPem(name, 'by-name.pem')
    expect(byName.code, byName.stderr).toBe(0)
    const byId = await exportPem(id, 'by-id.pem')
    expect(jsonOf<{ sha256: string }>(byName).sha256).toBe(jsonOf<{ sha256: string }>(byId).sha256)
    const formats = await cli(
      ['--url', sandbox.url, 'certs', 'formats', name, '--json'],
      withToken(),
    )
    expect(formats.code, formats.stderr).toBe(0)
    expect(jsonOf<{ format: string }[]>(formats).map((entry) => entry.format)).toContain('pem')
    // Neither an id nor a name: not found (4), said as such, nothing written.
    const missing = await exportPem('no-such-certificate', 'missing.pem')
    expect(missing.code).toBe(4)
    expect(missing.stderr).toMatch(/No certificate with the id or name "no-such-certificate"/)
    expect(readdirSync(home.temp.dir)).not.toContain('missing.pem')
  })

  it('exports a volume through a cut connection, resumed and SHA-256 checked', async () => {
    const volume = sandbox.seed.volumes[0] as { nodeId: string; name: string; sizeBytes: number }
    const cut = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/downloads/cut',
      body: { afterBytes: Math.floor(volume.sizeBytes / 3), count: 1 },
    })
    expect(cut.status).toBe(200)
    const out = path.join(home.temp.dir, 'volume.tar.gz')
    const run = await cli(volumeExportArgs(sandbox.url, volume, out), withToken())
    expect(run.code, run.stderr).toBe(0)
    // Not a terminal: no progress bar on stderr.
    expect(run.stderr).toBe('')
    const saved = jsonOf<{ path: string; size: number; sha256: string }>(run)
    const announced = await callOperation(sandbox, 'exportVolume', {
      params: { nodeId: volume.nodeId, name: volume.name },
    })
    const expected = (announced.json as { data: { sha256: string } }).data.sha256
    const bytes = readFileSync(out)
    expect(bytes.length).toBe(volume.sizeBytes)
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected)
    expect(saved.sha256).toBe(expected)
    const stats = await call(sandbox, { path: '/__sandbox/downloads' })
    const served = (stats.json as { served: { cut: number; partial: number } }).served
    expect(served.cut).toBeGreaterThanOrEqual(1)
    expect(served.partial).toBeGreaterThanOrEqual(1)
  })

  it('stops on Ctrl-C: the download cancelled, its partial file and the throwaway folder removed, exit 130', async () => {
    const volume = sandbox.seed.volumes[0] as { nodeId: string; name: string }
    // The archive's body dripped a few bytes at a time: the download is still running when
    // the signal comes, however fast the machine.
    const drip = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/faults',
      body: { rules: [{ path: '/downloads/volumes/*', fault: 'drip=200' }] },
    })
    expect(drip.status).toBeLessThan(300)
    const out = path.join(home.temp.dir, 'interrupted')
    mkdirSync(out)
    try {
      const child = spawn(
        process.execPath,
        [BIN, ...volumeExportArgs(sandbox.url, volume, path.join(out, 'volume.tar.gz'))],
        {
          env: {
            ...process.env,
            ...home.env(),
            NO_COLOR: '1',
            INFRADESK_TOKEN: sandbox.tokens.admin,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stderr = ''
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
      const ended = new Promise<number | null>((resolve) => child.once('close', resolve))
      await waitForValue(() => readdirSync(out).find((name) => name.endsWith('.part')), {
        what: 'the download to start writing its temporary file',
      })
      child.kill('SIGINT')
      expect(await ended, stderr).toBe(130)
      expect(stderr).toMatch(/^error: Interrupted; the download was cancelled/)
      expect(readdirSync(out)).toEqual([])
      // The --url run's throwaway data folder is gone too (checked for every run in afterAll).
      expect(readdirSync(path.join(home.temp.dir, 'tmp'))).not.toContainEqual(
        expect.stringMatching(/^infradesk-cli-/),
      )
    } finally {
      await call(sandbox, { method: 'DELETE', path: '/__sandbox/faults' })
    }
  })

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'ends on %s while the desk opens as it does later: exit %i, the cache closed',
    async (signal, exitCode) => {
      // The settings file a FIFO: opening it for writing returns once the desk, halfway open
      // (its cache open), reads it, and holds the desk there until it is written.
      const dataDir = path.join(home.temp.dir, `opening-${signal}`)
      mkdirSync(dataDir, { mode: 0o700 })
      const settings = path.join(dataDir, 'settings.json')
      execFileSync('mkfifo', [settings])
      const child = startCli(['--data-dir', dataDir, 'profiles', 'list', '--json'])
      const writer = await open(settings, 'w')
      child.process.kill(signal)
      // Before the fix, nobody reads any more: the write fails (EPIPE).
      await writer.writeFile('{}').catch(() => undefined)
      await writer.close()
      expect(await child.exitCode, child.stderr()).toBe(exitCode)
      // One line: the runner's handler answered alone (the bin's, for the start, set aside).
      expect(child.stderr()).toMatch(/^error: Interrupted[^\n]*\n$/)
      expect(child.stdout()).toBe('')
      expect(readdirSync(dataDir)).not.toContain(`${CACHE_FILE_NAME}${OPEN_MARKER_SUFFIX}`)
    },
  )

  it("stops a certificate list's walk on Ctrl-C: its page's request aborted, the cache closed, exit 130", async () => {
    const dataDir = path.join(home.temp.dir, 'walk-interrupted')
    const inDataDir = ['--data-dir', dataDir]
    const added = await cli([...inDataDir, 'profiles', 'add', 'Walk', '--url', sandbox.url], {
      input: `${sandbox.tokens.admin}\n`,
    })
    expect(added.code, added.stderr).toBe(0)
    // Every page answered a minute late: the walk is still waiting when the signal comes.
    const slow = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/faults',
      body: { rules: [{ operation: 'listCertificates', fault: 'latency=60000' }] },
    })
    expect(slow.status).toBeLessThan(300)
    try {
      const child = startCli([...inDataDir, '--profile', 'Walk', 'certs', 'list'])
      await waitUntil(
        async () => {
          const rules = await call(sandbox, { path: '/__sandbox/faults' })
          return (rules.json as { rules: Array<{ seen: number }> }).rules[0]?.seen === 1
        },
        { what: 'the walk to ask for its first page', timeoutMs: 60_000, intervalMs: 50 },
      )
      child.process.kill('SIGINT')
      expect(await child.exitCode, child.stderr()).toBe(130)
      expect(child.stderr()).toMatch(/^error: Interrupted/)
      expect(child.stdout()).toBe('')
      // The desk closed its cache (checked and marked clean) before the process ended.
      expect(readdirSync(dataDir)).toContain(CACHE_FILE_NAME)
      expect(readdirSync(dataDir)).not.toContain(`${CACHE_FILE_NAME}${OPEN_MARKER_SUFFIX}`)
    } finally {
      await call(sandbox, { method: 'DELETE', path: '/__sandbox/faults' })
      await cli([...inDataDir, 'profiles', 'remove', 'Walk'])
    }
  })

  it.skipIf(!hasScript)(
    'draws the progress bar on a terminal, and colour only without NO_COLOR',
    async () => {
      const volume = sandbox.seed.volumes[1] as { nodeId: string; name: string }
      const onTerminal = (out: string, env: Record<string, string | undefined>) => {
        const command = [
          process.execPath,
          BIN,
          ...['--url', sandbox.url, 'volumes', 'export', volume.nodeId, volume.name],
          ...['--out', path.join(home.temp.dir, out)],
        ]
          .map((word) => `'${word}'`)
          .join(' ')
        // util-linux `script` gives the child a pseudo-terminal: stdout and stderr are TTYs.
        const childEnv: Record<string, string | undefined> = {
          ...process.env,
          INFRADESK_TOKEN: sandbox.tokens.admin,
          XDG_CONFIG_HOME: path.join(home.temp.dir, 'config'),
          ...env,
        }
        const typed = execFileSync('script', ['-qec', command, '/dev/null'], {
          env: childEnv as NodeJS.ProcessEnv,
        }).toString()
        expect(typed).not.toContain(sandbox.tokens.admin)
        return typed
      }
      const plain = onTerminal('tty-plain.tar.gz', { NO_COLOR: '1' })
      expect(plain).toContain('100%')
      expect(plain).toContain('MiB')
      expect(plain).not.toContain('\u001b[2m')
      // CI=true (as `.ci/run` sets it) makes Node's colour check answer two colours: no styles.
      const coloured = onTerminal('tty-colour.tar.gz', {
        NO_COLOR: undefined,
        FORCE_COLOR: undefined,
        CI: undefined,
      })
      expect(coloured).toContain('\u001b[2m')
    },
  )

  it('calls any operation by name and maps the service errors to exit codes', async () => {
    const sessions = await cli(['--url', sandbox.url, 'call', 'listSessions'], withToken())
    expect(sessions.code).toBe(0)
    // Op 1 answers a bare array: printed as the service sent it.
    expect(jsonOf<Array<{ isCurrent: boolean }>>(sessions).some((s) => s.isCurrent)).toBe(true)

    const missing = await cli(
      [
        ...['--url', sandbox.url, 'call', 'rotateDatabaseCertificate'],
        ...['--param', 'id=no-such-database', '--body', '{}'],
      ],
      withToken(),
    )
    expect(missing.code).toBe(4)
    expect(missing.stderr.trim().split('\n')).toHaveLength(1)

    const clickhouse = sandbox.seed.databases.clickhouse[0] as string
    const rotate = ['--url', sandbox.url, 'call', 'rotateDatabaseCertificate', '--param']
    const first = await cli([...rotate, `id=${clickhouse}`], withToken())
    expect(first.code, first.stderr).toBe(0)
    // A conflict that does not depend on timing (a second rotation would race the sandbox's
    // 5 s reread under a loaded machine): a retry of a route that has not failed is 409.
    const host = sandbox.seed.proxyHosts.find((candidate) =>
      candidate.routes.some((route) => route.status === 'active'),
    )
    const active = host?.routes.find((route) => route.status === 'active')
    expect(active).toBeDefined()
    const conflict = await cli(
      [
        ...['--url', sandbox.url, 'call', 'retryProxyRoute'],
        ...['--param', `id=${host?.id ?? ''}`, '--param', `routeId=${active?.id ?? ''}`],
      ],
      withToken(),
    )
    expect(conflict.code, conflict.stderr).toBe(5)

    const viewer = await cli([...rotate, `id=${clickhouse}`], withToken(sandbox.tokens.viewer))
    expect(viewer.code).toBe(3)
    const refused = await cli(['--url', sandbox.url, 'sessions', 'list'], withToken('not-a-token'))
    expect(refused.code).toBe(3)
    expect(refused.stderr).toMatch(/UNAUTHORIZED/)
    const noToken = await cli(['--url', sandbox.url, 'sessions', 'list'])
    expect(noToken.code).toBe(3)

    const closedPort = await cli(['--url', 'http://127.0.0.1:9', 'sessions', 'list'], withToken())
    expect(closedPort.code).toBe(6)

    // The service answers garbage for op 16 (the fault switch): exit 7.
    const fault = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/faults',
      body: { rules: [{ operation: 'listCertificates', fault: 'malformed-json', times: 1 }] },
    })
    expect(fault.status).toBeLessThan(300)
    const garbled = await cli(['--url', sandbox.url, 'certs', 'list'], withToken())
    expect(garbled.code).toBe(7)
  })
})

describe('with a stored profile', () => {
  it('adds a profile from stdin and works as it (sessions, sql, activity)', async () => {
    const added = await cli(
      ['profiles', 'add', 'Prod', '--url', sandbox.url, '--protected', '--json'],
      { input: `${sandbox.tokens.admin}\n` },
    )
    expect(added.code, added.stderr).toBe(0)
    expect(jsonOf<{ tokenStorage: string }>(added).tokenStorage).toBe('keychain')

    const listed = await cli(['profiles', 'list', '--json'])
    const profiles = jsonOf<Array<{ name: string; protected: boolean; signedIn: boolean }>>(listed)
    expect(profiles).toEqual([
      expect.objectContaining({ name: 'Prod', protected: true, signedIn: true }),
    ])

    const sessions = await cli(['sessions', 'list', '--profile', 'prod', '--json'])
    expect(sessions.code, sessions.stderr).toBe(0)
    expect(jsonOf<Array<{ isCurrent: boolean }>>(sessions).some((s) => s.isCurrent)).toBe(true)

    const db = sandbox.seed.databases.postgres[0] as string
    const select = await cli([
      ...['--profile', 'Prod', 'sql', '--db', db, '--csv'],
      'SELECT 1 AS one, \'a,"b"\' AS text; SELECT 2 AS two',
    ])
    expect(select.code, select.stderr).toBe(0)
    expect(readCsv(select.stdout)).toEqual([['one', 'text'], ['1', 'a,"b"'], ['two'], ['2']])

    const json = await cli([
      '--profile',
      'Prod',
      'sql',
      '--db',
      db,
      '--json',
      'SELECT 41 + 1 AS answer',
    ])
    expect(jsonOf(json)).toEqual([{ answer: 42 }])

    // A protected profile: the guard refuses the write before it is sent, unless confirmed.
    const sqlFile = path.join(home.temp.dir, 'write.sql')
    writeFileSync(sqlFile, 'CREATE TABLE cli_probe (id int);\nDROP TABLE cli_probe;\n')
    const refused = await cli(['--profile', 'Prod', 'sql', '--db', db, '--file', sqlFile])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/protected/)
    // The line says how to send it.
    expect(refused.stderr).toContain('run the command again with --confirm-write')
    const confirmed = await cli([
      ...['--profile', 'Prod', 'sql', '--db', db, '--file', sqlFile, '--confirm-write', '--json'],
    ])
    expect(confirmed.code, confirmed.stderr).toBe(0)
    expect(jsonOf(confirmed)).toEqual([
      { command: 'CREATE', rowCount: null },
      { command: 'DROP', rowCount: null },
    ])

    const activity = await cli([
      'activity',
      'export',
      '--profile',
      'Prod',
      '--json',
      '--since',
      '1h',
    ])
    expect(activity.code).toBe(0)
    const entries = jsonOf<Array<{ operation: string; profileName: string }>>(activity)
    expect(
      entries.filter((entry) => entry.operation === 'runPostgresQuery').length,
    ).toBeGreaterThan(0)
    const csv = await cli(['activity', 'export', '--csv'])
    expect(readCsv(csv.stdout)[0]).toEqual([
      'at',
      'profile',
      'operation',
      'target',
      'outcome',
      'errorCode',
      'message',
    ])
  })

  // The profile of the test above, still stored.
  it("lists the databases the app has seen (names and ids), and prints PostgreSQL's errors whole", async () => {
    const db = sandbox.seed.databases.postgres[0] as string
    // A statement PostgreSQL refuses: its own message, where, and its SQLSTATE, as the app shows.
    const missingTable = await cli([
      ...['--profile', 'Prod', 'sql', '--db', db],
      'SELECT * FROM no_such_table',
    ])
    expect(missingTable.code).toBe(1)
    expect(missingTable.stderr).toContain('relation "no_such_table" does not exist')
    expect(missingTable.stderr).toContain('at character 15 of the statement')
    expect(missingTable.stderr).toContain('SQLSTATE 42P01')

    // `databases list`: none known yet, said so; then the database a rotation's answer named.
    const noneKnown = await cli(['databases', 'list', '--profile', 'Prod', '--json'])
    expect(noneKnown.code, noneKnown.stderr).toBe(0)
    expect(jsonOf(noneKnown)).toEqual([])
    expect(noneKnown.stderr).toContain('The service cannot list databases')
    // A write on a protected profile: confirmed (see the test above).
    const rotated = await cli([
      ...['--profile', 'Prod', 'call', 'rotateDatabaseCertificate', '--param', `id=${db}`],
      '--confirm-write',
    ])
    expect(rotated.code, rotated.stderr).toBe(0)
    const named = jsonOf<{ data: { name: string; engine: string } }>(rotated).data
    const known = await cli(['databases', 'list', '--profile', 'Prod', '--json'])
    expect(jsonOf(known)).toEqual([
      expect.objectContaining({ name: named.name, id: db, engine: named.engine }),
    ])
    const table = await cli(['databases', 'list', '--profile', 'Prod'])
    expect(table.stdout).toMatch(new RegExp(`^${named.name}\\s+${db}\\s`, 'm'))
  })

  it('sends an operation that changes something on a protected profile only with --confirm-write', async () => {
    const db = sandbox.seed.databases.postgres[0] as string
    const callArgs = [
      ...['--profile', 'Prod', 'call', 'runPostgresQuery', '--param', `id=${db}`],
      ...['--body', '{"sql":"create table cli_call_probe (id int)"}'],
    ]
    const refused = await cli(callArgs)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/"Prod" is protected: runPostgresQuery changes something/)
    expect(refused.stderr).toContain('run the command again with --confirm-write')
    const exists = () =>
      cli(
        ['--profile', 'Prod', 'sql', '--db', db, '--json'].concat(
          "select to_regclass('cli_call_probe') is not null as made",
        ),
      )
    expect(jsonOf(await exists())).toEqual([{ made: false }])
    const confirmed = await cli([...callArgs, '--confirm-write'])
    expect(confirmed.code, confirmed.stderr).toBe(0)
    expect(jsonOf(await exists())).toEqual([{ made: true }])
    // A read is not held back.
    const read = await cli(['--profile', 'Prod', 'call', 'listSessions'])
    expect(read.code, read.stderr).toBe(0)
  })

  it('removes the profile again', async () => {
    expect((await cli(['--profile', 'Nope', 'sessions', 'list'])).code).toBe(4)
    const removed = await cli(['profiles', 'remove', 'Prod'])
    expect(removed.code).toBe(0)
    expect(jsonOf(await cli(['profiles', 'list', '--json']))).toEqual([])
  })
})

describe('behind a private CA', () => {
  // In this process (its own client would not trust the private CA); the CLI is the child.
  let secure: RunningSandbox | undefined
  afterAll(async () => {
    await secure?.close()
  })

  it('fails TLS with exit 6 until --ca-file names the CA', async () => {
    const ca = await makePrivateCa(home.temp, 'Cli Corp')
    const leaf = await ca.issue('ims.cli.test')
    const caFile = path.join(home.temp.dir, 'corp-ca.pem')
    writeFileSync(caFile, ca.pem)
    // The server sends its chain, CA included, as most do.
    secure = await startSandbox({ tls: { cert: leaf.certPem + ca.pem, key: leaf.keyPem } })
    const env = { env: { INFRADESK_TOKEN: secure.tokens.admin } }
    const untrusted = await cli(['--url', secure.url, 'sessions', 'list'], env)
    expect(untrusted.code).toBe(6)
    expect(untrusted.stderr).toMatch(/TLS_ERROR/)
    const trusted = await cli(
      ['sessions', 'list', '--json', '--url', secure.url, '--ca-file', caFile],
      env,
    )
    expect(trusted.code, trusted.stderr).toBe(0)
    expect(trusted.stdout).not.toContain(secure.tokens.admin)
    expect(trusted.stderr).not.toContain(secure.tokens.admin)
    expect(jsonOf<unknown[]>(trusted).length).toBeGreaterThan(0)
  })
})

describe('behind a proxy', () => {
  it.skipIf(!installed('tinyproxy'))('goes through HTTP_PROXY from the environment', async () => {
    const proxy = await startTinyproxy(home.temp, 'cli-proxy')
    try {
      const run = await cli(['--url', sandbox.url, 'sessions', 'list', '--json'], {
        env: {
          INFRADESK_TOKEN: sandbox.tokens.admin,
          HTTP_PROXY: proxy.url,
          http_proxy: undefined,
          HTTPS_PROXY: undefined,
          https_proxy: undefined,
          NO_PROXY: undefined,
          no_proxy: undefined,
        },
      })
      expect(run.code, run.stderr).toBe(0)
      const lines = await proxy.requests()
      expect(lines.some((line) => line.includes(`${sandbox.url}/auth/me/sessions`))).toBe(true)
    } finally {
      await proxy.stop()
    }
  })
})
