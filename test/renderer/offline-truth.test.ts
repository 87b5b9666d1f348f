import { describe, expect, it } from 'vitest'
import type { Profile } from '../../src/shared/bridge'
import type { Reach } from '../../src/shared/bridge/connectivity'
import {
  NO_CONNECTIVITY,
  seededConnectivity,
} from '../../src/renderer/src/app/connectivity-account'
import {
  PROFILE_STATE_WORDS,
  profileStateOf,
  switcherStateLabel,
} from '../../src/renderer/src/app/profile-state'
import type { Connectivity } from '../../src/renderer/src/app/store'
import { offlineRowMark } from '../../src/renderer/src/features/overview/offline-rows'

/*
 * Issue 40, item 15, the renderer's part: one account of a profile's connectivity, said the
 * same by the profile switcher and the Overview; seeded from main (so a renderer that starts
 * after main found a service unreachable does not say "Signed in" beside an Overview that says
 * "Offline"); All expiring marks the rows of an unreachable profile with their age.
 */

const MINUTE = 60_000
const NOW = 1_800_000_000_000

const profile = (patch: Partial<Profile> = {}): Profile => ({
  id: 'p1',
  name: 'Staging',
  baseUrl: 'https://ims.example.com',
  color: '#2563eb',
  protected: false,
  kind: 'service',
  signedIn: true,
  tokenStorage: 'keychain',
  createdAt: 0,
  ...patch,
})

const offlineAt = (checkedAt: number | null): Connectivity => ({
  ...NO_CONNECTIVITY,
  offline: true,
  error: { code: 'OFFLINE', message: 'connection refused' },
  checkedAt,
})
const onlineAt = (checkedAt: number): Connectivity => ({ ...NO_CONNECTIVITY, checkedAt })

describe("a profile's state, said once", () => {
  it('is what the last call found; before any call it is "not checked", never "online"', () => {
    expect(profileStateOf(profile(), undefined)).toBe('unchecked')
    expect(profileStateOf(profile(), NO_CONNECTIVITY)).toBe('unchecked')
    expect(profileStateOf(profile(), onlineAt(NOW))).toBe('online')
    expect(profileStateOf(profile(), offlineAt(NOW))).toBe('offline')
    expect(profileStateOf(profile({ signedIn: false }), offlineAt(NOW))).toBe('signed-out')
    // Saved unchecked: not verified until a Connect succeeds, whatever the service did since.
    expect(profileStateOf(profile({ unverified: true }), onlineAt(NOW))).toBe('unverified')
    expect(PROFILE_STATE_WORDS.unchecked).toBe('Not checked yet')
  })

  it('the switcher and the Overview never disagree: offline in one is offline in the other', () => {
    for (const connectivity of [undefined, onlineAt(NOW), offlineAt(NOW), offlineAt(null)]) {
      for (const each of [profile(), profile({ signedIn: false }), profile({ unverified: true })]) {
        const state = profileStateOf(each, connectivity)
        const switcher = switcherStateLabel(each, state)
        const overview = PROFILE_STATE_WORDS[state]
        expect(switcher.startsWith('Offline')).toBe(overview === 'Offline')
        expect(switcher.includes('Signed in')).toBe(
          overview === 'Online' || overview === 'Not checked yet',
        )
      }
    }
  })
})

describe('seeding the renderer from main', () => {
  const reach = (patch: Partial<Reach>): Reach => ({
    online: true,
    checkedAt: NOW,
    since: NOW,
    error: null,
    ...patch,
  })

  it('takes what main found before the renderer listened (the service died first)', () => {
    const seeded = seededConnectivity(
      {},
      { p1: reach({ online: false, error: { code: 'OFFLINE', message: 'refused' } }) },
      NOW + 5,
    )
    expect(seeded['p1']).toMatchObject({ offline: true, checkedAt: NOW })
    expect(profileStateOf(profile(), seeded['p1'])).toBe('offline')
  })

  it('keeps a later finding the store heard by event, and the screens’ data ages', () => {
    const current = { p1: { ...offlineAt(NOW + 10), dataFetchedAt: NOW - MINUTE } }
    const seeded = seededConnectivity(current, { p1: reach({ checkedAt: NOW }) }, NOW - 1)
    expect(seeded['p1']).toEqual(current.p1)
    const newer = seededConnectivity(current, { p1: reach({ checkedAt: NOW + 20 }) }, NOW - 1)
    expect(newer['p1']).toMatchObject({
      offline: false,
      checkedAt: NOW + 20,
      dataFetchedAt: NOW - MINUTE,
    })
  })

  it('forgets what main forgot (another URL), unless a call was heard of since asking', () => {
    const forgotten = seededConnectivity({ p1: offlineAt(NOW) }, {}, NOW + 1)
    expect(profileStateOf(profile(), forgotten['p1'])).toBe('unchecked')
    const heard = seededConnectivity({ p1: offlineAt(NOW + 2) }, {}, NOW + 1)
    expect(profileStateOf(profile(), heard['p1'])).toBe('offline')
  })
})

describe('All expiring: rows of an unreachable profile say how old they are', () => {
  it('marks rows cached before the last failed call, with their age', () => {
    expect(offlineRowMark(NOW - 12 * MINUTE, offlineAt(NOW - MINUTE), NOW)).toBe(
      'cached 12 min ago, service unreachable',
    )
    // Offline told by a screen without the call's time: still marked.
    expect(offlineRowMark(NOW - 12 * MINUTE, offlineAt(null), NOW)).toBe(
      'cached 12 min ago, service unreachable',
    )
  })

  it('leaves the rows of a reachable or unchecked profile, and rows fetched after the failure', () => {
    expect(offlineRowMark(NOW - 12 * MINUTE, onlineAt(NOW), NOW)).toBeNull()
    expect(offlineRowMark(NOW - 12 * MINUTE, undefined, NOW)).toBeNull()
    expect(offlineRowMark(NOW - MINUTE, offlineAt(NOW - 2 * MINUTE), NOW)).toBeNull()
  })
})
