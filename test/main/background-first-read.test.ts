import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { CertificateList, Profile } from '../../src/shared/bridge'
import type { Overview, OverviewProfile } from '../../src/shared/bridge/channels/overview'
import { openTestDesk, type TestDesk } from '../support/desk'
import { fakeClock, fakePower } from '../support/fake-clock'
import { waitUntil } from '../support/poll'

/*
 * Issue 21's first read, through the desk: a profile whose certificate list was never read is
 * read by background refresh at once (added, or signed in later), not an interval later, and
 * until then the Overview says "not read yet" (null), never 0. Every part real (the sandbox,
 * the SQLite file, the keychain) but the clock: time moves only when the test says, so "at
 * once" means with no time passing at all, and "not while off" means across two days.
 */

const HOUR = 60 * 60_000
const DAY_MS = 24 * HOUR

let sandbox: RunningSandbox
let desk: TestDesk
const clock = fakeClock(Date.now())
const power = fakePower()
const profileIds: string[] = []

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error('Run under node scripts/with-keyring.mjs (a Secret Service is needed)')
  }
  sandbox = await startSandbox({ port: 0 })
  desk = await openTestDesk('first-read', {
    requestTimeoutMs: 30_000,
    backgroundRefresh: { clock, power },
  })
})

afterAll(async () => {
  await desk?.close(profileIds)
  await sandbox?.close()
})

async function add(name: string): Promise<Profile> {
  const profile = await desk.addProfile(sandbox, { name })
  profileIds.push(profile.id)
  return profile
}

/** Status page writes of the profile: the last step of its background refresh. */
function statusPageWrites(profileId: string): number {
  return desk.events.filter(({ event, payload }) => {
    if (event !== 'cache.changed') return false
    const change = payload as { topics: string[]; profileId: string | null }
    return change.profileId === profileId && change.topics.includes('incidents')
  }).length
}

async function summaryOf(profileId: string): Promise<{ now: number; entry: OverviewProfile }> {
  const overview = await desk.value<Overview>('overview.summary')
  const entry = overview.profiles.find((candidate) => candidate.profileId === profileId)
  if (entry === undefined) throw new Error(`the overview names no profile ${profileId}`)
  return { now: overview.now, entry }
}

/** The counts worked out here from the cached rows, as the Overview defines them. */
async function countsFromCache(profileId: string, now: number) {
  const list = await desk.value<CertificateList>('certificates.cached', {
    profileId,
    filter: { showSystem: true },
  })
  expect(list.fetchedAt).not.toBeNull()
  const ends = list.rows.flatMap((row) => (row.notAfter ? [Date.parse(row.notAfter)] : []))
  return {
    total: list.rows.length,
    expired: ends.filter((end) => end <= now).length,
    within7: ends.filter((end) => end > now && end < now + 7 * DAY_MS).length,
    within30: ends.filter((end) => end > now && end < now + 30 * DAY_MS).length,
  }
}

/**
 * Lets what is due now run, time standing still, until the profile's refresh ended. Timers are
 * fired on each try: one may be planned only when an earlier refresh settles (a sign-in that
 * came while it ran).
 */
async function runDueAndWaitFor(profileId: string, writesBefore: number) {
  await waitUntil(
    async () => {
      await clock.advance(0)
      return statusPageWrites(profileId) > writesBefore
    },
    { what: 'the background refresh to read the status page', timeoutMs: 60_000 },
  )
}

describe('background refresh reads a never-read profile at once', () => {
  it('a profile just added: "not read yet", then read with no time passing', async () => {
    const profile = await add('Added')
    const before = await summaryOf(profile.id)
    // Never read: no figures, which is not the same as none.
    expect(before.entry.certificates).toBeNull()
    expect(before.entry.openIncidents).toBeNull()

    await runDueAndWaitFor(profile.id, 0)
    const after = await summaryOf(profile.id)
    expect(after.entry.certificates).toEqual(await countsFromCache(profile.id, after.now))
    expect(after.entry.certificates?.total).toBeGreaterThan(0)
    expect(after.entry.openIncidents).not.toBeNull()
    expect(after.entry.lastRefreshAt).not.toBeNull()
  })

  it('not while the setting is off; signed in later: read at once, not at the hour', async () => {
    await desk.value('settings.update', { backgroundRefresh: 'off' })
    const profile = await add('Later')
    await clock.advance(2 * DAY_MS)
    expect(statusPageWrites(profile.id)).toBe(0)
    expect((await summaryOf(profile.id)).entry.certificates).toBeNull()

    // Signed out, then the setting on: due at once, but with no token there is nothing to read.
    await desk.vault.delete(profile.id)
    await desk.value('settings.update', { backgroundRefresh: 'hourly' })
    await clock.advance(0)
    expect((await summaryOf(profile.id)).entry.certificates).toBeNull()

    // Signed in: read now (the clock has not moved), not an hour from now.
    await desk.value('profiles.signIn', {
      id: profile.id,
      token: sandbox.tokens.admin,
      sessionOnly: false,
    })
    await runDueAndWaitFor(profile.id, 0)
    const after = await summaryOf(profile.id)
    expect(after.entry.certificates).toEqual(await countsFromCache(profile.id, after.now))

    // Read once: the next refresh is an interval away, and another change does not bring it on.
    const writes = statusPageWrites(profile.id)
    await desk.value('profiles.activate', { id: profile.id })
    await clock.advance(HOUR - 60_000)
    expect(statusPageWrites(profile.id)).toBe(writes)
  })
})
