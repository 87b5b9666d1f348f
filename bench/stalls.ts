/*
 * `npm run bench -- stalls`: does the process that serves the bridge stall while heavy work
 * runs? The desk (the same core web mode and Electron run) is opened in this process, and its
 * event loop is watched with `monitorEventLoopDelay` (10 ms resolution) while each scenario
 * runs; meanwhile `app.info`, the smallest bridge call, is dispatched every 50 ms. Everything
 * the desk talks to lives in other processes: a sandbox (`--certificates 10000
 * --wide-sql-limits`), a plain server with a 10 MB session list, and the embedded sandbox,
 * which the desk starts itself (its own process since the issue "never stalls").
 *
 * A call's latency counts from when it was due (start + k * 50 ms), not from when the stalled
 * timer finally fired, so a stall shows in it in full.
 *
 * The service's processes (the sandbox, the sessions server) run at nice 10: a real service is
 * on another machine, and on two cores the sandbox building a 1 GiB archive (~4 s of CPU per
 * GiB) otherwise takes the core the app's loop needed, which the delay then counts as the app's
 * (bench/export.ts pins it to its own core for the same reason). The app's own processes (the
 * embedded sandbox, which the desk starts) keep their priority.
 * BENCH_STALLS_SERVICE_PRIORITY=shared runs the service at the app's priority (the older way, kept for comparison with bench/results/HISTORY.md).
 */
import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { z } from 'zod'
import { createDesk } from '../src/main/desk'
import type { Desk } from '../src/main/desk'
import { createVault } from '../src/main/vault'
import { startSandbox } from '../test/e2e/support/processes'
import type { ExternalSandbox } from '../test/e2e/support/processes'
import type { Bench, Figure } from './support'
import { round } from './support'
import { deprioritizeProcessTree } from './cores'
import { syntheticSessions } from './synthetic-sessions'

const PING_EVERY_MS = 50
/** How long a scenario is still watched after its work has ended. */
const SETTLE_MS = 250
/**
 * `BENCH_STALLS_ONLY=sessions,sql`: only the scenarios whose name begins with one of these
 * words (a before/after comparison of one change on a busy machine, runs taken close together).
 */
const ONLY = (process.env['BENCH_STALLS_ONLY'] ?? '')
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean)
const SERVICE_NICENESS = 10
const SERVICE_PRIORITY = z
  .enum(['lower', 'shared'])
  .parse(process.env['BENCH_STALLS_SERVICE_PRIORITY'] ?? 'lower')
const SESSION_COUNT = 46_781 // ~10 MB of JSON, as bench/lists.ts
const GIB = 1024 ** 3

interface Scenario {
  name: string
  /** Done outside the measured window (engines warmed, ids read). */
  prepare?: () => Promise<void>
  work: () => Promise<void>
}

interface Measured {
  name: string
  maxMs: number
  p99Ms: number
  pingP95Ms: number
  pings: number
  elapsedMs: number
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0
}

async function measureScenario(desk: Desk, scenario: Scenario): Promise<Measured> {
  await scenario.prepare?.()
  const delay = monitorEventLoopDelay({ resolution: 10 })
  const latencies: number[] = []
  const started = performance.now()
  let due = started
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const ping = async () => {
    const scheduled = due
    due += PING_EVERY_MS
    const result = await desk.dispatch('app.info', {})
    if (!result.ok) throw new Error(`app.info failed: ${result.error.message}`)
    latencies.push(performance.now() - scheduled)
    if (!stopped) timer = setTimeout(ping, Math.max(0, due - performance.now()))
  }
  delay.enable()
  timer = setTimeout(ping, 0)
  try {
    await scenario.work()
    // Measured on past the work's end: a stall in its last turn (a cache write just before the
    // answer) would otherwise end the scenario before the delayed timer and ping could see it.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
  } finally {
    stopped = true
    clearTimeout(timer)
    delay.disable()
  }
  return {
    name: scenario.name,
    maxMs: round(delay.max / 1e6),
    p99Ms: round(delay.percentile(99) / 1e6),
    pingP95Ms: round(percentile(latencies, 0.95)),
    pings: latencies.length,
    elapsedMs: round(performance.now() - started),
  }
}

/** A plain HTTP server in its own process answering GET /auth/me/sessions with `file`. */
async function startSessionsServer(file: string): Promise<{ url: string; child: ChildProcess }> {
  const script = `
    const body = require('node:fs').readFileSync(${JSON.stringify(file)})
    const server = require('node:http').createServer((request, response) => {
      const found = request.url === '/auth/me/sessions'
      response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' })
      response.end(found ? body : '{"code":"NOT_FOUND","message":"Not found"}')
    })
    server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port))
    process.on('disconnect', () => process.exit(0))`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      const match = /PORT (\d+)/.exec(text)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', () => reject(new Error('the sessions server exited')))
  })
  return { url: `http://127.0.0.1:${port}`, child }
}

function sessionsBody(): string {
  return JSON.stringify(syntheticSessions(SESSION_COUNT))
}

interface Seed {
  databases: { postgres: string[] }
  volumes: { nodeId: string; name: string; sizeBytes: number }[]
}

async function seedOf(sandbox: ExternalSandbox): Promise<Seed> {
  const response = await fetch(`${sandbox.url}/__sandbox/seed`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  return (await response.json()) as Seed
}

async function value<T>(desk: Desk, channel: string, input: unknown): Promise<T> {
  const result = await desk.dispatch(channel, input)
  if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** The call's Result as the transports get it (JSON bytes), checked to be ok, not parsed. */
async function valueJson(desk: Desk, channel: string, input: unknown): Promise<Buffer> {
  const bytes = await desk.dispatchJson(channel, input)
  if (!bytes.subarray(0, 10).toString('utf8').startsWith('{"ok":true')) {
    throw new Error(`${channel} failed: ${bytes.subarray(0, 300).toString('utf8')}`)
  }
  return bytes
}

/** Resolves with the first event `event` whose payload passes `matches`. */
function nextEvent(desk: Desk, event: string, matches: (payload: unknown) => boolean) {
  return new Promise<void>((resolve) => {
    const stop = desk.onEvent((name, payload) => {
      if (name !== event || !matches(payload)) return
      stop()
      resolve()
    })
  })
}

function fieldIs(key: string, expected: unknown) {
  return (payload: unknown) => (payload as Record<string, unknown> | null)?.[key] === expected
}

async function addProfile(desk: Desk, name: string, baseUrl: string, token: string) {
  const profile = await value<{ id: string }>(desk, 'profiles.add', {
    name,
    baseUrl,
    token,
    sessionOnly: true,
    color: '#2563eb',
    protected: false,
  })
  return profile.id
}

function scenarios(desk: Desk, ids: { sessions: string; sandbox: string }, seed: Seed): Scenario[] {
  const [large] = seed.databases.postgres
  const volume = seed.volumes.find((candidate) => candidate.sizeBytes >= GIB)
  if (large === undefined || volume === undefined)
    throw new Error('the seed lacks a database or volume')
  const sqlRun = (profileId: string, databaseId: string, sql: string, maxRows: number) =>
    value<{ resultId: string; complete: boolean }>(desk, 'sql.run', {
      profileId,
      databaseId,
      tabId: randomUUID(),
      runId: randomUUID(),
      sql,
      maxRows,
    })
  let embedded = { profileId: '', databaseId: '' }
  return [
    {
      name: 'sessions: a 10 MB list refreshed',
      // As both transports ask (web mode and Electron's IPC): the answer as JSON bytes.
      work: async () =>
        void (await valueJson(desk, 'sessions.refresh', { profileId: ids.sessions })),
    },
    {
      name: 'certificates: 10,000 refreshed into the cache',
      // As both transports ask (web mode and Electron's IPC): the answer as JSON bytes.
      work: async () =>
        void (await valueJson(desk, 'certificates.refresh', {
          profileId: ids.sandbox,
          filter: {},
        })),
    },
    {
      name: 'sql: a 100,000 x 20 result',
      prepare: async () => void (await sqlRun(ids.sandbox, large, 'select 1', 10)),
      work: async () => {
        const completed = nextEvent(desk, 'sql.result.completed', () => true)
        const meta = await sqlRun(ids.sandbox, large, 'select * from events order by id', 100_000)
        if (!meta.complete) await completed
      },
    },
    {
      name: `volumes: a ${round(volume.sizeBytes / GIB)} GiB export`,
      work: async () => {
        const transfer = await value<{ id: string }>(desk, 'volumes.export', {
          profileId: ids.sandbox,
          nodeId: volume.nodeId,
          name: volume.name,
        })
        await nextEvent(desk, 'transfers.finished', fieldIs('id', transfer.id))
      },
    },
    {
      name: 'embedded sandbox: a 5 s statement',
      prepare: async () => {
        const profile = await value<{ id: string }>(desk, 'sandbox.explore', {})
        const local = await value<Seed>(desk, 'sandbox.seed', {})
        const databaseId = local.databases.postgres[1] ?? local.databases.postgres[0] ?? ''
        embedded = { profileId: profile.id, databaseId }
        await sqlRun(profile.id, databaseId, 'select 1', 10)
      },
      work: async () =>
        void (await sqlRun(embedded.profileId, embedded.databaseId, 'select pg_sleep(5)', 10)),
    },
  ]
}

async function run() {
  const work = mkdtempSync(join(tmpdir(), 'infradesk-bench-stalls-'))
  const sessionsFile = join(work, 'sessions.json')
  writeFileSync(sessionsFile, sessionsBody())
  mkdirSync(join(work, 'downloads'))
  const sandbox = await startSandbox(['--certificates', '10000', '--wide-sql-limits'])
  const sessions = await startSessionsServer(sessionsFile)
  if (SERVICE_PRIORITY === 'lower' && process.platform === 'linux') {
    deprioritizeProcessTree(sandbox.pid, SERVICE_NICENESS)
    if (sessions.child.pid !== undefined) {
      deprioritizeProcessTree(sessions.child.pid, SERVICE_NICENESS)
    }
  }
  const desk = await createDesk({
    dataDir: join(work, 'data'),
    mode: 'web',
    openExternal: async () => undefined,
    vault: createVault({ service: `Infradesk-bench-stalls-${randomUUID()}` }),
    version: '0.0.0-bench',
    defaultDownloadsDir: join(work, 'downloads'),
    restoreSandbox: false,
    // No background refresh: a profile never read is read at once when added, which would run
    // beside what this bench measures.
    backgroundRefresh: false,
  })
  try {
    const ids = {
      sessions: await addProfile(desk, 'Big sessions', sessions.url, 'bench-token'),
      sandbox: await addProfile(desk, 'Sandbox', sandbox.url, sandbox.tokens.admin),
    }
    const measured: Measured[] = []
    const chosen = scenarios(desk, ids, await seedOf(sandbox)).filter(
      (scenario) => ONLY.length === 0 || ONLY.some((word) => scenario.name.startsWith(word)),
    )
    for (const scenario of chosen) {
      const result = await measureScenario(desk, scenario)
      console.log(
        `${result.name}: max ${result.maxMs} ms, p99 ${result.p99Ms} ms, ` +
          `app.info p95 ${result.pingP95Ms} ms (${result.pings} calls, ${result.elapsedMs} ms)`,
      )
      measured.push(result)
    }
    return { figures: figuresOf(measured), notes: notesOf() }
  } finally {
    await desk.close()
    sessions.child.kill()
    await sandbox.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

function figuresOf(measured: Measured[]): Figure[] {
  const worst = (pick: (item: Measured) => number) => Math.max(...measured.map(pick))
  const figures: Figure[] = [
    {
      name: 'worst stall (ms)',
      unit: 'ms',
      value: worst((item) => item.maxMs),
      runs: 1,
      target: '<= 50 ms',
    },
    {
      name: 'p99 delay (ms)',
      unit: 'ms',
      value: worst((item) => item.p99Ms),
      runs: 1,
      target: '<= 20 ms',
    },
    {
      name: 'app.info every 50 ms, p95 (worst scenario)',
      unit: 'ms',
      value: worst((item) => item.pingP95Ms),
      runs: 1,
      target: '<= 30 ms',
    },
  ]
  for (const item of measured) {
    figures.push(
      { name: `${item.name}: max delay`, unit: 'ms', value: item.maxMs, runs: 1 },
      { name: `${item.name}: p99 delay`, unit: 'ms', value: item.p99Ms, runs: 1 },
      { name: `${item.name}: app.info p95`, unit: 'ms', value: item.pingP95Ms, runs: item.pings },
      { name: `${item.name}: elapsed`, unit: 'ms', value: item.elapsedMs, runs: 1 },
    )
  }
  return figures
}

function notesOf(): string[] {
  return [
    'p99 delay (ms) is the largest of the scenarios\u2019 99th percentiles; worst stall the largest single delay.',
    'The desk runs in the bench\u2019s process (as in web mode, without the HTTP host\u2019s JSON writing).',
    SERVICE_PRIORITY === 'lower'
      ? `The service (sandbox, sessions server) at nice ${SERVICE_NICENESS}, as on its own machine; the app at its own priority.`
      : 'The service at the app\u2019s priority, sharing its cores (BENCH_STALLS_SERVICE_PRIORITY=shared).',
  ]
}

export default {
  title: 'Stalls of the bridge process while heavy work runs (event-loop delay, app.info latency)',
  run,
} satisfies Bench
