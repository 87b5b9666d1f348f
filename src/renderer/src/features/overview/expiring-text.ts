import { expiringDays } from '../../../../shared/bridge/channels/overview'
import { plural } from '../../lib/time'

/*
 * The Expiring list's N-days box and its sentences, pure so they are unit-tested without a
 * browser. The allowed range is the bridge contract's own (`expiringDays`), so the box, its
 * message and what main accepts cannot drift apart.
 */

// The contract's schema has both bounds; the fallbacks only satisfy the type (a bound-less
// z.int() would report null).
export const DAYS_MIN = expiringDays.minValue ?? 1
export const DAYS_MAX = expiringDays.maxValue ?? 3650

export const DAYS_RANGE_MESSAGE = `Enter whole days from ${DAYS_MIN} to ${DAYS_MAX}`

/** Beside the box at all times, so the bound is known before a value is refused. */
export const DAYS_RANGE_HINT = `${DAYS_MIN} to ${DAYS_MAX}`

export type DaysReading = { ok: true; days: number } | { ok: false; message: string }

/**
 * What the box holds, as the contract reads it: whole days in range, or why not. An empty box
 * (also what a number input reports for text it cannot read, such as "-") is not a number:
 * Number('') would make it 0.
 */
export function readDays(text: string): DaysReading {
  const trimmed = text.trim()
  const parsed = expiringDays.safeParse(trimmed === '' ? Number.NaN : Number(trimmed))
  return parsed.success
    ? { ok: true, days: parsed.data }
    : { ok: false, message: DAYS_RANGE_MESSAGE }
}

/** "1 certificate in 1 of 2 profiles". */
export function expiringCountText(total: number, inProfiles: number, ofProfiles: number): string {
  return `${plural(total, 'certificate')} in ${inProfiles} of ${plural(ofProfiles, 'profile')}`
}

/** What the list says when nothing ends within its window. */
export function expiringEmptyText(days: number): string {
  return `No saved certificate expires within ${plural(days, 'day')}.`
}
