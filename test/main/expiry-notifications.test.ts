import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache'
import { createCertificateCache } from '../../src/main/cache/certificates'
import { createExpiryNotifications } from '../../src/main/cache/expiry-notifications'
import { summarise } from '../../src/main/features/background-refresh'
import { toCacheEntry } from '../../src/main/features/certificates/rows'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { CertificateList, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { fakeClock, fakePower } from '../support/fake-clock'
import { waitUntil } from '../support/poll'
import { makeTempDir } from '../support/tools'

/*
 * Notifications of background refresh: certificates that newly expired or entered
 * the 7-day window are told once per threshold, across restarts (the same SQLite file opened
 * again). First the store over a real cache file, then the whole path through the desk: the
 * scheduler driven by an injected clock, the real sandbox's certificates, the web-mode event.
 */

const DAY = 24 * 60 * 60_000
const HOUR = 60 * 60_000
const PROFILE = 'p1'

function certificate(id: string, notAfter: number) {
  const entry = toCacheEntry({ id, name: `cert ${id}`, notAfter: new Date(notAfter).toISOString() })
  if (entry === null) throw new Error('not a certificate')
  return entry
}

describe('the told-expiries store', () => {
  it('tells each certificate once per threshold and expiry, also after the file is reopened', async () => {
    const temp = await makeTempDir('infradesk-expiry-store')
    const file = path.join(temp.dir, 'cache.sqlite')
    const now = Date.UTC(2030, 0, 10)
    try {
      let { cache } = openCache(file)
      createCertificateCache(cache).put(PROFILE, [
        certificate('expired', now - DAY),
        certificate('soon', now + 3 * DAY),
        certificate('later', now + 20 * DAY),
      ])
      const first = createExpiryNotifications(cache).claimNew(PROFILE, now)
      expect(first.map((found) => [found.certificateId, found.threshold])).toEqual([
        ['expired', 'expired'],
        ['soon', 'week'],
      ])
      expect(first[0]?.name).toBe('cert expired')
      expect(createExpiryNotifications(cache).claimNew(PROFILE, now + HOUR)).toEqual([])
      cache.close()

      // A restart: the same file, opened again.
      cache = openCache(file).cache
      const store = createExpiryNotifications(cache)
      expect(store.claimNew(PROFILE, now + 2 * HOUR)).toEqual([])
      // "soon" expires: a new threshold; "later" enters the week.
      const after = store.claimNew(PROFILE, now + 14 * DAY)
      expect(after.map((found) => [found.certificateId, found.threshold])).toEqual([
        ['soon', 'expired'],
        ['later', 'week'],
      ])
      // Renewed (a new notAfter) and nearing its end again: told again.
      createCertificateCache(cache).put(PROFILE, [certificate('later', now + 40 * DAY)])
      expect(store.claimNew(PROFILE, now + 35 * DAY).map((found) => found.certificateId)).toEqual([
        'later',
      ])
      // Another profile's rows are its own.
      expect(store.claimNew('p2', now + 35 * DAY)).toEqual([])
      cache.close()
    } finally {
      await temp.remove()
    }
  })
})

describe('background refresh through the desk', () => {
  let sandbox: RunningSandbox
  let desk: TestDesk
  let profile: Profile
  const clock = fakeClock(Date.now())
  const power = fakePower()

  beforeAll(async () => {
    if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
      throw new Error('Run under node scripts/with-keyring.mjs (a Secret Service is needed)')
    }
    sandbox = await startSandbox()
    desk = await openTestDesk('expiry-notifications', {
      requestTimeoutMs: 15_000,
      backgroundRefresh: { clock, power },
    })
    profile = await desk.addProfile(sandbox)
  })

  afterAll(async () => {
    await desk?.close([profile?.id ?? 'none'])
    await sandbox?.close()
  })

  /** Status page writes are the last step of a background refresh of the profile. */
  const statusPageWrites = () =>
    desk.events.filter(
      ({ event, payload }) =>
        event === 'cache.changed' &&
        (payload as { topics: string[]; profileId: string | null }).profileId === profile.id &&
        (payload as { topics: string[] }).topics.includes('incidents'),
    ).length
  const notifications = () =>
    desk.events
      .filter(({ event }) => event === 'expiry.notification')
      .map(({ payload }) => payload as { title: string; body: string; count: number })

  /** Moves the clock to `at`, lets the due refresh run, and waits until it has finished. */
  async function refreshAt(at: number) {
    const before = statusPageWrites()
    clock.jump(Math.max(0, at - clock.now()))
    await clock.advance(0)
    await waitUntil(() => statusPageWrites() > before, {
      what: 'the background refresh to write the status page',
      timeoutMs: 30_000,
    })
  }

  /** (id, threshold) pairs the cached rows put past a threshold at `at`: worked out here. */
  function pairsAt(list: CertificateList, at: number): string[] {
    return list.rows.flatMap((row) => {
      if (row.notAfter === null) return []
      const end = Date.parse(row.notAfter)
      if (end > at + 7 * DAY) return []
      return [`${row.id}/${end <= at ? 'expired' : 'week'}`]
    })
  }

  it('tells what newly crossed a threshold, once, in one summary per refresh, across a restart', async () => {
    const list = await desk.value<CertificateList>('certificates.refresh', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
    const ends = list.rows.flatMap((row) => (row.notAfter ? [Date.parse(row.notAfter)] : []))
    expect(ends.length).toBeGreaterThan(0)
    const soonest = Math.min(...ends)
    const told = new Set<string>()
    const expectTold = (at: number, already: number) => {
      const fresh = pairsAt(list, at).filter((pair) => !told.has(pair))
      for (const pair of fresh) told.add(pair)
      const seen = notifications()
      if (fresh.length === 0) {
        expect(seen).toHaveLength(already)
      } else {
        expect(seen).toHaveLength(already + 1)
        expect(seen.at(-1)?.count).toBe(fresh.length)
        expect(seen.at(-1)?.title).toContain(profile.name)
      }
      return seen.length
    }

    // The first run: the soonest certificate is at most 3 days away (or past): told.
    const first = Math.max(clock.now() + HOUR, soonest - 3 * DAY)
    await refreshAt(first)
    let count = expectTold(first, 0)
    expect(count).toBe(1)

    // An hour later: only what crossed in that hour (usually nothing).
    await refreshAt(first + HOUR)
    count = expectTold(first + HOUR, count)

    // A restart: the same data folder and cache file; nothing told is told again.
    await desk.reopen()
    // The reopened desk plans its first refresh an interval from now.
    await refreshAt(clock.now() + HOUR)
    count = expectTold(clock.now(), count)

    // Ten days on: every certificate that expired since or entered the week, each once.
    await refreshAt(clock.now() + 10 * DAY)
    expectTold(clock.now(), count)
    expect(told.size).toBeGreaterThan(0)
  })
})

describe('the notification text', () => {
  const finding = (name: string, threshold: 'expired' | 'week') => ({
    certificateId: name,
    name,
    notAfter: '2027-01-01T00:00:00.000Z',
    threshold,
  })

  it('agrees in number: one certificate expires, two expire', () => {
    expect(summarise('Prod', [finding('api', 'week')])).toEqual({
      title: 'Prod: 1 certificate needs attention',
      body: '1 expires within 7 days: api',
      count: 1,
    })
    expect(
      summarise('Prod', [finding('old', 'expired'), finding('a', 'week'), finding('b', 'week')])
        .body,
    ).toBe('1 expired: old\n2 expire within 7 days: a, b')
  })

  it('names certificates in one order whatever order they were found in: by day, then name', () => {
    const at = (name: string, certificateId: string, notAfter: string) => ({
      certificateId,
      name,
      notAfter,
      threshold: 'expired' as const,
    })
    const found = [
      // One day: by name, not by the hour ("web" expires first that day).
      at('web', 'id-9', '2027-01-01T06:00:00.000Z'),
      at('api', 'id-7', '2027-01-01T18:00:00.000Z'),
      at('mail', 'id-2', '2027-01-01T12:00:00.000Z'),
      // An earlier day comes first, whatever its name.
      at('zeta', 'id-5', '2026-12-31T23:00:00.000Z'),
    ]
    const bodies = [found, [...found].reverse()].map((order) => summarise('Prod', order).body)
    expect(bodies[0]).toBe('4 expired: zeta, api, mail and 1 more')
    expect(bodies[1]).toBe(bodies[0])
  })
})
