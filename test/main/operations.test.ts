import { describe, expect, it } from 'vitest'
import { readPreview } from '../../src/main/features/operations/status-page'
import type { ActivityEntry, ChannelOutput } from '../../src/shared/bridge'
import { useSandboxDesk } from '../support/sandbox-desk'

/*
 * The remaining operations' channels through the desk, everything real: a sandbox over HTTP,
 * the keychain (run under scripts/with-keyring.mjs), the SQLite cache in a temporary folder,
 * and a second desk over the same folder standing for a restart with the service gone.
 */

const world = useSandboxDesk('operations')

async function lastActivity(): Promise<ActivityEntry> {
  const [entry] = await world.desk.value<ActivityEntry[]>('activity.list', {
    profileId: world.profile.id,
    limit: 1,
  })
  if (!entry) throw new Error('no activity recorded')
  return entry
}

/** Waits for the first event that `match` accepts (the rotation timer fires on its own). */
function nextEvent(match: (event: string, payload: unknown) => boolean): Promise<unknown> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const found = world.desk.events.find((entry) => match(entry.event, entry.payload))
      if (found) {
        clearInterval(poll)
        resolve(found.payload)
      }
    }, 50)
  })
}

type StatusPageState = ChannelOutput<'statusPage.refresh'>

describe('status page and incidents', () => {
  it('splits the preview into the page and its incidents, and caches both', async () => {
    const state = await world.desk.value<StatusPageState>('statusPage.refresh', {
      profileId: world.profile.id,
    })
    expect(state.offline).toBe(false)
    expect(state.page?.title).toBe('Northwind Status')
    expect(state.page?.['components']).toEqual(expect.arrayContaining([expect.anything()]))
    expect(state.page).not.toHaveProperty('openIncidents')
    const ids = state.items.map((incident) => incident.id)
    for (const id of [...world.seed.incidents.open, ...world.seed.incidents.resolved]) {
      expect(ids).toContain(id)
    }
    const cached = await world.desk.value<StatusPageState>('statusPage.cached', {
      profileId: world.profile.id,
    })
    expect(cached.items).toEqual(state.items)
    expect(cached.page).toEqual(state.page)
  })

  it('resolves an open incident, logs it and refreshes the page', async () => {
    const [incidentId] = world.seed.incidents.open
    const outcome = await world.desk.value<ChannelOutput<'statusPage.resolveIncident'>>(
      'statusPage.resolveIncident',
      { profileId: world.profile.id, incidentId },
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

    const again = await world.desk.call('statusPage.resolveIncident', {
      profileId: world.profile.id,
      incidentId,
    })
    expect(again.ok).toBe(false)
    if (!again.ok) expect(again.error.code).toBe('CONFLICT')
    // The operation that answered crosses with the error: the screen words the headline for it.
    if (!again.ok) expect(again.error.operation).toBe('resolveIncident')
    expect(await lastActivity()).toMatchObject({ outcome: 'error', errorCode: 'CONFLICT' })
  })
})

type Rotation = ChannelOutput<'databases.rotate'>

describe('database certificate rotation', () => {
  /** A rotation that may not restart the database: the only kind these tests ask for. */
  const rotate = (databaseId: string | undefined) =>
    world.desk.value<Rotation>('databases.rotate', {
      profileId: world.profile.id,
      databaseId,
      allowRestart: false,
    })

  it('rotates in place and records the new serial, which the next rotation names as previous', async () => {
    const [databaseId] = world.seed.databases.postgres
    const first = await rotate(databaseId)
    expect(first.status).toBe('completed')
    const certificate = first.answer['certificate'] as { serialNumber: string }
    expect(await lastActivity()).toMatchObject({
      operation: 'rotateDatabaseCertificate',
      targetId: databaseId,
      message: expect.stringContaining(certificate.serialNumber),
    })
    const second = await rotate(databaseId)
    expect(second.answer['previousSerialNumber']).toBe(certificate.serialNumber)
  })

  it('follows a scheduled reread until it is due, also across a restart', async () => {
    const [databaseId] = world.seed.databases.clickhouse
    const rotation = await rotate(databaseId)
    expect(rotation.status).toBe('pending')
    expect(rotation.completesAt).not.toBeNull()

    // Restart the app while the reread is pending: the new desk re-arms the timer from SQLite.
    await world.desk.reopen()
    const listed = await world.desk.value<Rotation[]>('databases.rotations', {
      profileId: world.profile.id,
    })
    expect(listed.find((entry) => entry.id === rotation.id)?.status).toBe('pending')

    const settled = (await nextEvent(
      (event, payload) =>
        event === 'databases.rotationSettled' &&
        (payload as { rotation: Rotation }).rotation.id === rotation.id,
    )) as { rotation: Rotation }
    expect(settled.rotation.status).toBe('completed')
    const after = await world.desk.value<Rotation[]>('databases.rotations', {
      profileId: world.profile.id,
    })
    expect(after.find((entry) => entry.id === rotation.id)?.status).toBe('completed')
  }, 30_000)
})

type KnownOrder = ChannelOutput<'logging.reorder'>

describe('orders', () => {
  it('reorders a folder’s logging environments and keeps the answer', async () => {
    const folder = world.seed.loggingEnvironmentFolders.find(
      (entry) => entry.environmentIds.length > 1,
    )
    if (!folder) throw new Error('the seed has no folder with two environments')
    const reversed = [...folder.environmentIds].reverse()
    const answer = await world.desk.value<KnownOrder>('logging.reorder', {
      profileId: world.profile.id,
      folderId: folder.id,
      items: reversed.map((id, index) => ({ id, sortOrder: index + 1 })),
    })
    const inFolder = answer.items.filter((item) => item.folderId === folder.id).map((i) => i.id)
    expect(inFolder).toEqual(reversed)
    const known = await world.desk.value<KnownOrder>('logging.knownEnvironments', {
      profileId: world.profile.id,
    })
    expect(known.items).toEqual(answer.items)
    expect(await lastActivity()).toMatchObject({
      operation: 'reorderLoggingEnvironments',
      targetId: folder.id,
      message: expect.stringMatching(/environments in the order: /),
    })
  })

  it('reorders nginx template folders; a bad id is a 400 on its path and logged', async () => {
    const reversed = [...world.seed.nginxTemplateFolders].reverse()
    const answer = await world.desk.value<KnownOrder>('nginxTemplates.reorder', {
      profileId: world.profile.id,
      items: reversed.map((id, index) => ({ id, sortOrder: index + 1 })),
    })
    expect(answer.items.map((item) => item.id)).toEqual(reversed)

    const bad = await world.desk.call('nginxTemplates.reorder', {
      profileId: world.profile.id,
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
    await world.sandbox.close()
    const state = await world.desk.value<StatusPageState>('statusPage.refresh', {
      profileId: world.profile.id,
    })
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
