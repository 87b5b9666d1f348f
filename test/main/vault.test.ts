import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVault } from '../../src/main/vault'
import { repoRoot } from '../support/sandbox-process'
import { makeTempDir, run } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The vault against the real gnome-keyring over D-Bus, checked from outside with secret-tool,
 * and the machines without one: a child process with no reachable D-Bus, and a private
 * keyring that is locked.
 */

const KEYRING_HINT =
  'The vault tests need a Secret Service on D-Bus. Run them under the throwaway keyring: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/vault.test.ts` (`npm test` does this).'

/** A service name of this run only, so runs never see each other's items. */
const service = `Infradesk-test-${randomUUID()}`
let temp: TempDir

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  temp = await makeTempDir('infradesk-vault')
})

afterAll(async () => {
  await temp?.remove()
})

function newToken(): string {
  return `tok_${randomBytes(24).toString('base64url')}`
}

/** What the keyring holds for (service, account), read by libsecret's own CLI. */
async function lookup(account: string, env: NodeJS.ProcessEnv = process.env) {
  const result = await run('secret-tool', ['lookup', 'service', service, 'account', account], {
    env,
  })
  return result.code === 0 ? result.stdout : null
}

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name)
    if (!entry.isFile() || statSync(full).size > 50_000_000) continue
    if (readFileSync(full).includes(needle)) found.push(full)
  }
  return found
}

describe('vault on the real keyring', () => {
  it('says the keychain is available', async () => {
    await expect(createVault({ service }).status()).resolves.toEqual({ available: true })
  })

  it('stores, reads and deletes a token in the keyring', async () => {
    const vault = createVault({ service })
    const profileId = randomUUID()
    const token = newToken()

    expect(vault.storageOf(profileId)).toBeNull()
    await expect(vault.set(profileId, token)).resolves.toBe('keychain')
    expect(vault.storageOf(profileId)).toBe('keychain')
    expect(await lookup(profileId)).toBe(token)
    await expect(vault.get(profileId)).resolves.toBe(token)

    // Another process (a restart) finds it in the keyring, and learns where it lives.
    const restarted = createVault({ service })
    expect(restarted.storageOf(profileId)).toBeNull()
    await expect(restarted.get(profileId)).resolves.toBe(token)
    expect(restarted.storageOf(profileId)).toBe('keychain')

    await restarted.delete(profileId)
    expect(await lookup(profileId)).toBeNull()
    await expect(vault.get(profileId)).resolves.toBeNull()
    expect(restarted.storageOf(profileId)).toBeNull()
    // Deleting what is not there is fine.
    await expect(restarted.delete(profileId)).resolves.toBeUndefined()
  })

  it('keeps a session-only token in memory, never in the keyring', async () => {
    const vault = createVault({ service })
    const profileId = randomUUID()
    const older = newToken()
    const token = newToken()
    await vault.set(profileId, older)
    expect(await lookup(profileId)).toBe(older)

    await expect(vault.set(profileId, token, { sessionOnly: true })).resolves.toBe('session')
    expect(vault.storageOf(profileId)).toBe('session')
    await expect(vault.get(profileId)).resolves.toBe(token)
    // The older keychain copy is gone, or it would come back after a restart.
    expect(await lookup(profileId)).toBeNull()
    await expect(createVault({ service }).get(profileId)).resolves.toBeNull()

    await vault.delete(profileId)
    await expect(vault.get(profileId)).resolves.toBeNull()
    expect(vault.storageOf(profileId)).toBeNull()
  })

  it('refuses an empty token', async () => {
    const vault = createVault({ service })
    await expect(vault.set(randomUUID(), '  ')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' })
  })

  it('writes no token in plain text into the keyring files', async () => {
    // gnome-keyring keeps its keyrings under $XDG_DATA_HOME/keyrings (~/.local/share by default).
    const dataHome = process.env.XDG_DATA_HOME || path.join(homedir(), '.local', 'share')
    const keyrings = path.join(dataHome, 'keyrings')
    const vault = createVault({ service })
    const profileId = randomUUID()
    const token = newToken()
    await vault.set(profileId, token)
    try {
      // The token is in the keyring, and the keyring is on disk: the scan below has something
      // to look at (an absent folder must fail the test, not skip its only check).
      expect(await lookup(profileId)).toBe(token)
      expect(existsSync(keyrings), `no keyring folder at ${keyrings}`).toBe(true)
      expect(readdirSync(keyrings).filter((name) => name.endsWith('.keyring'))).not.toEqual([])
      expect(filesContaining(keyrings, token)).toEqual([])
    } finally {
      await vault.delete(profileId)
    }
  })
})

/* ------------------------------------------------------ without a keychain */

interface ChildReport {
  status: { available: boolean; reason?: string; fix?: string }
  setError: { isServiceError: boolean; code?: string; message: string; details?: unknown } | null
  sessionStorage: string
  sessionRoundTrip: boolean
  storageOf: string | null
}

/** Runs the vault in a fresh Node process with `env` (the token comes by env, never a file). */
async function runVaultChild(env: NodeJS.ProcessEnv, token: string): Promise<ChildReport> {
  const script = await temp.write(
    `child-${randomUUID()}.mts`,
    [
      `import { createVault } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'src/main/vault/index.ts')).href)}`,
      `import { ServiceError } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'src/main/api/index.ts')).href)}`,
      'const token = process.env.CHILD_TOKEN as string',
      `const vault = createVault({ service: ${JSON.stringify(service)}, timeoutMs: 20_000 })`,
      'const status = await vault.status()',
      'let setError = null',
      'try {',
      "  await vault.set('child-profile', token)",
      '} catch (error) {',
      '  const e = error as ServiceError',
      '  setError = { isServiceError: error instanceof ServiceError, code: e.code, message: e.message, details: e.details }',
      '}',
      "const sessionStorage = await vault.set('child-profile', token, { sessionOnly: true })",
      "const sessionRoundTrip = (await vault.get('child-profile')) === token",
      "const storageOf = vault.storageOf('child-profile')",
      'console.log(JSON.stringify({ status, setError, sessionStorage, sessionRoundTrip, storageOf }))',
      '',
    ].join('\n'),
  )
  const tsx = path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs')
  const result = await run(process.execPath, [tsx, script], {
    env: { ...env, CHILD_TOKEN: token },
  })
  if (result.code !== 0) {
    throw new Error(`vault child exited ${result.code}\n${result.stderr}\n${result.stdout}`)
  }
  const line = result.stdout.trim().split('\n').at(-1) ?? ''
  return JSON.parse(line) as ChildReport
}

/** A minimal environment for a child: its own HOME and XDG folders inside `root`. */
function isolatedEnv(root: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: path.join(root, 'home'),
    XDG_DATA_HOME: path.join(root, 'data'),
    XDG_CONFIG_HOME: path.join(root, 'config'),
    XDG_CACHE_HOME: path.join(root, 'cache'),
    XDG_RUNTIME_DIR: path.join(root, 'run'),
  }
  for (const dir of ['home', 'data', 'config', 'cache', 'run']) {
    mkdirSync(path.join(root, dir), { recursive: true, mode: 0o700 })
  }
  return env
}

describe('vault without a usable keychain', () => {
  it('reports no Secret Service, refuses to store, and keeps a session-only token', async () => {
    const root = path.join(temp.dir, 'no-dbus')
    const token = newToken()
    // No DISPLAY, and a D-Bus address whose socket does not exist.
    const env = {
      ...isolatedEnv(root),
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(root, 'no-such-bus')}`,
    }
    const report = await runVaultChild(env, token)

    expect(report.status.available).toBe(false)
    expect(report.status.reason).toMatch(/Secret Service/)
    expect(report.status.fix).toMatch(/gnome-keyring/)
    expect(report.setError).toMatchObject({
      isServiceError: true,
      code: 'KEYCHAIN_UNAVAILABLE',
      details: { reason: report.status.reason, fix: report.status.fix },
    })
    expect(report.setError?.message).not.toContain(token)
    expect(report.sessionStorage).toBe('session')
    expect(report.sessionRoundTrip).toBe(true)
    expect(report.storageOf).toBe('session')
    // No plaintext fallback anywhere in the child's home, data, config or cache folders.
    expect(filesContaining(temp.dir, token)).toEqual([])
  })

  it('reports a locked keyring as locked and says to unlock it', async () => {
    const root = path.join(temp.dir, 'locked')
    const env = isolatedEnv(root)
    const pids: number[] = []
    try {
      // A private bus and keyring, so locking it cannot disturb anything else using the keyring.
      const [address, busPid] = execFileSync(
        'dbus-daemon',
        ['--session', '--fork', '--print-address=1', '--print-pid=1'],
        { env, encoding: 'utf8' },
      )
        .trim()
        .split('\n')
      pids.push(Number(busPid))
      env.DBUS_SESSION_BUS_ADDRESS = (address ?? '').trim()
      const daemonOut = execFileSync(
        'gnome-keyring-daemon',
        ['--unlock', '--components=secrets', '--daemonize'],
        { env, input: 'throwaway-password', encoding: 'utf8' },
      )
      const keyringPid = /GNOME_KEYRING_PID=(\d+)/.exec(daemonOut)?.[1]
      if (keyringPid) pids.push(Number(keyringPid))
      // Creating an item makes sure the login collection exists before it is locked.
      const warmUp = await runVaultChild(env, newToken())
      expect(warmUp.status.available).toBe(true)
      execFileSync(
        'dbus-send',
        [
          '--session',
          '--dest=org.freedesktop.secrets',
          '--type=method_call',
          '--print-reply',
          '/org/freedesktop/secrets',
          'org.freedesktop.Secret.Service.Lock',
          'array:objpath:/org/freedesktop/secrets/collection/login',
        ],
        { env },
      )

      const token = newToken()
      const report = await runVaultChild(env, token)
      expect(report.status).toMatchObject({
        available: false,
        reason: expect.stringMatching(/locked/),
      })
      expect(report.status.fix).toMatch(/[Uu]nlock/)
      expect(report.setError).toMatchObject({ code: 'KEYCHAIN_UNAVAILABLE' })
      expect(report.setError?.message).toMatch(/locked/)
      expect(report.sessionStorage).toBe('session')
      expect(report.sessionRoundTrip).toBe(true)
    } finally {
      for (const pid of pids.reverse()) {
        try {
          process.kill(pid, 'SIGTERM')
        } catch {
          // already gone
        }
      }
    }
  })
})
