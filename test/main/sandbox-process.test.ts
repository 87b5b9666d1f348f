import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hostEntry, startSandboxProcess } from '../../src/main/sandbox-process/launch'
import type { SandboxProcess } from '../../src/main/sandbox-process/launch'
import type { Profile, Result } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { repoRoot } from '../support/sandbox-process'
import { makeTempDir } from '../support/tools'

/*
 * The embedded sandbox in a process of its own (src/main/sandbox-process): PGlite runs a
 * statement synchronously, so in the app's process `select pg_sleep(n)` stalled every bridge
 * call and Cancel for n seconds. These tests hold the process apart, its lifetime to the app's,
 * and Cancel to answering at once.
 */

const LAUNCH_URL = pathToFileURL(path.join(repoRoot, 'src/main/sandbox-process/launch.ts')).href
const TSX_URL = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return check()
}

async function postgresIds(sandbox: SandboxProcess): Promise<string[]> {
  const seed = (await sandbox.seed()) as { databases: { postgres: string[] } }
  return seed.databases.postgres
}

describe('the sandbox process', () => {
  let sandbox: SandboxProcess

  beforeAll(async () => {
    sandbox = await startSandboxProcess({ host: '127.0.0.1', port: 0 })
  }, 120_000)

  afterAll(async () => {
    await sandbox?.close()
  })

  it('serves the service from another process; seed and reset go over IPC', async () => {
    expect(sandbox.pid).toBeTypeOf('number')
    expect(sandbox.pid).not.toBe(process.pid)
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const sessions = await fetch(`${sandbox.url}/auth/me/sessions`, {
      headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
    })
    expect(sessions.status).toBe(200)
    expect((await postgresIds(sandbox)).length).toBeGreaterThan(0)
    await expect(sandbox.reset()).resolves.toBeUndefined()
  })

  it('a long statement there leaves this event loop free; an aborted request ends', async () => {
    const [databaseId] = await postgresIds(sandbox)
    const controller = new AbortController()
    const running = fetch(`${sandbox.url}/api/databases/${databaseId}/postgres/query`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.tokens.admin}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ sql: 'select pg_sleep(20)' }),
      signal: controller.signal,
    })
    const outcome = running.then(
      () => 'answered',
      () => 'aborted',
    )
    // This timer fires while the statement runs only if this process's loop is free: were the
    // database in this process, it would fire after the 20 s statement, the answer already in.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    controller.abort()
    expect(await outcome).toBe('aborted')
  }, 60_000)

  it('ends when closed', async () => {
    const other = await startSandboxProcess({ host: '127.0.0.1', port: 0 })
    const pid = other.pid ?? 0
    expect(isAlive(pid)).toBe(true)
    await other.close()
    await other.exited
    expect(await waitUntil(() => !isAlive(pid), 5_000)).toBe(true)
    await expect(other.seed()).rejects.toThrow(/ended/)
  }, 120_000)
})

it('exits by itself when the app that started it dies (no orphan)', async () => {
  // An "app" that starts a sandbox process, prints its pid, then is killed without a word.
  const app = spawn(
    process.execPath,
    [
      '--import',
      TSX_URL,
      '--input-type=module',
      '-e',
      `const { startSandboxProcess } = await import(${JSON.stringify(LAUNCH_URL)})
       const sandbox = await startSandboxProcess({ host: '127.0.0.1', port: 0 })
       process.stdout.write('PID ' + sandbox.pid + '\\n')
       setInterval(() => undefined, 1000)`,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const pid = await new Promise<number>((resolve, reject) => {
    let text = ''
    app.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk
      const match = /PID (\d+)/.exec(text)
      if (match) resolve(Number(match[1]))
    })
    app.once('exit', (code) => reject(new Error(`the app exited first (${String(code)})`)))
  })
  expect(isAlive(pid)).toBe(true)
  app.kill('SIGKILL')
  // The IPC channel closes with the app: the sandbox sees 'disconnect' and exits.
  expect(await waitUntil(() => !isAlive(pid), 10_000)).toBe(true)
}, 120_000)

it('finds the built host beside or above the chunk the launcher was bundled into', async () => {
  const temp = await makeTempDir('infradesk-host-entry')
  try {
    const main = path.join(temp.dir, 'out', 'main')
    await mkdir(path.join(main, 'chunks'), { recursive: true })
    await writeFile(path.join(main, 'sandbox-host.js'), '')
    const fromChunk = hostEntry(pathToFileURL(path.join(main, 'chunks', 'desk-x.js')).href)
    expect(fromChunk).toEqual({ modulePath: path.join(main, 'sandbox-host.js'), execArgv: [] })
    const fromSource = hostEntry(LAUNCH_URL)
    expect(fromSource.modulePath).toBe(path.join(repoRoot, 'src/main/sandbox-process/host.ts'))
    expect(fromSource.execArgv).toEqual(['--import', TSX_URL])
    expect(() => hostEntry(pathToFileURL(path.join(temp.dir, 'x.js')).href)).toThrow(
      /sandbox-host\.js/,
    )
  } finally {
    await temp.remove()
  }
})

describe('the desk with its embedded sandbox', () => {
  let desk: TestDesk

  beforeAll(async () => {
    desk = await openTestDesk('sandbox-process')
  })

  afterAll(async () => {
    await desk?.close()
  })

  it('sql.cancel answers the waiting sql.run at once; other calls are not held up', async () => {
    const profile = await desk.value<Profile>('sandbox.explore')
    const seed = await desk.value<{ databases: { postgres: string[] } }>('sandbox.seed')
    const databaseId = seed.databases.postgres[1] ?? seed.databases.postgres[0]
    const runId = randomUUID()
    const run = desk.call('sql.run', {
      profileId: profile.id,
      databaseId,
      tabId: randomUUID(),
      runId,
      sql: 'select pg_sleep(30)',
      maxRows: 10,
    })
    await new Promise((resolve) => setTimeout(resolve, 3_000))

    // Ordering, not timing: another call is answered while the statement still runs.
    let settled = false
    void run.then(() => {
      settled = true
    })
    await desk.value('app.info')
    expect(settled).toBe(false)

    // Cancel answers the waiting call before the 30 s statement could: an answer that had
    // arrived would be a success, not CANCELLED.
    expect(await desk.value('sql.cancel', { runId })).toEqual({ cancelled: true })
    const result: Result<unknown> = await run
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'CANCELLED',
        message: expect.stringMatching(/may still finish on the server/),
      },
    })
  }, 120_000)
})
