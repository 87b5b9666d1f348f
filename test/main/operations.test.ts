import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDesk } from '../../src/main/desk'
import { readPreview } from '../../src/main/features/operations/status-page'
import type { Desk } from '../../src/main/desk'
import { createVault } from '../../src/main/vault'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox, SeedIds } from '../../src/sandbox'
import type { ActivityEntry, ChannelOutput, Profile, Result } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The remaining operations' channels through the desk, everything real: a sandbox over HTTP,
 * the keychain (run under scripts/with-keyring.mjs), the SQLite cache in a temporary folder,
 * and a second desk over the same folder standing for a restart with the service gone.
 */

const service = `Infradesk-operations-test-${randomUUID()}`

let temp: TempDir
let dataDir: string
let desk: Desk
let sandbox: RunningSandbox
let seed: SeedIds
let profile: Profile
const events: Array<{ event: string; payload: unknown }> = []

async function openDesk(): Promise<Desk> {
  const opened = await createDesk({
    dataDir,
    mode: 'web',
    openExternal: async () => undefined,
    vault: createVault({ service }),
    version: '0.0.0-test',
    requestTimeoutMs: 15_000,
  })
  opened.onEvent((event, payload) => events.push({ event, payload }))
  return opened
}

async function call(channel: string, input: unknown = {}): Promise<Result<unknown>> {
  return desk.dispatch(channel, input)
}

async function value<T>(channel: string, input: unknown = {}): Promise<T> {
  const result = await call(channel, input)
  if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`)
  return result.value as T
}

async function lastActivity(): Promise<ActivityEntry> {
  const [entry] = await value<ActivityEntry[]>('activity.list', {
    profileId: profile.id,
    limit: 1,
  })
  if (!entry) throw new Error('no activity recorded')
  return entry
}

/** Waits for the first event that `match` accepts (the rotation timer fires on its own). */
function nextEvent(match: (event: string, payload: unknown) => boolean): Promise<unknown> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const found = events.find((entry) => match(entry.event, entry.payload))
      if (found) {
        clearInterval(poll)
        resolve(found.payload)
      }
    }, 50)
  })
}

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error('Run under node scripts/with-keyring.mjs (a Secret Service is needed)')
  }
  temp = await makeTempDir('infradesk-operations')
  dataDir = path.join(temp.dir, 'data')
  sandbox = await startSandbox()
  seed = sandbox.seed()
  desk = await openDesk()
  profile = await value<Profile>('profiles.add', {
    name: 'Staging',
    baseUrl: sandbox.url,
    color: '#16a34a',
    protected: false,
    token: sandbox.tokens.admin,
  })
})

afterAll(async () => {
  await desk?.close()
  await sandbox?.close()
  await temp?.remove()
})

type StatusPageState = ChannelOutput<'statusPage.refresh'>

describe('status page and incidents', () => {
  it('splits the preview into the page and its incidents, and caches both', async () => {
    const state = await value<StatusPageState>('statusPage.refresh', { profileId: profile.id })
    expect(state.offline).toBe(false)
    expect(state.page?.title).toBe('Northwind Status')
    expect(state.page?.['components']).toEqual(expect.arrayContaining([expect.anything()]))
    expect(state.page).not.toHaveProperty('openIncidents')
    const ids = state.items.map((incident) => incident.id)
    for (const id of [...seed.incidents.open, ...seed.incidents.resolved]) {
      expect(ids).toContain(id)
    }
    const cached = await value<StatusPageState>('statusPage.cached', { profileId: profile.id })
    expect(cached.items).toEqual(state.items)
    expect(cached.page).toEqual(state.page)
  })

  it('resolves an open incident, logs it and refreshes the page', async () => {
    const [incidentId] = seed.incidents.open
    const outcome = await value<ChannelOutput<'statusPage.resolveIncident'>>(
      'statusPage.resolveIncident',
      { profileId: profile.id, incidentId },
    )
    expect(outcome.incident['status']).toBe('resolved')
    const after = outcome.page.items.find((incident) => incident.id === incidentId)
    expect(after?.status).toBe('resolved')
    expect(await lastActivity()).toMatchObject({
      operation: 'resolveIncident',
      targetId: incidentId,
      outcome: 'success',
      message: expect.stringContaining('resolved'),
    })

    const again = await call('statusPage.resolveIncident', { profileId: profile.id, incidentId })
    expect(again.ok).toBe(false)
    if (!again.ok) expect(again.error.code).toBe('CONFLICT')
    expect(await lastActivity()).toMatchObject({ outcome: 'error', errorCode: 'CONFLICT' })
  })
})

type Rotation = ChannelOutput<'databases.rotate'>

describe('database certificate rotation', () => {
  it('rotates in place and records the new serial, which the next rotation names as previous', async () => {
    const [databaseId] = seed.databases.postgres
    const first = await value<Rotation>('databases.rotate', {
      profileId: profile.id,
      databaseId,
      allowRestart: false,
    })
    expect(first.status).toBe('completed')
    const certificate = first.answer['certificate'] as { serialNumber: string }
    expect(await lastActivity()).toMatchObject({
      operation: 'rotateDatabaseCertificate',
      targetId: databaseId,
      message: expect.stringContaining(certificate.serialNumber),
    })
    const second = await value<Rotation>('databases.rotate', {
      profileId: profile.id,
      databaseId,
      allowRestart: false,
    })
    expect(second.answer['previousSerialNumber']).toBe(certificate.serialNumber)
  })

  it('follows a scheduled reread until it is due, also across a restart', async () => {
    const [databaseId] = seed.databases.clickhouse
    const rotation = await value<Rotation>('databases.rotate', {
      profileId: profile.id,
      databaseId,
      allowRestart: false,
    })
    expect(rotation.status).toBe('pending')
    expect(rotation.completesAt).not.toBeNull()

    // Restart the app while the reread is pending: the new desk re-arms the timer from SQLite.
    await desk.close()
    desk = await openDesk()
    const listed = await value<Rotation[]>('databases.rotations', { profileId: profile.id })
    expect(listed.find((entry) => entry.id === rotation.id)?.status).toBe('pending')

    const settled = (await nextEvent(
      (event, payload) =>
        event === 'databases.rotationSettled' &&
        (payload as { rotation: Rotation }).rotation.id === rotation.id,
    )) as { rotation: Rotation }
    expect(settled.rotation.status).toBe('completed')
    const after = await value<Rotation[]>('databases.rotations', { profileId: profile.id })
    expect(after.find((entry) => entry.id === rotation.id)?.status).toBe('completed')
  }, 30_000)
})

type KnownOrder = ChannelOutput<'logging.reorder'>

describe('orders', () => {
  it('reorders a folder’s logging environments and keeps the answer', async () => {
    const folder = seed.loggingEnvironmentFolders.find((entry) => entry.environmentIds.length > 1)
    if (!folder) throw new Error('the seed has no folder with two environments')
    const reversed = [...folder.environmentIds].reverse()
    const answer = await value<KnownOrder>('logging.reorder', {
      profileId: profile.id,
      folderId: folder.id,
      items: reversed.map((id, index) => ({ id, sortOrder: index + 1 })),
    })
    const inFolder = answer.items.filter((item) => item.folderId === folder.id).map((i) => i.id)
    expect(inFolder).toEqual(reversed)
    const known = await value<KnownOrder>('logging.knownEnvironments', { profileId: profile.id })
    expect(known.items).toEqual(answer.items)
    expect(await lastActivity()).toMatchObject({
      operation: 'reorderLoggingEnvironments',
      targetId: folder.id,
      message: expect.stringMatching(/environments in the order: /),
    })
  })

  it('reorders nginx template folders; a bad id is a 400 on its path and logged', async () => {
    const reversed = [...seed.nginxTemplateFolders].reverse()
    const answer = await value<KnownOrder>('nginxTemplates.reorder', {
      profileId: profile.id,
      items: reversed.map((id, index) => ({ id, sortOrder: index + 1 })),
    })
    expect(answer.items.map((item) => item.id)).toEqual(reversed)

    const bad = await call('nginxTemplates.reorder', {
      profileId: profile.id,
      items: [{ id: 'not-a-uuid', sortOrder: 1 }],
    })
    expect(bad.ok).toBe(false)
    if (!bad.ok) {
      expect(bad.error.code).toBe('VALIDATION_ERROR')
      expect(JSON.stringify(bad.error.details)).toContain('"items","0","id"')
    }
    expect(await lastActivity()).toMatchObject({
      operation: 'reorderNginxTemplateFolders',
      errorCode: 'VALIDATION_ERROR',
    })
  })
})

describe('offline', () => {
  it('shows the cached status page and incidents when the service is gone', async () => {
    await sandbox.close()
    const state = await value<StatusPageState>('statusPage.refresh', { profileId: profile.id })
    expect(state.offline).toBe(true)
    expect(state.error?.code).toBe('OFFLINE')
    expect(state.page?.title).toBe('Northwind Status')
    expect(state.items.length).toBeGreaterThan(0)
  })
})

describe('reading the preview', () => {
  it('accepts a plain `incidents` list and keeps unknown page fields', () => {
    const { page, incidents } = readPreview({
      title: 'Elsewhere',
      overallStatus: 'operational',
      components: [{ id: 'c1', name: 'API', status: 'operational' }],
      incidents: [{ id: 'i1', title: 'Old', status: 'resolved' }, { id: 'i2' }, { title: 'no id' }],
      region: 'eu',
    })
    expect(page).toMatchObject({ title: 'Elsewhere', region: 'eu' })
    // The entry without an id cannot be an incident (op 18 needs one): kept on the page instead.
    expect(page['incidents']).toEqual([{ title: 'no id' }])
    expect(incidents.map((incident) => incident.id)).toEqual(['i1', 'i2'])
  })

  it('refuses an answer that is not an object', () => {
    expect(() => readPreview([1, 2])).toThrow(/not an object/)
  })
})
