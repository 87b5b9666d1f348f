import { describe, expect, it } from 'vitest'
import { toEpochMs } from '../../src/shared/api'
import {
  describeTime,
  formatAge,
  formatLocal,
  formatLocalFull,
  formatRelative,
  isValidTime,
  toIso,
} from '../../src/renderer/src/lib/time'

const NOW = Date.UTC(2025, 4, 12, 14, 0, 0)
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe('formatRelative', () => {
  it('says "just now" within a minute in the past', () => {
    expect(formatRelative(NOW, NOW)).toBe('just now')
    expect(formatRelative(NOW - 59_000, NOW)).toBe('just now')
  })

  it('counts minutes, hours, days, months and years both ways', () => {
    expect(formatRelative(NOW - 3 * MINUTE, NOW)).toBe('3 min ago')
    expect(formatRelative(NOW - 5 * HOUR - 10 * MINUTE, NOW)).toBe('5 h ago')
    expect(formatRelative(NOW + 2 * DAY + HOUR, NOW)).toBe('in 2 days')
    expect(formatRelative(NOW - DAY, NOW)).toBe('1 day ago')
    expect(formatRelative(NOW - 65 * DAY, NOW)).toBe('2 months ago')
    expect(formatRelative(NOW + 400 * DAY, NOW)).toBe('in 1 year')
    expect(formatRelative(NOW + 30 * 1000, NOW)).toBe('in under a minute')
  })

  it('reads seconds and milliseconds alike once passed through toEpochMs', () => {
    const seconds = Math.floor((NOW - 3 * MINUTE) / 1000)
    expect(formatRelative(toEpochMs(seconds), NOW)).toBe('3 min ago')
    expect(formatRelative(toEpochMs(NOW - 3 * MINUTE), NOW)).toBe('3 min ago')
  })
})

describe('describeTime', () => {
  it('never words a past event in the future when the service clock runs ahead', () => {
    for (const ahead of [1_000, 30_000, 5 * MINUTE, 2 * DAY]) {
      const { relative, tooltip } = describeTime(NOW + ahead, NOW)
      expect(relative).toBe('just now')
      // The exact time stays in the tooltip, with why it reads "just now".
      expect(tooltip).toContain(formatLocalFull(NOW + ahead))
      expect(tooltip).toMatch(/ahead of this computer’s clock/)
    }
    expect(describeTime(NOW - 3 * MINUTE, NOW)).toEqual({
      relative: '3 min ago',
      tooltip: formatLocalFull(NOW - 3 * MINUTE),
    })
  })

  it('keeps the future for times that may lie ahead (an expiry)', () => {
    expect(describeTime(NOW + 2 * DAY + HOUR, NOW, 'any')).toEqual({
      relative: 'in 2 days',
      tooltip: formatLocalFull(NOW + 2 * DAY + HOUR),
    })
  })
})

describe('formatAge', () => {
  it('never says "from just now"', () => {
    expect(formatAge(NOW - 10_000, NOW)).toBe('less than a minute ago')
    expect(formatAge(NOW - 12 * MINUTE, NOW)).toBe('12 min ago')
  })
})

describe('times a service may send', () => {
  it('rejects values a Date cannot hold instead of throwing', () => {
    expect(isValidTime(NOW)).toBe(true)
    expect(isValidTime(Number.MAX_SAFE_INTEGER)).toBe(false)
    expect(toIso(Number.NaN)).toBe('')
    expect(toIso(NOW)).toBe('2025-05-12T14:00:00.000Z')
  })
})

describe('formatLocal', () => {
  it('writes local time year first, to the minute; seconds and offset in the long form', () => {
    const at = new Date(2025, 4, 2, 9, 3, 7).getTime() // local time, whatever the zone
    expect(formatLocal(at)).toBe('2025-05-02 09:03')
    expect(formatLocalFull(at)).toMatch(/^2025-05-02 09:03:07 UTC[+-]\d\d:\d\d$/)
    expect(formatLocal(Number.POSITIVE_INFINITY)).toBe('Infinity')
  })
})
