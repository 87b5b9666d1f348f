import { spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import { createTransferLog } from '../../src/main/cache/transfers'
import { createProfileStore, PROFILES_FILE_NAME } from '../../src/main/profiles'
import { createVault } from '../../src/main/vault'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { BridgeError, Profile, Result } from '../../src/shared/bridge'
import { launchSecretOf } from '../../src/shared/bridge/web-protocol'
import { spawn } from 'node:child_process'
import { openTestDesk, type TestDesk } from '../support/desk'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * Faults outside the network, with real parts: the keychain entry deleted behind the app's back
 * (gnome-keyring over D-Bus), web mode killed with SIGKILL in the middle of cache writes and
 * started again on the same folder, a transfer left running by a killed process, and a data
 * folder on a disk that is full or read-only (a real tmpfs, mounted for the test; skipped where
 * mounting is not allowed). Locked and absent Secret Services are covered in vault.test.ts and
 * e2e/no-keychain.spec.ts.
 */

let temp: TempDir
let sandbox: RunningSandbox

beforeAll(async () => {
  temp = await makeTempDir('infradesk-faults-process')
  sandbox = await startSandbox({ port: 0 })
})
afterAll(async () => {
  await sandbox?.close()
  await temp?.remove()
})

interface WebMode {
  url: URL
  /** SIGKILL: no shutdown handler runs, as when the machine loses power or the app is killed. */
  kill(): Promise<void>
}

/**
 * Web mode in ONE process (node --import tsx), so SIGKILL reaches the process that writes the
 * cache; the tsx launcher would relay SIGTERM but cannot relay SIGKILL to its child.
 */
function startWebMode(dataDir: string): Promise<WebMode> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/main/web/cli.ts', '--port', '0', '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } },
  )
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await exited
  }
  process.once('exit', () => child.kill('SIGKILL'))
  return new Promise((resolve, reject) => {
    let output = ''
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
      const line = output.split('\n').find((candidate) => candidate.startsWith('WEB_READY '))
      if (line) {
        const { url } = JSON.parse(line.slice('WEB_READY '.length)) as { url: string }
        resolve({ url: new URL(url), kill })
      }
    })
    child.once('exit', (code) => reject(new Error(`web mode exited (${code}): ${output}`)))
  })
}

function addProfile(desk: TestDesk, name: string, sessionOnly: boolean) {
  return desk.call('profiles.add', {
    name,
    baseUrl: sandbox.url,
    color: '#2563eb',
    protected: false,
    token: sandbox.tokens.admin,
    sessionOnly,
  })
}

describe('keychain: the entry deleted behind the app’s back', () => {
  it('signs the profile out with a clear word, no crash, no plaintext fallback', async () => {
    const desk = await openTestDesk('faults-process')
    const { dataDir } = desk
    try {
      const added = await addProfile(desk, 'Kept in the keychain', false)
      if (!added.ok) throw new Error(JSON.stringify(added.error))
      const profile = added.value as Profile
      expect(profile.tokenStorage).toBe('keychain')
      await desk.value('sessions.refresh', { profileId: profile.id })

      // Another program (or the user, in Seahorse) deletes the item.
      expect(
        await createVault({ service: desk.keychainService }).delete(profile.id),
      ).toBeUndefined()

      const error = await desk.failure('sessions.refresh', { profileId: profile.id })
      expect(error.code).toBe('NOT_SIGNED_IN')
      expect(error.message).toBe(
        '"Kept in the keychain" is signed out: enter an access token to sign in again',
      )
      // The cached list is still there to read, and the app keeps answering.
      const cached = await desk.value<{ items: unknown[] }>('sessions.cached', {
        profileId: profile.id,
      })
      expect(cached.items.length).toBeGreaterThan(0)
      const { profiles } = await desk.value<{ profiles: Profile[] }>('profiles.list')
      expect(profiles.find((item) => item.id === profile.id)?.signedIn).toBe(false)
      // No copy of the token anywhere in the data folder.
      // Every file below it (the saved queries' folder is a folder of the data folder).
      for (const entry of readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue
        const file = path.join(entry.parentPath, entry.name)
        expect(readFileSync(file).includes(sandbox.tokens.admin), file).toBe(false)
      }
    } finally {
      await desk.close()
    }
  })
})

describe('process: web mode killed mid cache-write, then started again', () => {
  it('the cache opens without repair, the profiles are intact, the last list is readable', async () => {
    const dataDir = path.join(temp.dir, 'killed')
    mkdirSync(dataDir)
    const start = () => startWebMode(dataDir)
    const first = await start()
    const origin = first.url.origin
    const launchSecret = launchSecretOf(first.url)
    const call = async (base: string, key: string, channel: string, input: unknown) => {
      const response = await fetch(`${base}/__bridge/invoke/${channel}`, {
        method: 'POST',
        headers: { 'x-infradesk-secret': key, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      })
      return (await response.json()) as Result<unknown>
    }
    const added = await call(origin, launchSecret, 'profiles.add', {
      name: 'Survivor',
      baseUrl: sandbox.url,
      color: '#16a34a',
      protected: false,
      token: sandbox.tokens.admin,
      sessionOnly: false,
    })
    if (!added.ok) throw new Error(JSON.stringify(added.error))
    const profileId = (added.value as Profile).id
    const profilesBefore = readFileSync(path.join(dataDir, PROFILES_FILE_NAME), 'utf8')
    // One list stored before the kill, so "the last list is readable" has a list to find.
    const stored = (await call(origin, launchSecret, 'sessions.refresh', { profileId })) as Result<{
      items: { id: string }[]
    }>
    if (!stored.ok) throw new Error(JSON.stringify(stored.error))
    expect(stored.value.items.length).toBeGreaterThan(0)

    // Refreshes in flight, each a cache transaction, and SIGKILL while they run: no shutdown.
    const refreshes = Array.from({ length: 40 }, () =>
      call(origin, launchSecret, 'sessions.refresh', { profileId }).catch(() => null),
    )
    await new Promise((resolve) => setTimeout(resolve, 150))
    await first.kill()
    await Promise.all(refreshes)

    // The raw files first: SQLite's own integrity check, then the profiles file as written.
    const { cache, notices } = openCache(path.join(dataDir, CACHE_FILE_NAME))
    expect(notices).toEqual([])
    const list = cache.getList(profileId, 'sessions')
    expect(list, 'the sessions list stored before the kill').not.toBeNull()
    expect(list?.items.length).toBeGreaterThan(0)
    cache.close()
    expect(readFileSync(path.join(dataDir, PROFILES_FILE_NAME), 'utf8')).toBe(profilesBefore)

    const second = await start()
    try {
      const base = second.url.origin
      const key = launchSecretOf(second.url)
      const info = (await call(base, key, 'app.info', {})) as Result<{ notices: unknown[] }>
      expect(info.ok && info.value.notices).toEqual([])
      const listed = (await call(base, key, 'profiles.list', {})) as Result<{
        profiles: Profile[]
      }>
      expect(listed.ok && listed.value.profiles.map((profile) => profile.name)).toEqual([
        'Survivor',
      ])
      // Still signed in (the token is in the keychain), and the service answers again.
      const refreshed = (await call(base, key, 'sessions.refresh', { profileId })) as Result<{
        items: unknown[]
      }>
      expect(refreshed.ok && refreshed.value.items.length).toBeGreaterThan(0)
    } finally {
      await second.kill()
    }
  }, 120_000)

  it('a transfer left running by a killed process is shown as interrupted at the next start', async () => {
    // A separate process starts a transfer and is killed before it can finish it.
    const startTransferAndDie = (dataDir: string) => {
      mkdirSync(dataDir)
      const script = `
        const { openCache } = await import(${JSON.stringify(path.resolve('src/main/cache/index.ts'))})
        const { createTransferLog } = await import(${JSON.stringify(path.resolve('src/main/cache/transfers.ts'))})
        const { cache } = openCache(${JSON.stringify(path.join(dataDir, CACHE_FILE_NAME))})
        const log = createTransferLog(cache)
        const t = log.start({ profileId: 'p', profileName: 'P', kind: 'volume', label: 'node-1 / pgdata', source: {} })
        log.progress(t.id, 1234, 99999)
        process.kill(process.pid, 'SIGKILL')
      `
      const scriptFile = path.join(dataDir, 'start-transfer-and-die.mts')
      writeFileSync(scriptFile, script)
      const child = spawnSync(process.execPath, ['--import', 'tsx', scriptFile], {
        encoding: 'utf8',
      })
      expect(child.signal).toBe('SIGKILL')
    }

    const desk = await openTestDesk('faults-process', {}, { beforeOpen: startTransferAndDie })
    try {
      // The desk closed, not the harness: its folder stays to be read.
      await desk.desk.close()
      const { cache } = openCache(path.join(desk.dataDir, CACHE_FILE_NAME))
      const [transfer] = createTransferLog(cache).list({ limit: 10 })
      cache.close()
      expect(transfer?.state).toBe('interrupted')
      expect(transfer?.bytesDone).toBe(1234)
      expect(transfer?.finishedAt).not.toBeNull()
    } finally {
      await desk.close()
    }
  })
})

/* ------------------------------------------------------------------ disks */

function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false
  const probe = path.join(temp?.dir ?? '/tmp', `mount-probe-${process.pid}`)
  mkdirSync(probe, { recursive: true })
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]).status === 0
  if (mounted) spawnSync('umount', [probe])
  return mounted
}

const mountAllowed = (() => {
  try {
    return process.platform === 'linux' && process.getuid?.() === 0
  } catch {
    return false
  }
})()

describe.skipIf(!mountAllowed)('disk: the data folder on a full or read-only disk', () => {
  let mountPoint: string
  /** Its data folder is a small tmpfs mounted for the test. */
  let desk: TestDesk
  let profile: Profile

  beforeAll(async () => {
    if (!canMountTmpfs()) throw new Error('root, but mount -t tmpfs is not permitted here')
    const mountSmallDisk = (dataDir: string) => {
      mountPoint = dataDir
      mkdirSync(mountPoint)
      const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mountPoint])
      expect(mounted.status, mounted.stderr?.toString()).toBe(0)
    }
    desk = await openTestDesk(
      'faults-process-disk',
      {},
      { dataFolder: 'small-disk', beforeOpen: mountSmallDisk },
    )
    const added = await addProfile(desk, 'On a small disk', true)
    if (!added.ok) throw new Error(JSON.stringify(added.error))
    profile = added.value as Profile
    await desk.value('sessions.refresh', { profileId: profile.id })
  })

  afterEach(() => {
    spawnSync('mount', ['-o', 'remount,rw', mountPoint])
    spawnSync('rm', ['-f', path.join(mountPoint, 'filler')])
  })

  afterAll(async () => {
    // The desk first, then the disk under it, then the harness's folder the disk was mounted in.
    await desk?.desk.close()
    if (mountPoint) spawnSync('umount', [mountPoint])
    await desk?.close()
  })

  function fillDisk() {
    // dd stops at ENOSPC: the disk is then full to the last block.
    spawnSync('dd', ['if=/dev/zero', `of=${path.join(mountPoint, 'filler')}`, 'bs=4k'])
  }

  function snapshot() {
    return {
      profiles: readFileSync(path.join(mountPoint, PROFILES_FILE_NAME), 'utf8'),
      files: readdirSync(mountPoint)
        .filter((name) => name !== 'filler')
        .sort(),
    }
  }

  async function expectUnchangedAfter(
    work: () => Promise<Pick<BridgeError, 'code' | 'message'>>,
    code: string,
  ) {
    const before = snapshot()
    const error = await work()
    expect(error.code).toBe(code)
    expect(error.message).not.toContain('Something went wrong')
    // Nothing half-written: the same files (no temp file left), profiles.json byte for byte.
    expect(snapshot()).toEqual(before)
    return error
  }

  it.each([['full', 'DISK_FULL', fillDisk]] as const)(
    'a %s disk: clear errors, nothing half-written, and it all works again after',
    async (_label, code, breakDisk) => {
      const cachedBefore = await desk.value<{ items: { id: string }[] }>('sessions.cached', {
        profileId: profile.id,
      })
      breakDisk()
      await expectUnchangedAfter(
        () =>
          addProfile(desk, 'Another', true).then((result) =>
            result.ok ? Promise.reject(new Error('saved on a broken disk')) : result.error,
          ),
        code,
      )
      await expectUnchangedAfter(
        () => desk.failure('profiles.update', { id: profile.id, name: 'Renamed' }),
        code,
      )
      await expectUnchangedAfter(() => desk.failure('settings.update', { theme: 'dark' }), code)
      // The cache write of a refresh fails; the last good list stays readable.
      const refresh = await desk.call('sessions.refresh', { profileId: profile.id })
      expect(refresh).toMatchObject({ ok: false, error: { code } })
      const cached = await desk.value<{ items: { id: string }[] }>('sessions.cached', {
        profileId: profile.id,
      })
      expect(cached.items.map((item) => item.id)).toEqual(cachedBefore.items.map((item) => item.id))

      // Space (or write access) back: the same calls succeed, and a restart finds everything.
      spawnSync('mount', ['-o', 'remount,rw', mountPoint])
      spawnSync('rm', ['-f', path.join(mountPoint, 'filler')])
      await desk.value('settings.update', { theme: 'system' })
      await desk.value('sessions.refresh', { profileId: profile.id })
      const reopened = createProfileStore(path.join(mountPoint, PROFILES_FILE_NAME))
      expect(reopened.notices).toEqual([])
      expect(reopened.list().map((item) => item.name)).toEqual(['On a small disk'])
    },
  )

  it('a read-only data folder: the app refuses to open rather than run without its cache, files intact', async () => {
    await desk.desk.close()
    const before = snapshot()
    // A remount needs the files closed: the desk holds the SQLite file open for writing.
    const remounted = spawnSync('mount', ['-o', 'remount,ro', mountPoint], { encoding: 'utf8' })
    expect(remounted.status, remounted.stderr).toBe(0)
    // The cache file is made 0600 before SQLite opens it (data-folder.ts): that open is the one
    // the read-only file system refuses.
    // (`reopen` closes the desk again first, which a closed desk takes as done.)
    await expect(desk.reopen()).rejects.toMatchObject({ code: 'EROFS' })
    expect(snapshot()).toEqual(before)
    spawnSync('mount', ['-o', 'remount,rw', mountPoint])
    await desk.reopen()
    const { profiles } = await desk.value<{ profiles: Profile[] }>('profiles.list')
    expect(profiles.map((item) => item.name)).toEqual(['On a small disk'])
  })

  it('keeps the profile file whole even when the disk fills mid-write', () => {
    const file = path.join(mountPoint, PROFILES_FILE_NAME)
    const before = readFileSync(file, 'utf8')
    fillDisk()
    expect(() => writeFileSync(path.join(mountPoint, 'probe'), 'x'.repeat(8192))).toThrow(/ENOSPC/)
    expect(readFileSync(file, 'utf8')).toBe(before)
  })
})
