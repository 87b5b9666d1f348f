import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEventHub } from '../../src/main/bridge/events'
import { createConnectivityTracker, HEARTBEAT_MS } from '../../src/main/profiles/connectivity'
import { ServiceError } from '../../src/main/api'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { Profile } from '../../src/shared/bridge'
import type { Reach } from '../../src/shared/bridge/connectivity'
import { openTestDesk } from '../support/desk'
import type { TestDesk } from '../support/desk'

/*
 * Issue 40, item 15: offline tells the truth. One account of each profile's connectivity (main's
 * tracker) that the renderer seeds from profiles.list and follows by event; "Read again" calls
 * every service (connectivity.check) and answers what each call found, with its time; a profile
 * whose service is down can be saved anyway, its token checked later (unverified until then).
 * Real parts: sandboxes on real ports, one stopped to make its service unreachable, the keychain.
 */

type ListAnswer = {
  profiles: Profile[]
  activeId: string | null
  connectivity: Record<string, Reach>
}

describe('the connectivity tracker', () => {
  it('knows nothing before a call, then what the last call found, with its time', () => {
    const hub = createEventHub()
    const told: unknown[] = []
    hub.subscribe((event, payload) => {
      if (event === 'connectivity.changed') told.push(payload)
    })
    let now = 1_000
    const tracker = createConnectivityTracker(hub, { list: () => [] }, () => now)
    expect(tracker.reach('p')).toBeNull()
    expect(tracker.offline('p')).toBe(false)

    tracker.reachable('p')
    // The first call of a run is told: "not checked" became online.
    expect(told).toEqual([
      { profileId: 'p', online: true, error: null, checkedAt: 1_000, since: 1_000 },
    ])

    now = 2_000
    tracker.reachable('p')
    // The same state soon after: its time is kept, no event per call.
    expect(tracker.reach('p')).toMatchObject({ online: true, checkedAt: 2_000, since: 1_000 })
    expect(told).toHaveLength(1)

    now = 1_000 + HEARTBEAT_MS
    tracker.reachable('p')
    // While it holds, the renderer hears of it now and then, so its "checked … ago" stays near.
    expect(told).toHaveLength(2)

    now += 1
    tracker.unreachable('p', new ServiceError('OFFLINE', 'connection refused'))
    expect(tracker.offline('p')).toBe(true)
    expect(tracker.reach('p')).toMatchObject({ online: false, checkedAt: now, since: now })
    expect(told.at(-1)).toMatchObject({ online: false, error: { code: 'OFFLINE' } })
    expect(tracker.all()).toEqual({ p: tracker.reach('p') })

    tracker.forget('p')
    expect(tracker.reach('p')).toBeNull()
  })
})

/** A port on loopback that nothing listens on (it was free a moment ago). */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('one account of connectivity, read again on demand', () => {
  let desk: TestDesk
  let up: RunningSandbox
  let down: RunningSandbox | null
  const ids: string[] = []

  beforeAll(async () => {
    ;[up, down] = await Promise.all([startSandbox(), startSandbox()])
    desk = await openTestDesk('profile-connectivity')
  })

  afterAll(async () => {
    await desk?.close(ids)
    await up?.close()
    await down?.close()
  })

  it('Read again calls every service: a stopped one is offline, with the time of the call', async () => {
    const alive = await desk.addProfile(up, { name: 'Alive' })
    const dying = await desk.addProfile(down as RunningSandbox, { name: 'Dying' })
    ids.push(alive.id, dying.id)
    // The token checks found both services: the first thing known of them.
    const first = await desk.value<ListAnswer>('profiles.list')
    expect(first.connectivity[alive.id]).toMatchObject({ online: true, error: null })
    expect(first.connectivity[dying.id]).toMatchObject({ online: true, error: null })

    // Its certificates in the cache, as a background refresh leaves them.
    await desk.value('certificates.refresh', { profileId: dying.id, filter: { showSystem: true } })

    await down?.close()
    down = null
    // Nothing called the stopped service yet: what was last found still stands.
    expect((await desk.value<ListAnswer>('profiles.list')).connectivity[dying.id]?.online).toBe(
      true,
    )

    const before = Date.now()
    const { connectivity } = await desk.value<{ connectivity: Record<string, Reach> }>(
      'connectivity.check',
    )
    expect(connectivity[dying.id]).toMatchObject({ online: false, error: { code: 'OFFLINE' } })
    expect(connectivity[dying.id]?.checkedAt).toBeGreaterThanOrEqual(before)
    expect(connectivity[alive.id]).toMatchObject({ online: true })
    expect(connectivity[alive.id]?.checkedAt).toBeGreaterThanOrEqual(before)
    // The list (which the sidebar reads) and the Overview's figures say the same.
    const after = await desk.value<ListAnswer>('profiles.list')
    expect(after.connectivity).toEqual(connectivity)
    const overview = await desk.value<{ profiles: { profileId: string; offline: boolean }[] }>(
      'overview.summary',
    )
    expect(overview.profiles.find((entry) => entry.profileId === dying.id)?.offline).toBe(true)
    expect(overview.profiles.find((entry) => entry.profileId === alive.id)?.offline).toBe(false)
    // All expiring can tell its rows' age from the failed call: the list's fetch time is earlier.
    const expiring = await desk.value<{
      perProfile: { profileId: string; count: number; fetchedAt?: number | null }[]
    }>('overview.expiring', { days: 3650 })
    const rows = expiring.perProfile.find((entry) => entry.profileId === dying.id)
    expect(rows?.count).toBeGreaterThan(0)
    expect(rows?.fetchedAt).toBeLessThan(connectivity[dying.id]?.checkedAt ?? 0)
    // The change went out as an event with the same finding.
    expect(
      desk.events.some(
        (entry) =>
          entry.event === 'connectivity.changed' &&
          (entry.payload as Reach & { profileId: string }).profileId === dying.id &&
          (entry.payload as Reach).online === false,
      ),
    ).toBe(true)
  })

  it('a profile whose service is down is saved anyway when asked, unverified until a Connect succeeds', async () => {
    const port = await freePort()
    const fields = {
      name: 'Later',
      baseUrl: `http://127.0.0.1:${port}`,
      color: '#16a34a',
      protected: false,
      token: up.tokens.admin,
    }
    // Not asked: nothing is saved, as before.
    const refused = await desk.failure('profiles.add', fields)
    expect(refused.code).toBe('OFFLINE')
    expect(
      (await desk.value<ListAnswer>('profiles.list')).profiles.map((p) => p.name),
    ).not.toContain('Later')
    // A refusal is never saved, asked or not: only a service out of reach is checked later.
    const wrong = await desk.failure('profiles.add', {
      ...fields,
      baseUrl: up.url,
      token: 'not-a-token',
      checkLater: true,
    })
    expect(wrong.code).toBe('UNAUTHORIZED')

    const saved = await desk.value<Profile & { tokenLimitation: string | null }>('profiles.add', {
      ...fields,
      checkLater: true,
    })
    ids.push(saved.id)
    expect(saved).toMatchObject({ name: 'Later', signedIn: true, unverified: true })
    // The token went to the keychain all the same.
    expect(await desk.vault.get(saved.id)).toBe(up.tokens.admin)
    const listed = await desk.value<ListAnswer>('profiles.list')
    expect(listed.profiles.find((p) => p.id === saved.id)?.unverified).toBe(true)
    expect(listed.connectivity[saved.id]).toMatchObject({
      online: false,
      error: { code: 'OFFLINE' },
    })

    // Connect while it is still down: said so, still unverified.
    const stillDown = await desk.failure('profiles.connect', { id: saved.id })
    expect(stillDown.code).toBe('OFFLINE')

    // The service comes up at that address: Connect checks the token and verifies the profile.
    const late = await startSandbox({ port, adminToken: up.tokens.admin })
    try {
      const connected = await desk.value<Profile>('profiles.connect', { id: saved.id })
      expect(connected.unverified).toBeUndefined()
      const now = await desk.value<ListAnswer>('profiles.list')
      expect(now.profiles.find((p) => p.id === saved.id)?.unverified).toBeUndefined()
      expect(now.connectivity[saved.id]).toMatchObject({ online: true, error: null })
    } finally {
      await late.close()
    }
  })

  it('checked later by itself: the first call that reaches the service connects the profile', async () => {
    const port = await freePort()
    const saved = await desk.value<Profile>('profiles.add', {
      name: 'By itself',
      baseUrl: `http://127.0.0.1:${port}`,
      color: '#16a34a',
      protected: false,
      token: up.tokens.admin,
      checkLater: true,
    })
    ids.push(saved.id)
    expect(saved.unverified).toBe(true)
    const late = await startSandbox({ port, adminToken: up.tokens.admin })
    try {
      // A screen's read (not a Connect) finds the service again.
      await desk.value('sessions.refresh', { profileId: saved.id })
      await vi.waitFor(
        async () => {
          const listed = await desk.value<ListAnswer>('profiles.list')
          expect(listed.profiles.find((p) => p.id === saved.id)?.unverified).toBeUndefined()
        },
        { timeout: 30_000, interval: 100 },
      )
    } finally {
      await late.close()
    }
  })
})
