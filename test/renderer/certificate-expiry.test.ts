import { describe, expect, it } from 'vitest'
import { expiryLabel, expiryOf } from '../../src/renderer/src/features/certificates/model'
import {
  DAY_MS,
  daysLeft,
  daysLeftLabel,
  endsWithin,
  expiresWithin,
  isExpired,
  notAfterMs,
} from '../../src/shared/certificate-expiry'

/*
 * One definition of days left: the list's words and the number a file or the
 * CLI writes are the same count, toward zero, on both sides of now.
 */

const now = Date.parse('2026-11-23T12:00:00.000Z')

describe('days left', () => {
  it('counts whole days toward zero: "Expired 35 d ago" is -35, never -36', () => {
    const end = now - 35.9 * DAY_MS
    expect(daysLeft(end, now)).toBe(-35)
    expect(daysLeftLabel(end, now)).toBe('Expired 35 d ago')
    expect(expiryLabel(expiryOf({ notAfter: new Date(end).toISOString() }, now))).toBe(
      'Expired 35 d ago',
    )
    expect(daysLeft(now + 35.9 * DAY_MS, now)).toBe(35)
    expect(daysLeftLabel(now + 35.9 * DAY_MS, now)).toBe('35 d left')
  })

  it('is 0 within a day on either side, told apart by expired (and never -0)', () => {
    expect(Object.is(daysLeft(now - 1000, now), 0)).toBe(true)
    expect(daysLeftLabel(now - 1000, now)).toBe('Expired today')
    expect(daysLeftLabel(now, now)).toBe('Expired today')
    expect(daysLeftLabel(now + 1000, now)).toBe('Expires today')
    expect(isExpired(now, now)).toBe(true)
    expect(isExpired(now + 1, now)).toBe(false)
  })

  it('agrees with the screen’s expiryOf at every offset', () => {
    for (const offset of [-400, -35.9, -1, -0.5, 0, 0.5, 1, 6.99, 7, 29.99, 30, 400]) {
      const end = now + offset * DAY_MS
      const expiry = expiryOf({ notAfter: new Date(end).toISOString() }, now)
      expect(expiryLabel(expiry)).toBe(daysLeftLabel(end, now))
      expect(expiry.kind === 'soon').toBe(expiresWithin(end, now, 30))
    }
  })

  it('ends within N days: before now + N days, expired included; the Overview’s figure excludes them', () => {
    expect(endsWithin(now - 400 * DAY_MS, now, 7)).toBe(true)
    expect(expiresWithin(now - 400 * DAY_MS, now, 7)).toBe(false)
    expect(endsWithin(now + 7 * DAY_MS - 1, now, 7)).toBe(true)
    expect(endsWithin(now + 7 * DAY_MS, now, 7)).toBe(false)
  })

  it('reads an end that is missing or not a date as none', () => {
    expect(notAfterMs(null)).toBeNull()
    expect(notAfterMs('')).toBeNull()
    expect(notAfterMs('not a date')).toBeNull()
    expect(notAfterMs('2026-11-23T12:00:00.000Z')).toBe(now)
  })
})
