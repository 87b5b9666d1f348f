import { describe, expect, it } from 'vitest'
import {
  certificateMatches,
  paletteGroups,
  searchPalette,
} from '../../src/renderer/src/app/palette-entries'
import { formatHash, parseHash } from '../../src/renderer/src/app/routes'
import {
  expiryWindowOf,
  inExpiryWindow,
} from '../../src/renderer/src/features/certificates/expiry-window'
import { DAY_MS } from '../../src/shared/certificate-expiry'
import { certificateRow } from './support/certificate-row'

/*
 * The renderer's side of the expiry links: the certificates screen's expiry filter counts exactly what
 * the Overview's figures count (main's rule: expired at or before now; within N days: not
 * expired and ending before now + N days), and the palette's certificates found across profiles
 * open their own profile's list.
 */

const NOW = Date.parse('2027-06-01T12:00:00.000Z')

const row = (id: string, notAfter: string | null) => certificateRow({ id, notAfter })

describe('the expiry filter the Overview opens', () => {
  const at = (offset: number) => new Date(NOW + offset).toISOString()
  const rows = [
    row('past', at(-DAY_MS)),
    row('now', at(0)),
    row('in-1ms', at(1)),
    row('just-under-7d', at(7 * DAY_MS - 1)),
    row('7d', at(7 * DAY_MS)),
    row('just-under-30d', at(30 * DAY_MS - 1)),
    row('30d', at(30 * DAY_MS)),
    row('none', null),
  ]

  it('matches main’s counting rule at every boundary', () => {
    // As cache/overview.ts counts: expired ≤ now; now < end < now + N days.
    const main = (window: 'expired' | '7' | '30') =>
      rows
        .filter((candidate) => {
          if (candidate.notAfter === null) return false
          const end = Date.parse(candidate.notAfter)
          if (window === 'expired') return end <= NOW
          return end > NOW && end < NOW + Number(window) * DAY_MS
        })
        .map((candidate) => candidate.id)
    for (const window of ['expired', '7', '30'] as const) {
      const shown = rows.filter((candidate) => inExpiryWindow(candidate, window, NOW))
      expect(shown.map((candidate) => candidate.id)).toEqual(main(window))
    }
    expect(main('7')).toEqual(['in-1ms', 'just-under-7d'])
  })

  it('is read from the hash, and nothing else is taken for one', () => {
    const parsed = parseHash(formatHash('certificates', { expiry: '7' }))
    expect(parsed && expiryWindowOf(parsed.params)).toBe('7')
    expect(expiryWindowOf({ expiry: '8' })).toBeNull()
    expect(expiryWindowOf({})).toBeNull()
  })
})

describe('certificates found across profiles in the palette', () => {
  const found = [
    { profileId: 'p1', row: row('a', '2027-07-01T00:00:00.000Z') },
    { profileId: 'p2', row: row('b', null) },
  ]

  it('are a group of their own after screens and operations, naming their profile', () => {
    const matches = [
      ...searchPalette('cert', { route: 'overview', params: {} }),
      ...certificateMatches(found, new Map([['p1', 'Production']])),
    ]
    const groups = paletteGroups(matches)
    expect(groups.at(-1)?.label).toBe('Certificates')
    const certificates = groups.at(-1)?.items ?? []
    expect(certificates.map((match) => match.entry.detail)).toEqual([
      'Production · expires 2027-07-01',
      'Removed profile · no expiry known',
    ])
    expect(certificates[0]?.entry).toMatchObject({ kind: 'certificate', profileId: 'p1' })
    expect(certificates[0]?.params).toEqual({ search: 'cert-a', select: 'a' })
    expect(new Set(matches.map((match) => match.entry.key)).size).toBe(matches.length)
  })
})
