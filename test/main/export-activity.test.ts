import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ActivityEntry, ChannelOutput, Profile, Transfer } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { sha256Hex } from '../support/tools'
import { waitForValue } from '../support/wait-for'

/*
 * Every file an export writes is in the Transfers log (web mode's "Download to this browser"
 * works from there) and in Activity ("every change, export and SQL statement"): volume archives
 * and the Expiring list's CSV and calendar, as certificate exports were. Through the desk's
 * bridge, against the default sandbox. Run under scripts/with-keyring.mjs.
 */

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile
const finished = new Map<string, Transfer>()

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 })
  desk = await openTestDesk('export-activity', { requestTimeoutMs: 30_000 })
  desk.desk.onEvent((event, payload) => {
    if (event !== 'transfers.finished') return
    const transfer = payload as Transfer
    finished.set(transfer.id, transfer)
  })
  profile = await desk.addProfile(sandbox, { name: 'Activity', sessionOnly: true })
}, 120_000)

afterAll(async () => {
  await desk?.close([profile?.id].filter((id): id is string => id !== undefined))
  await sandbox?.close()
})

/** Activity lines of `operation`, newest first (the filter takes the contract's names only). */
const activity = async (operation: string) =>
  (await desk.value<ActivityEntry[]>('activity.list', { limit: 200 })).filter(
    (line) => line.operation === operation,
  )

const transfers = () => desk.value<Transfer[]>('transfers.list', { limit: 200 })

describe('exports in Activity and Transfers', () => {
  it('a volume export is an activity line naming the file, its size and SHA-256', async () => {
    const volume = sandbox.seed().volumes.find((candidate) => candidate.name === 'grafana-data')!
    const started = await desk.value<Transfer>('volumes.export', {
      profileId: profile.id,
      nodeId: volume.nodeId,
      name: volume.name,
    })
    const ended = await waitForValue(() => finished.get(started.id), { what: 'the export to end' })
    expect(ended.state, ended.errorMessage ?? '').toBe('completed')
    const lines = await activity('exportVolume')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      profileId: profile.id,
      outcome: 'success',
      targetId: 'grafana-data',
    })
    expect(lines[0]?.message).toContain(ended.destination ?? '(no file)')
    expect(lines[0]?.message).toContain(ended.sha256 ?? '(no hash)')
  })

  it('a volume export that fails is an activity line saying why', async () => {
    const volume = sandbox.seed().volumes[0]!
    await desk.failure('volumes.export', {
      profileId: profile.id,
      nodeId: volume.nodeId,
      name: 'no-such-volume',
    })
    const failed = (await activity('exportVolume')).filter((line) => line.outcome === 'error')
    expect(failed).toHaveLength(1)
    expect(failed[0]?.errorCode).toMatch(/NOT_FOUND/)
  })

  it.each(['csv', 'ics'] as const)(
    'the Expiring %s is a transfer (downloadable to the browser) and an activity line',
    async (format) => {
      const saved = await desk.value<ChannelOutput<'overview.exportExpiring'>>(
        'overview.exportExpiring',
        { format },
      )
      expect(saved.transferId).toEqual(expect.any(String))
      const row = (await transfers()).find((transfer) => transfer.id === saved.transferId)
      const bytes = await readFile(saved.path ?? '')
      expect(row).toMatchObject({
        state: 'completed',
        destination: saved.path,
        sha256: sha256Hex(bytes),
        profileName: 'All profiles',
      })
      const ticket = await desk.value<{ path: string }>('transfers.downloadTicket', {
        transferId: saved.transferId,
      })
      expect(ticket.path).toMatch(/./)
      const lines = (await activity('exportExpiring')).filter((line) =>
        line.message?.includes(saved.path ?? '(no path)'),
      )
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({ outcome: 'success', profileName: 'All profiles' })
    },
  )
})
