import { describe, expect, it } from 'vitest'
import {
  expiryWindowLabel,
  expiryWindowOf,
  inExpiryWindow,
} from '../../src/renderer/src/features/certificates/expiry-window'
import {
  barLabel,
  bucketByWeek,
  mondayOf,
  weeksAhead,
} from '../../src/renderer/src/features/overview/expiry-weeks'
import { DAY_MS } from '../../src/shared/certificate-expiry'
import { certificateRow } from './support/certificate-row'

/*
 * The Overview's expiry chart as data: main's per-day counts bucketed by
 * week (Mondays, UTC) for every week the next 90 days touch, one row per profile; and the
 * certificates screen's `expiry=week:<Monday>` filter, which a bar opens, listing exactly what
 * the bar counted.
 */

// A Wednesday.
const NOW = Date.parse('2026-12-02T01:30:00.000Z')

/** Main's per-day counts of one profile, from `{ day: count }`. */
const daysOf = (profileId: string, counts: Record<string, number>) =>
  Object.entries(counts).map(([day, count]) => ({ profileId, day, count }))

describe('weeks of the expiry chart', () => {
  it('starts each week on its Monday at 00:00 UTC', () => {
    expect(new Date(mondayOf(NOW)).toISOString()).toBe('2026-11-30T00:00:00.000Z')
    // A Monday is its own week's start; a Sunday belongs to the week before it.
    expect(new Date(mondayOf(Date.parse('2026-12-07T00:00:00.000Z'))).toISOString()).toBe(
      '2026-12-07T00:00:00.000Z',
    )
    expect(new Date(mondayOf(Date.parse('2026-12-06T23:59:59.999Z'))).toISOString()).toBe(
      '2026-11-30T00:00:00.000Z',
    )
  })

  it('covers every week the next 90 days touch', () => {
    const weeks = weeksAhead(NOW)
    expect(weeks[0]?.start).toBe('2026-11-30')
    // Now + 90 days is Tuesday 2027-03-02: its week is the last.
    expect(weeks.at(-1)?.start).toBe('2027-03-01')
    expect(weeks).toHaveLength(14)
    for (const [index, week] of weeks.entries()) {
      expect(week.startMs).toBe(Date.parse('2026-11-30T00:00:00.000Z') + index * 7 * DAY_MS)
    }
  })
})

describe('bucketByWeek', () => {
  it('adds the days of each profile into its weeks, a row for every profile named', () => {
    const chart = bucketByWeek(
      {
        now: NOW,
        days: [
          ...daysOf('payments', { '2026-12-02': 2, '2026-12-06': 1, '2026-12-07': 3 }),
          // The second day is past the last week (main reads a little further): not drawn,
          // not counted.
          ...daysOf('staging', { '2027-03-07': 4, '2027-03-08': 9 }),
          // A profile not listed (removed since): left out.
          ...daysOf('gone', { '2026-12-03': 5 }),
        ],
      },
      ['payments', 'staging', 'quiet'],
    )
    expect(chart.rows.map((row) => row.profileId)).toEqual(['payments', 'staging', 'quiet'])
    const [payments, staging, quiet] = chart.rows
    expect(payments?.counts.slice(0, 3)).toEqual([3, 3, 0])
    expect(payments?.total).toBe(6)
    expect(staging?.counts.at(-1)).toBe(4)
    expect(staging?.total).toBe(4)
    expect(quiet?.counts.every((count) => count === 0)).toBe(true)
    expect(chart.max).toBe(4)
    expect(chart.total).toBe(10)
  })

  it('says nothing ends when nothing does', () => {
    const chart = bucketByWeek({ now: NOW, days: [] }, ['payments'])
    expect(chart.max).toBe(0)
    expect(chart.total).toBe(0)
    expect(chart.rows[0]?.counts).toHaveLength(14)
  })

  it('names a bar by profile, count and week', () => {
    const week = { start: '2026-12-07', startMs: Date.parse('2026-12-07T00:00:00.000Z') }
    expect(barLabel('payments', 3, week)).toBe(
      'payments: 3 certificates expire in the week of 2026-12-07',
    )
    expect(barLabel('payments', 1, week)).toBe(
      'payments: 1 certificate expires in the week of 2026-12-07',
    )
  })
})

const row = (id: string, notAfter: string | null) => certificateRow({ id, notAfter })

describe('the week filter a bar opens', () => {
  it('reads `expiry=week:<date>` from the route, and nothing malformed', () => {
    expect(expiryWindowOf({ expiry: 'week:2026-12-07' })).toBe('week:2026-12-07')
    expect(expiryWindowOf({ expiry: 'week:2026-13-45' })).toBeNull()
    expect(expiryWindowOf({ expiry: 'week:soon' })).toBeNull()
    expect(expiryWindowOf({ expiry: '30' })).toBe('30')
    expect(expiryWindowLabel('week:2026-12-07')).toBe('Expiring in the week of 2026-12-07')
    expect(expiryWindowLabel('7')).toBe('Expiring within 7 days')
  })

  it('lists exactly what the bar counted: not expired, ending within the week', () => {
    const rows = [
      row('expired-this-week', '2026-12-01T10:00:00.000Z'),
      row('later-today', '2026-12-02T09:00:00.000Z'),
      row('sunday-night', '2026-12-06T23:59:59.999Z'),
      row('next-monday', '2026-12-07T00:00:00.000Z'),
      row('no-date', null),
    ]
    const thisWeek = rows.filter((r) => inExpiryWindow(r, 'week:2026-11-30', NOW))
    expect(thisWeek.map((r) => r.id)).toEqual(['later-today', 'sunday-night'])
    const nextWeek = rows.filter((r) => inExpiryWindow(r, 'week:2026-12-07', NOW))
    expect(nextWeek.map((r) => r.id)).toEqual(['next-monday'])

    // The same certificates as main counts them per UTC day, bucketed: the bars agree.
    const chart = bucketByWeek(
      { now: NOW, days: daysOf('p', { '2026-12-02': 1, '2026-12-06': 1, '2026-12-07': 1 }) },
      ['p'],
    )
    expect(chart.rows[0]?.counts.slice(0, 2)).toEqual([thisWeek.length, nextWeek.length])
  })
})
