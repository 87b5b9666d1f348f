import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_ID } from '../../src/main/shell/app-identity'
import { deepLinkHash } from '../../src/main/shell/deep-link'
import { QUIT_LIMIT_MS } from '../../src/main/shell/quit'
import { SMOKE_OK } from '../../src/main/shell/smoke'
import { repoRoot } from '../support/sandbox-process'
import { makeTempDir, type TempDir } from '../support/tools'
import { builtPreload, builtRendererHtml, requireBuild } from './built-app'

/*
 * The BUILT main process (out/main/index.js), started as Electron would start it, with
 * `electron` mapped to a recording stand-in (test/shell/fake-electron) in a process of its own.
 * Everything else is real: the desk, SQLite, the keychain (run under scripts/with-keyring.mjs),
 * the built preload (each page load runs it), the IPC sender check. Each scenario is a script
 * (drive.mjs) that prints what happened; the assertions are here.
 */

interface Logged {
  what: string
  args: unknown[]
}

interface ScenarioResult {
  error?: string
  [key: string]: unknown
}

const harness = path.join(repoRoot, 'test', 'shell', 'fake-electron')

async function runScenario(
  name: 'desktop' | 'fatal' | 'smoke',
  dataFolder: string,
): Promise<{ result: ScenarioResult; stdout: string; stderr: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      path.join(harness, 'register.mjs'),
      path.join(harness, 'drive.mjs'),
      name,
      dataFolder,
    ],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  await new Promise((resolve) => child.once('close', resolve))
  const line = stdout.split('\n').find((text) => text.startsWith('RESULT '))
  if (line === undefined) throw new Error(`the scenario printed no result:\n${stdout}\n${stderr}`)
  return { result: JSON.parse(line.slice('RESULT '.length)) as ScenarioResult, stdout, stderr }
}

let temp: TempDir
beforeAll(async () => {
  requireBuild()
  temp = await makeTempDir('infradesk-fake-electron')
})
afterAll(async () => {
  await temp?.remove()
})

describe('the built main process on Windows, from start to quit', () => {
  let result: ScenarioResult
  beforeAll(async () => {
    ;({ result } = await runScenario('desktop', path.join(temp.dir, 'desktop')))
  }, 150_000)

  it('runs every step of the scenario', () => {
    expect(result.error).toBeUndefined()
    expect(result['failedSteps']).toBeUndefined()
  })

  it('sandboxes every renderer and names the app to Windows before ready', () => {
    const order = result['order'] as string[]
    expect(order.indexOf('app.enableSandbox')).toBeGreaterThanOrEqual(0)
    expect(order.indexOf('app.enableSandbox')).toBeLessThan(order.indexOf('ready'))
    // The installer's shortcuts carry the appId as AppUserModelID: toasts need the same.
    expect(result['appUserModelIds']).toEqual([APP_ID])
    expect(order.indexOf('app.setAppUserModelId')).toBeLessThan(order.indexOf('ready'))
  })

  it('registers no URL scheme at run time (the installers declare it)', () => {
    expect(result['protocolRegistrations']).toBe(0)
  })

  it('opens a locked-down window on the built page, with the built preload', () => {
    expect(result['webPreferences']).toEqual({
      preload: builtPreload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      disableBlinkFeatures: 'Auxclick',
    })
    const firstUrl = result['firstUrl'] as string
    expect(fileURLToPath(firstUrl)).toBe(builtRendererHtml)
    expect(existsSync(fileURLToPath(firstUrl))).toBe(true)
    expect(result['exposed']).toEqual(['infradesk'])
  })

  it("answers the page's bridge call with the real desk, and refuses any other sender", () => {
    expect(result['appInfo']).toMatchObject({ ok: true, value: { mode: 'desktop' } })
    expect(result['foreign']).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
  })

  it('delivers a deep link to the open page as a bridge event', () => {
    expect(result['deepLinkEvent']).toEqual({
      name: 'migrations.openResolve',
      payload: { id: '7d1c1b0e-4f7b-4d84-9d43-2f1f3c6f9a10' },
    })
  })

  it('shows a failed load, a crashed page and a failed preload, and shows the window', () => {
    const dialogs = result['dialogs'] as Array<{ message: string; buttons: string[] }>
    expect(dialogs.map((dialog) => dialog.buttons)).toEqual([
      ['Reload', 'Quit'],
      ['Reload', 'Quit'],
      ['Quit'],
    ])
    expect(dialogs[0]?.message).toMatch(/could not load its window/)
    expect(dialogs[1]?.message).toMatch(/stopped working/)
    expect(dialogs[2]?.message).toMatch(/preload/)
    expect(result['shownAfterFailure']).toBe(true)
  })

  it('opens a window for a second launch when none is open, at the route of its link', () => {
    expect(result['windowsOpened']).toBe(3)
    expect(result['linkWindowUrl'] as string).toMatch(
      new RegExp(
        `${escape(deepLinkHash({ kind: 'resolveMigration', id: '0b7e4a52-7a57-46a2-b5a8-9a5d1b6c2e31' }))}$`,
      ),
    )
  })

  it('quits within its limit while a request hangs, and relaunches a launch made meanwhile', () => {
    const quit = result['quit'] as {
      prevented: boolean
      callStillPendingWhenLeaving: boolean
      leftBy: Logged
      relaunch: { args: string[] } | null
    }
    // will-quit waited for the desk to close, but not for the hung request: the bridge call was
    // still pending when the app left (the limit, QUIT_LIMIT_MS, ended the wait, not the request's
    // own 30 s timeout, which is what closing the desk waits for).
    expect(quit.prevented).toBe(true)
    expect(quit.callStillPendingWhenLeaving).toBe(true)
    expect(quit.leftBy).toEqual({ what: 'app.exit', args: [0] })
    expect(QUIT_LIMIT_MS).toBeLessThan(30_000) // the request's own timeout
    // The launch that arrived while quitting (with its link) is started again once this one is gone.
    expect(quit.relaunch?.args).toContain(
      'infradesk://migrations/7d1c1b0e-4f7b-4d84-9d43-2f1f3c6f9a10/resolve',
    )
  })
})

describe('a start that fails', () => {
  it('says so in an error box, then exits 1', async () => {
    const { result } = await runScenario('fatal', path.join(temp.dir, 'fatal'))
    expect(result.error).toBeUndefined()
    const boxes = result['errorBoxes'] as string[][]
    expect(boxes).toHaveLength(1)
    expect(boxes[0]?.[0]).toBe('Infradesk could not start')
    expect(boxes[0]?.[1]).toMatch(/ENOTDIR/)
    expect(result['exitCodes']).toEqual([1])
  }, 90_000)
})

describe('--smoke', () => {
  it('calls app.info through the preload in the page, prints SMOKE_OK and quits', async () => {
    const { result, stdout } = await runScenario('smoke', path.join(temp.dir, 'smoke'))
    expect(result.error).toBeUndefined()
    const line = stdout.split('\n').find((text) => text.startsWith(`${SMOKE_OK} `))
    expect(line).toBeDefined()
    const report = JSON.parse(line?.slice(SMOKE_OK.length + 1) ?? '{}') as Record<string, unknown>
    expect(report).toMatchObject({ mode: 'desktop', version: '0.0.0-fake' })
    expect(typeof report['systemCas']).toBe('number')
    expect(result['ranInPage']).toBe(1)
    // The normal quit, on a throwaway data folder (never the user's).
    expect(result['ended']).toEqual({ what: 'app.quit', args: [] })
    expect(path.basename(result['userData'] as string)).toMatch(/^infradesk-smoke-/)
  }, 90_000)
})

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
