import { describe, expect, it } from 'vitest'
import {
  DAYS_MAX,
  DAYS_MIN,
  DAYS_RANGE_HINT,
  DAYS_RANGE_MESSAGE,
  expiringCountText,
  expiringEmptyText,
  readDays,
} from '../../src/renderer/src/features/overview/expiring-text'
import { channels } from '../../src/shared/bridge'

/* The Expiring list's N-days box and its sentences. */

describe('the N-days box', () => {
  it('takes its range from the contract: main accepts both ends and nothing beyond', () => {
    const input = channels['overview.expiring'].input
    expect(input.safeParse({ days: DAYS_MIN }).success).toBe(true)
    expect(input.safeParse({ days: DAYS_MAX }).success).toBe(true)
    expect(input.safeParse({ days: DAYS_MIN - 1 }).success).toBe(false)
    expect(input.safeParse({ days: DAYS_MAX + 1 }).success).toBe(false)
    expect(DAYS_RANGE_MESSAGE).toBe(`Enter whole days from ${DAYS_MIN} to ${DAYS_MAX}`)
    expect([DAYS_MIN, DAYS_MAX]).toEqual([1, 3650])
  })

  it('reads whole days in range', () => {
    expect(readDays('7')).toEqual({ ok: true, days: 7 })
    expect(readDays(' 45 ')).toEqual({ ok: true, days: 45 })
    expect(readDays(String(DAYS_MIN))).toEqual({ ok: true, days: DAYS_MIN })
    expect(readDays(String(DAYS_MAX))).toEqual({ ok: true, days: DAYS_MAX })
  })

  it('refuses what main would refuse, and an empty box, naming the range', () => {
    for (const text of ['0', '-5', '5000', String(DAYS_MAX + 1), '2.5', '', ' ', 'abc']) {
      expect(readDays(text), text).toEqual({ ok: false, message: DAYS_RANGE_MESSAGE })
    }
  })
})

describe('the Expiring list in words', () => {
  it('agrees in number with each count', () => {
    expect(expiringCountText(1, 1, 1)).toBe('1 certificate in 1 of 1 profile')
    expect(expiringCountText(0, 0, 2)).toBe('0 certificates in 0 of 2 profiles')
    expect(expiringCountText(12, 2, 3)).toBe('12 certificates in 2 of 3 profiles')
  })

  it('says which window was empty', () => {
    expect(expiringEmptyText(1)).toBe('No saved certificate expires within 1 day.')
    expect(expiringEmptyText(30)).toBe('No saved certificate expires within 30 days.')
  })
})

describe('the bound beside the box', () => {
  it('names the range the contract accepts before a value is refused', () => {
    expect(DAYS_RANGE_HINT).toBe(`${DAYS_MIN} to ${DAYS_MAX}`)
    expect(DAYS_RANGE_MESSAGE).toContain(DAYS_RANGE_HINT)
  })
})
