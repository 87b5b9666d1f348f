import { createHash } from 'node:crypto'
import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Desk } from '../../src/main/desk'
import type { BridgeError, Profile, Transfer } from '../../src/shared/bridge'
import { call, startSandboxProcess } from '../support/sandbox-process'
import type { SandboxProcess } from '../support/sandbox-process'
import { openTestDesk, type TestDesk } from '../support/desk'
import type { TempDir } from '../support/tools'

/*
 * Issue 9: a transfer under each network fault, end to end through the desk (the bridge handlers
 * the window calls), against a real sandbox process started with `--faults`, writing real files
 * into a temp folder and logging to a real SQLite transfers log.
 *
 * Every case ends in one of two ways, and nothing in between:
 *   - a complete file whose SHA-256 is the one the sandbox serves (a retry or a resume worked), or
 *   - a clear error (code and message saying what happened) with no file and no temp file left in
 *     the folder,
 * and the transfers-log row ends `completed` or `failed`, never left `running`.
 *
 * Writes are never retried by the app: certificate export (op 12) is a POST, so its rule must see
 * exactly one request per export. GETs may be retried (op 15, the archive download): the rule
 * counters (`GET /__sandbox/faults`) say how many attempts each fault saw. No timing is asserted.
 */

/** The service client's per-call timeout: latency and drips past it must end as TIMEOUT. */
const REQUEST_TIMEOUT_MS = 1_500
/** The download's waits, shortened so that five failed attempts take seconds, not minutes. */
const DOWNLOAD_TIMING = { headersTimeoutMs: 500, stallTimeoutMs: 500, retryDelayMs: 20 }
/** The smallest seeded volumes are 2 MiB of data: enough to resume, small for a busy machine. */
const VOLUME = 'grafana-data'

let sandbox: SandboxProcess
let harness: TestDesk
let temp: TempDir
let desk: Desk
let profile: Profile
let volume: { nodeId: string; name: string; sha256: string; sizeBytes: number }
let certificate: { id: string; sha256: string }
const finished = new Map<string, Transfer>()
const finishWaiters = new Map<string, (transfer: Transfer) => void>()

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--faults'])
  harness = await openTestDesk('transfer-faults', {
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    downloadTiming: DOWNLOAD_TIMING,
  })
  desk = harness.desk
  temp = harness.temp
  desk.onEvent((event, payload) => {
    if (event !== 'transfers.finished') return
    const transfer = payload as Transfer
    finished.set(transfer.id, transfer)
    finishWaiters.get(transfer.id)?.(transfer)
  })
  profile = await harness.addProfile(sandbox, {
    name: 'Faulty network',
    color: '#2563eb',
    sessionOnly: true,
  })

  // What a good transfer must produce, asked of the sandbox directly (no fault rule is set yet).
  const seeded = sandbox.seed.volumes.find((candidate) => candidate.name === VOLUME)
  if (seeded === undefined) throw new Error(`no seeded volume ${VOLUME}`)
  const exported = await call(sandbox, {
    path: `/api/docker/nodes/${encodeURIComponent(seeded.nodeId)}/volumes/${VOLUME}/export`,
  })
  expect(exported.status, exported.text()).toBe(200)
  const data = (exported.json as { data: { sha256: string; sizeBytes: number } }).data
  volume = { nodeId: seeded.nodeId, name: VOLUME, sha256: data.sha256, sizeBytes: data.sizeBytes }

  const certificateId = sandbox.seed.certificates.withPrivateKey[0] as string
  const pem = await call(sandbox, {
    method: 'POST',
    path: `/api/certificates/${encodeURIComponent(certificateId)}/export`,
    body: { format: 'pem' },
    headers: { accept: 'application/octet-stream' },
  })
  expect(pem.status, pem.text()).toBe(200)
  certificate = { id: certificateId, sha256: sha256Hex(pem.bytes) }
})

afterAll(async () => {
  await harness?.close()
  await sandbox?.stop()
})

afterEach(async () => {
  await call(sandbox, { method: 'DELETE', path: '/__sandbox/faults' })
})

/* ------------------------------------------------------------------ faults */

type Where = 'op15' | 'download' | 'op12'

interface FaultRule {
  where: Where
  fault: string
  times?: number
}

const RULE_TARGETS: Record<Where, Record<string, string>> = {
  op15: { operation: 'exportVolume' },
  download: { method: 'GET', path: '/downloads/volumes/*' },
  op12: { operation: 'exportCertificate' },
}

async function setFaults(rules: FaultRule[]): Promise<void> {
  const body = {
    rules: rules.map(({ where, fault, times }) => ({
      ...RULE_TARGETS[where],
      fault,
      ...(times === undefined ? {} : { times }),
    })),
  }
  const answer = await call(sandbox, { method: 'POST', path: '/__sandbox/faults', body })
  expect(answer.status, answer.text()).toBe(201)
}

/** How many requests each rule saw, in the order they were set. */
async function seen(): Promise<number[]> {
  const answer = await call(sandbox, { path: '/__sandbox/faults' })
  return (answer.json as { rules: { seen: number }[] }).rules.map((rule) => rule.seen)
}

/* --------------------------------------------------------------- transfers */

interface Outcome {
  /** The file the app wrote, when it says it wrote one. */
  path?: string
  error?: BridgeError
  /** The transfers-log row of this export, as it is once the export is over. */
  row?: Transfer
}

let folderCount = 0
/** A new, empty downloads folder (web mode saves there), so "nothing left" is exact. */
async function freshDownloadsFolder(): Promise<string> {
  folderCount += 1
  const folder = path.join(temp.dir, `downloads-${folderCount}`)
  await mkdir(folder)
  const updated = await desk.dispatch('settings.update', { downloadsDir: folder })
  if (!updated.ok) throw new Error(JSON.stringify(updated.error))
  return folder
}

async function transferIds(): Promise<Set<string>> {
  return new Set((await transfers()).map((transfer) => transfer.id))
}

async function transfers(): Promise<Transfer[]> {
  const listed = await desk.dispatch('transfers.list', { profileId: profile.id, limit: 1000 })
  if (!listed.ok) throw new Error(JSON.stringify(listed.error))
  return listed.value as Transfer[]
}

/** The rows this export added to the log (one, whatever happened). */
async function newRows(before: Set<string>): Promise<Transfer[]> {
  return (await transfers()).filter((transfer) => !before.has(transfer.id))
}

/** Guards every wait: a transfer that never ends is a failure that says so, not a stuck run. */
const HANG_MS = 45_000

function waitFinished(transferId: string): Promise<Transfer> {
  const already = finished.get(transferId)
  if (already !== undefined) return Promise.resolve(already)
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      finishWaiters.delete(transferId)
      reject(new Error(`transfer ${transferId} did not end within ${HANG_MS} ms (a hang)`))
    }, HANG_MS)
    finishWaiters.set(transferId, (transfer) => {
      clearTimeout(timer)
      finishWaiters.delete(transferId)
      resolve(transfer)
    })
  })
}

/** `volumes.export`, then the background download to its end (the `transfers.finished` event). */
async function exportVolume(): Promise<Outcome> {
  const before = await transferIds()
  const started = await desk.dispatch('volumes.export', {
    profileId: profile.id,
    nodeId: volume.nodeId,
    name: volume.name,
  })
  if (!started.ok) return { error: started.error, row: await onlyRow(before) }
  const ended = await waitFinished((started.value as Transfer).id)
  const row = await onlyRow(before)
  expect(row?.id).toBe(ended.id)
  if (ended.state === 'completed') return { path: ended.destination ?? undefined, row }
  return {
    error: { code: ended.errorCode ?? '(none)', message: ended.errorMessage ?? '(none)' },
    row,
  }
}

/** `certificates.export` (op 12, pem), which answers once the file is written or has failed. */
async function exportCertificate(): Promise<Outcome> {
  const before = await transferIds()
  const result = await desk.dispatch('certificates.export', {
    profileId: profile.id,
    id: certificate.id,
    format: 'pem',
  })
  const row = await onlyRow(before)
  if (!result.ok) return { error: result.error, row }
  return { path: (result.value as { path: string }).path, row }
}

async function onlyRow(before: Set<string>): Promise<Transfer | undefined> {
  const rows = await newRows(before)
  expect(rows.length, 'one transfers-log row per export').toBeLessThanOrEqual(1)
  return rows[0]
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/* -------------------------------------------------------------- assertions */

/** What a case must end with: the complete file, or this error. */
type Expected = 'file' | { code: string; message: RegExp; status?: number }

async function expectOutcome(
  folder: string,
  outcome: Outcome,
  expected: Expected,
  sha256: string,
): Promise<void> {
  const left = await readdir(folder)
  if (expected === 'file') {
    expect(outcome.error, 'the export should have succeeded').toBeUndefined()
    expect(outcome.path).toBeDefined()
    // The file, under its own name, and nothing else (no temp file beside it).
    expect(left).toEqual([path.basename(outcome.path as string)])
    expect(path.dirname(outcome.path as string)).toBe(folder)
    expect(sha256Hex(await readFile(outcome.path as string))).toBe(sha256)
    expect(outcome.row).toMatchObject({ state: 'completed', sha256, destination: outcome.path })
    return
  }
  expect(outcome.path, 'the export should have failed').toBeUndefined()
  expect(outcome.error?.code, outcome.error?.message).toBe(expected.code)
  expect(outcome.error?.message).toMatch(expected.message)
  // Never the generic "something went wrong" of an unexpected crash.
  expect(outcome.error?.message).not.toContain('Something went wrong inside Infradesk')
  if (expected.status !== undefined && outcome.error?.status !== undefined) {
    expect(outcome.error.status).toBe(expected.status)
  }
  // No file and no temp file (.infradesk-*.part) left behind.
  expect(left).toEqual([])
  expect(outcome.row).toMatchObject({
    state: 'failed',
    errorCode: expected.code,
    sha256: null,
  })
  expect(outcome.row?.errorMessage).toMatch(expected.message)
}

async function expectNothingRunning(): Promise<void> {
  const running = (await transfers()).filter((transfer) => transfer.state === 'running')
  expect(running).toEqual([])
  const active = await desk.dispatch('transfers.active', {})
  expect(active.ok && active.value).toEqual([])
}

/* ------------------------------------------------------------------- cases */

const IN_TIME = /No answer from http:\/\/127\.0\.0\.1:\d+ within 1500 ms/
const GATEWAY: Record<number, RegExp> = {
  502: /answered HTTP 502 \(Bad Gateway/,
  503: /answered HTTP 503 \(Service Unavailable/,
  504: /answered HTTP 504 \(Gateway Timeout/,
}
const GAVE_UP = 'The download failed 5 times in a row without progress'

/** [what, fault rules, the outcome, the requests each rule saw]. */
type Case = [what: string, rules: FaultRule[], expected: Expected, seen: number[]]

const on = (where: Where, fault: string, times?: number): FaultRule =>
  times === undefined ? { where, fault } : { where, fault, times }

/**
 * The faults an operation's own call meets alike for op 15 and op 12. `attempts` is how many
 * requests a fault that lasts sees: 3 for a GET the app retries, 1 for a POST it never does.
 */
function faultsOfTheCall(
  rules: (fault: string) => FaultRule[],
  attempts: number,
  name: (what: string) => string,
): Case[] {
  return [
    ['latency past the timeout', rules('latency=3000'), { code: 'TIMEOUT', message: IN_TIME }, [1]],
    ['a slow drip within the timeout', rules('drip=1'), 'file', [1]],
    ['a slow drip past the timeout', rules('drip=400'), { code: 'TIMEOUT', message: IN_TIME }, [1]],
    ...[502, 503, 504].map((status): Case => [
      name(`${status} that lasts`),
      rules(`status=${status}`),
      { code: 'INTERNAL_ERROR', message: GATEWAY[status] as RegExp, status },
      [attempts],
    ]),
    [
      name('a connection reset'),
      rules('reset'),
      { code: 'OFFLINE', message: /connection reset|closed by the other side/ },
      [attempts],
    ],
    [
      name('an answer cut after 40 bytes'),
      rules('cut=40'),
      { code: 'OFFLINE', message: /broke while the answer was arriving \(after 40 bytes/ },
      [attempts],
    ],
  ]
}

/**
 * One case: its faults set, one export, then the outcome, the requests each rule saw, and
 * nothing left running.
 */
async function runCase(
  rules: FaultRule[],
  expected: Expected,
  requests: number[],
  exportOnce: () => Promise<Outcome>,
  sha256: () => string,
): Promise<void> {
  const folder = await freshDownloadsFolder()
  await setFaults(rules)
  const outcome = await exportOnce()
  await expectOutcome(folder, outcome, expected, sha256())
  expect(await seen()).toEqual(requests)
  await expectNothingRunning()
}

describe('volume export (op 15, a GET) under each fault of the export call', () => {
  const op15 = (fault: string, times?: number) => [on('op15', fault, times)]
  const cases: Case[] = [
    ...faultsOfTheCall(op15, 3, (what) => `${what} (retried, then named)`),
    [
      '500 (not retried: the service said no)',
      op15('status=500'),
      { code: 'INTERNAL_ERROR', message: /^Internal server error$/, status: 500 },
      [1],
    ],
    [
      'malformed JSON',
      op15('malformed-json'),
      { code: 'BAD_RESPONSE', message: /exportVolume \(operation 15\).*not JSON/ },
      [1],
    ],
    ['503 on 2 attempts, then cleared: the retry succeeds', op15('status=503', 2), 'file', [3]],
    ['a reset on 2 attempts, then cleared: the retry succeeds', op15('reset', 2), 'file', [3]],
    ['a cut on 2 attempts, then cleared: the retry succeeds', op15('cut=40', 2), 'file', [3]],
  ]

  it.each(cases)('%s', (_what, rules, expected, requests) =>
    runCase(rules, expected, requests, exportVolume, () => volume.sha256),
  )
})

describe('volume export under each fault of the archive download (/downloads/volumes/*)', () => {
  const download = (fault: string, times?: number) => [on('download', fault, times)]
  const cases: Case[] = [
    [
      'latency past the headers timeout (5 attempts, then named)',
      download('latency=2000'),
      {
        code: 'TIMEOUT',
        message: new RegExp(
          `^${GAVE_UP} \\(No answer from http://127\\.0\\.0\\.1:\\d+ within 500 ms\\)`,
        ),
      },
      [5],
    ],
    [
      'a slow drip within the timeout (the last 4 KiB, after a cut): resumed to the end',
      // Dripping 2 MiB 16 bytes at a time would take minutes; a dripped tail is the same path.
      [on('download', `cut=${2 * 1024 * 1024 - 4096}`, 1), on('download', 'drip=1', 1)],
      'file',
      [2, 2],
    ],
    [
      'a slow drip past the stall timeout (5 stalled attempts, then named)',
      download('drip=2000'),
      {
        code: 'TIMEOUT',
        message: new RegExp(`^${GAVE_UP} \\(The download from .* stalled: no data for 500 ms\\)`),
      },
      [5],
    ],
    [
      '500 that lasts (a GET: retried, then named)',
      download('status=500'),
      {
        code: 'INTERNAL_ERROR',
        message: new RegExp(`^${GAVE_UP} \\(Internal server error\\)`),
        status: 500,
      },
      [5],
    ],
    ...[502, 503, 504].map((status): Case => [
      `${status} that lasts (retried, then named)`,
      download(`status=${status}`),
      {
        code: 'INTERNAL_ERROR',
        message: new RegExp(`^${GAVE_UP} \\(.*${(GATEWAY[status] as RegExp).source}`),
        status,
      },
      [5],
    ]),
    [
      'a connection reset that lasts (retried, then named)',
      download('reset'),
      { code: 'OFFLINE', message: new RegExp(`^${GAVE_UP} \\(.*(connection reset|closed)`) },
      [5],
    ],
    [
      'a cut after 1000 bytes on every attempt (too little progress: given up, named)',
      download('cut=1000'),
      {
        code: 'OFFLINE',
        message: new RegExp(
          `^${GAVE_UP} \\(The connection to http://127\\.0\\.0\\.1:\\d+ broke during the download, after 1000 bytes`,
        ),
      },
      [5],
    ],
    [
      'a cut after 256 KiB on 3 attempts, then cleared: resumed with Range to the end',
      download(`cut=${256 * 1024}`, 3),
      'file',
      [4],
    ],
    [
      'a corrupted body (malformed-json spoils its first byte): the hash refuses it',
      download('malformed-json'),
      {
        code: 'INTEGRITY_ERROR',
        message: /SHA-256 is [0-9a-f]{64}, but the service announced .*the file was deleted/,
      },
      [1],
    ],
    ['503 on 3 attempts, then cleared: the retry succeeds', download('status=503', 3), 'file', [4]],
    ['500 on 2 attempts, then cleared: the retry succeeds', download('status=500', 2), 'file', [3]],
    ['a reset on 4 attempts, then cleared: the retry succeeds', download('reset', 4), 'file', [5]],
    [
      'latency past the timeout on 2 attempts, then cleared: the retry succeeds',
      download('latency=2000', 2),
      'file',
      [3],
    ],
    [
      'a stall on 2 attempts, then cleared: the resume succeeds',
      download('drip=2000', 2),
      'file',
      [3],
    ],
  ]

  it.each(cases)('%s', (_what, rules, expected, requests) =>
    runCase(rules, expected, requests, exportVolume, () => volume.sha256),
  )

  it('a cancel during a slow drip: the row ends cancelled, no file and no temp file', async () => {
    const folder = await freshDownloadsFolder()
    // Slow but never stalled (16 bytes every 50 ms): only the cancel can end it.
    await setFaults(download('drip=50'))
    const before = await transferIds()
    const started = await desk.dispatch('volumes.export', {
      profileId: profile.id,
      nodeId: volume.nodeId,
      name: volume.name,
    })
    if (!started.ok) throw new Error(JSON.stringify(started.error))
    const transfer = started.value as Transfer
    const cancelled = await desk.dispatch('transfers.cancel', { transferId: transfer.id })
    expect(cancelled.ok && cancelled.value).toEqual({ cancelled: true })
    const ended = await waitFinished(transfer.id)
    expect(ended).toMatchObject({ state: 'cancelled', errorCode: 'CANCELLED', sha256: null })
    expect(await onlyRow(before)).toMatchObject({ id: transfer.id, state: 'cancelled' })
    expect(await readdir(folder)).toEqual([])
    await expectNothingRunning()
  })
})

describe('volume export into the default downloads folder', () => {
  it('makes the default folder when it is missing, and completes', async () => {
    // A headless machine often has no ~/Downloads: the default (the desk's) is made on use.
    const updated = await desk.dispatch('settings.update', { downloadsDir: harness.downloads })
    if (!updated.ok) throw new Error(JSON.stringify(updated.error))
    await rm(harness.downloads, { recursive: true, force: true })
    const outcome = await exportVolume()
    expect(outcome.error).toBeUndefined()
    expect(path.dirname(outcome.path ?? '')).toBe(harness.downloads)
    expect(sha256Hex(await readFile(outcome.path ?? ''))).toBe(volume.sha256)
    expect(outcome.row).toMatchObject({ state: 'completed' })
  })
})

describe('certificate export (op 12, a POST: never retried by the app) under each fault', () => {
  const op12 = (fault: string, times?: number) => [on('op12', fault, times)]
  const cases: Case[] = [
    ...faultsOfTheCall(op12, 1, (what) => what),
    [
      '500',
      op12('status=500'),
      { code: 'INTERNAL_ERROR', message: /^Internal server error$/, status: 500 },
      [1],
    ],
    [
      'a corrupted body (malformed-json spoils its first byte): refused, not saved',
      op12('malformed-json'),
      { code: 'BAD_RESPONSE', message: /exportCertificate \(operation 12\).*not a PEM file/ },
      [1],
    ],
  ]

  it.each(cases)('%s', (_what, rules, expected, requests) =>
    runCase(rules, expected, requests, exportCertificate, () => certificate.sha256),
  )

  /** [what, fault, the error of the first export]: the user's retry then gets the file. */
  const onceThenCleared: [string, string, Exclude<Expected, 'file'>][] = [
    ['503', 'status=503', { code: 'INTERNAL_ERROR', message: GATEWAY[503] as RegExp }],
    ['a reset', 'reset', { code: 'OFFLINE', message: /connection reset|closed by the other side/ }],
    ['latency past the timeout', 'latency=3000', { code: 'TIMEOUT', message: IN_TIME }],
  ]

  it.each(onceThenCleared)(
    "%s on 1 attempt, then cleared: not retried by the app; the user's retry gets the file",
    async (_what, fault, firstError) => {
      const folder = await freshDownloadsFolder()
      await setFaults(op12(fault, 1))
      const first = await exportCertificate()
      await expectOutcome(folder, first, firstError, certificate.sha256)
      expect(await seen()).toEqual([1])
      const second = await exportCertificate()
      await expectOutcome(folder, second, 'file', certificate.sha256)
      expect(await seen()).toEqual([2])
      await expectNothingRunning()
    },
  )
})
