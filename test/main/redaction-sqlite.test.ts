import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME } from '../../src/main/cache'
import type { BridgeError, Profile, Transfer } from '../../src/shared/bridge'
import { call, startSandboxProcess } from '../support/sandbox-process'
import type { SandboxProcess } from '../support/sandbox-process'
import { openTestDesk, type TestDesk } from '../support/desk'
import { tokenLeaks } from '../support/token-forms'

/*
 * End to end: a service (or a proxy in front of it) that answers an export
 * with an error quoting the Authorization header, base64-encoded or otherwise, must leave none
 * of the token in what the window is told nor in any file of the data folder (the SQLite
 * transfers and activity logs above all). A real sandbox process with `--faults` answers with
 * `echo-auth=FORM` (src/sandbox/faults.ts); its admin token is one whose characters
 * percent-encoding changes, so the percent-encoded echo differs from the plain one.
 */

const TOKEN = 'ims/Tok+en=2&9~y!Qz(w)Xv*k-issue4-redaction'
const FORMS = ['base64', 'base64url', 'plain', 'upper', 'prefix', 'percent'] as const
const VOLUME = 'grafana-data'

let sandbox: SandboxProcess
let harness: TestDesk
let profile: Profile
/** What the tests export: the seeded volume VOLUME (on its node) and a certificate with a key. */
let exported: { nodeId: string; certificateId: string }
const finished = new Map<string, (transfer: Transfer) => void>()
const seenErrors: BridgeError[] = []

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--faults', '--admin-token', TOKEN])
  harness = await openTestDesk('redaction-sqlite', {
    requestTimeoutMs: 10_000,
    downloadTiming: { headersTimeoutMs: 5_000, stallTimeoutMs: 5_000, retryDelayMs: 20 },
  })
  harness.desk.onEvent((event, payload) => {
    if (event !== 'transfers.finished') return
    const transfer = payload as Transfer
    finished.get(transfer.id)?.(transfer)
  })
  profile = await harness.addProfile(sandbox, {
    name: 'Echoing service',
    color: '#2563eb',
    token: TOKEN,
    sessionOnly: true,
  })
  const seeded = sandbox.seed.volumes.find((candidate) => candidate.name === VOLUME)
  if (seeded === undefined) throw new Error(`no seeded volume ${VOLUME}`)
  exported = {
    nodeId: seeded.nodeId,
    certificateId: sandbox.seed.certificates.withPrivateKey[0] as string,
  }
}, 90_000)

afterAll(async () => {
  // The last test closed the desk already; closing again is a no-op.
  await harness?.close()
  await sandbox?.stop()
})

afterEach(async () => {
  await call(sandbox, { method: 'DELETE', path: '/__sandbox/faults' })
})

async function echoOn(target: Record<string, string>, form: string): Promise<void> {
  const body = { rules: [{ ...target, fault: `echo-auth=${form}`, times: 1 }] }
  const answer = await call(sandbox, { method: 'POST', path: '/__sandbox/faults', body })
  expect(answer.status, answer.text()).toBe(201)
}

/** `volumes.export` to its end: the error the call or the finished transfer carries. */
async function failedVolumeExport(): Promise<BridgeError> {
  const started = await harness.desk.dispatch('volumes.export', {
    profileId: profile.id,
    nodeId: exported.nodeId,
    name: VOLUME,
  })
  if (!started.ok) return started.error
  const transfer = started.value as Transfer
  const ended = await new Promise<Transfer>((resolve) => finished.set(transfer.id, resolve))
  expect(ended.state).toBe('failed')
  return { code: ended.errorCode ?? '', message: ended.errorMessage ?? '' }
}

async function failedCertificateExport(): Promise<BridgeError> {
  const result = await harness.desk.dispatch('certificates.export', {
    profileId: profile.id,
    id: exported.certificateId,
    format: 'pem',
  })
  if (result.ok) throw new Error('the certificate export should have failed')
  return result.error
}

const CASES: [where: string, target: Record<string, string>, run: () => Promise<BridgeError>][] = [
  ['the volume download', { method: 'GET', path: '/downloads/volumes/*' }, failedVolumeExport],
  ['op 15 (exportVolume)', { operation: 'exportVolume' }, failedVolumeExport],
  ['op 12 (exportCertificate)', { operation: 'exportCertificate' }, failedCertificateExport],
]

describe('a service error that echoes the Authorization header', () => {
  for (const [where, target, run] of CASES) {
    it.each(FORMS)(
      `${where}, echoed as %s: the window is told nothing of the token`,
      async (form) => {
        await echoOn(target, form)
        const error = await run()
        seenErrors.push(error)
        expect(error.code).toBe('FORBIDDEN')
        expect(error.message).toContain('[redacted]')
        expect(tokenLeaks(JSON.stringify(error), TOKEN)).toEqual([])
      },
    )
  }

  it('leaves no form of the token in any file of the data folder', async () => {
    // The cases above ran first (same file, in order): each logged a failed transfer.
    expect(seenErrors.length).toBe(CASES.length * FORMS.length)
    const cacheFile = path.join(harness.dataDir, CACHE_FILE_NAME)
    const db = new Database(cacheFile, { readonly: true })
    try {
      const rows = db
        .prepare<[], { error_message: string | null }>(
          "SELECT error_message FROM transfers WHERE state = 'failed'",
        )
        .all()
      expect(rows.length).toBe(CASES.length * FORMS.length)
      for (const row of rows) {
        expect(row.error_message).toContain('[redacted]')
        expect(tokenLeaks(row.error_message ?? '', TOKEN)).toEqual([])
      }
      const activity = db
        .prepare<[], { message: string | null }>('SELECT message FROM activity')
        .all()
      for (const row of activity) expect(tokenLeaks(row.message ?? '', TOKEN)).toEqual([])
    } finally {
      db.close()
    }
    // The raw bytes of every file (the cache, its -wal while open, profiles, settings), after
    // the desk closed and SQLite folded its log into the file.
    await harness.desk.close()
    for (const file of await filesUnder(harness.dataDir)) {
      const text = (await readFile(file)).toString('latin1')
      expect(tokenLeaks(text, TOKEN), path.relative(harness.dataDir, file)).toEqual([])
    }
  })
})

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true })
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
}
