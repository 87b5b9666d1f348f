/*
 * What the bridge costs on top of the work it carries. The same call three ways:
 *   direct      the core function the handler runs (no bridge at all);
 *   dispatcher  desk.dispatch: channel lookup, zod validation of the input, the handler, the
 *               Result envelope — the whole main-process side of BOTH transports;
 *   web         a real HTTP POST over loopback to the web host (secret check, JSON both ways).
 * Electron IPC cannot run on this machine (no Electron binary): its cost is the dispatcher's
 * plus Electron's structured clone, which is not measured here (see bench/README.md).
 * Two payloads: app.info (a few hundred bytes) and sessions.cached with 1,000 sessions.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CACHE_FILE_NAME, openCache } from '../src/main/cache'
import { createDesk } from '../src/main/desk'
import { createVault } from '../src/main/vault'
import { startWebHost } from '../src/main/web/host'
import { SECRET_HEADER } from '../src/main/web/guard'
import { startSandbox } from '../src/sandbox'
import type { RunningSandbox } from '../src/sandbox'
import type { Bench, Figure } from './support'
import { measure, rate, round } from './support'

const SECRET = 'bench-secret-0123456789abcdefghijklmnopqrstuvwxyz'

async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'infradesk-bench-bridge-'))
  const desk = await createDesk({
    dataDir: dir,
    mode: 'web',
    openExternal: async () => undefined,
    // Never used: the bench signs in to nothing. A throwaway service name keeps it off real items.
    vault: createVault({ service: `Infradesk-bench-${process.pid}` }),
    version: '0.0.0-bench',
    restoreSandbox: false,
    defaultDownloadsDir: dir,
    // No background refresh: a profile never read is read at once when added, which would run
    // beside what this bench measures.
    backgroundRefresh: false,
  })
  const rendererDir = join(dir, 'renderer')
  const host = await startWebHost({ desk, rendererDir, port: 0, secret: SECRET })
  const figures: Figure[] = []
  let sandbox: RunningSandbox | null = null
  try {
    // A signed-in profile (on an in-process sandbox) with 1,000 cached sessions, written to the
    // desk's own cache file through a second connection, as a refresh would have left them.
    sandbox = await startSandbox({ port: 0 })
    const added = await desk.dispatch('profiles.add', {
      name: 'Bench',
      baseUrl: sandbox.url,
      color: '#2563eb',
      protected: false,
      token: sandbox.tokens.admin,
      sessionOnly: true,
    })
    if (!added.ok) throw new Error(`could not add the profile: ${added.error.message}`)
    const profileId = (added.value as { id: string }).id
    const { cache } = openCache(join(dir, CACHE_FILE_NAME))
    const sessions = Array.from({ length: 1000 }, (_, index) => ({
      id: `session-${index}`,
      authMethod: 'oidc',
      createdAt: Date.now(),
      lastSeenAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
      ipAddress: '127.0.0.1',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) bench',
      mfaSatisfiedAt: null,
      isCurrent: index === 0,
    }))
    cache.putList(profileId, 'sessions', sessions, Date.now())

    const web = async (channel: string, input: unknown) => {
      const response = await fetch(`${host.origin}/__bridge/invoke/${channel}`, {
        method: 'POST',
        headers: { [SECRET_HEADER]: SECRET, 'content-type': 'application/json' },
        body: JSON.stringify(input),
      })
      const result = (await response.json()) as { ok: boolean }
      if (!result.ok) throw new Error(`${channel} failed over the web transport`)
    }
    const dispatch = async (channel: string, input: unknown) => {
      const result = await desk.dispatch(channel, input)
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
    }
    const cases: [string, string, unknown, () => unknown][] = [
      ['app.info', 'app.info', {}, () => ({ mode: 'web', version: '0.0.0-bench', notices: [] })],
      [
        'sessions.cached (1,000 rows)',
        'sessions.cached',
        { profileId },
        () => cache.getList(profileId, 'sessions'),
      ],
    ]
    for (const [label, channel, input, direct] of cases) {
      const directFigure = await measure(`${label}: direct call`, 200, direct, { warmup: 20 })
      const dispatched = await measure(
        `${label}: dispatcher`,
        200,
        () => dispatch(channel, input),
        {
          warmup: 20,
        },
      )
      const overWeb = await measure(`${label}: web transport`, 200, () => web(channel, input), {
        warmup: 20,
      })
      figures.push(directFigure, dispatched, overWeb)
      figures.push({
        name: `${label}: added by the dispatcher`,
        unit: 'ms',
        value: round(dispatched.value - directFigure.value),
        runs: 200,
        target: '< 1 ms',
      })
      figures.push({
        name: `${label}: added by the web transport`,
        unit: 'ms',
        value: round(overWeb.value - directFigure.value),
        runs: 200,
        target: label.startsWith('app.info') ? '< 5 ms' : '< 50 ms',
      })
      figures.push(
        await rate(`${label}: dispatcher round trips`, 1000, () => dispatch(channel, input)),
      )
      figures.push(await rate(`${label}: web round trips`, 1000, () => web(channel, input)))
    }
    cache.close()
  } finally {
    await host.close()
    await desk.close()
    await sandbox?.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return {
    figures,
    notes: [
      'Electron IPC is not measured: the Electron binary cannot run on this machine. Its main-process side is the dispatcher figure; ipcRenderer.invoke adds a structured clone and a process hop.',
    ],
  }
}

export default {
  title: 'bridge: round trips and added latency, dispatcher and web transport',
  run,
} satisfies Bench
