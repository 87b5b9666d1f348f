/*
 * Time as an operator reads it: an absolute local time (for the record) next to a relative one
 * (for the glance). Pure functions, so the wording is unit-tested without a browser. What a
 * service sends is read by the app's one timestamp reader (src/shared/time.ts: epoch seconds,
 * milliseconds or ISO 8601), re-exported here for the screens.
 */

export { epochMsOf, parseTimestamp } from '../../../shared/time'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const MONTH = 30 * DAY
const YEAR = 365 * DAY

/** "1 day", "2 days": a count with its noun (a regular plural: the noun and an s). */
export function plural(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'}`
}

/** The magnitude of a duration in words: "3 min", "5 h", "2 days". */
function span(ms: number): string {
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`
  if (ms < MONTH) return plural(Math.floor(ms / DAY), 'day')
  if (ms < YEAR) return plural(Math.floor(ms / MONTH), 'month')
  return plural(Math.floor(ms / YEAR), 'year')
}

/** "just now", "3 min ago", "in 2 days", "5 h ago". Both arguments are epoch milliseconds. */
export function formatRelative(at: number, now: number): string {
  const delta = at - now
  const magnitude = Math.abs(delta)
  if (magnitude < MINUTE)
    return delta < 0 || magnitude < 5 * SECOND ? 'just now' : 'in under a minute'
  return delta < 0 ? `${span(magnitude)} ago` : `in ${span(magnitude)}`
}

/**
 * Whether a time is of something that happened ('past': fetched, updated, started), which can
 * only be ahead of now when the service's clock runs ahead of this computer's, or may lie
 * either way ('any': an expiry, a scheduled date).
 */
export type Tense = 'past' | 'any'

/**
 * A time as RelativeTime shows it: the relative words, and the exact local time for the
 * tooltip. A past event stamped ahead of now reads "just now" (not "in under a minute"), and
 * its tooltip says why.
 */
export function describeTime(
  at: number,
  now: number,
  tense: Tense = 'past',
): { relative: string; tooltip: string } {
  const full = formatLocalFull(at)
  if (tense === 'past' && at > now) {
    return { relative: 'just now', tooltip: `${full} (ahead of this computer’s clock)` }
  }
  return { relative: formatRelative(at, now), tooltip: full }
}

/** How old data fetched at `at` is: "less than a minute ago", "12 min ago". */
export function formatAge(at: number, now: number): string {
  if (now - at < MINUTE) return 'less than a minute ago'
  return formatRelative(at, now)
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0')
}

/**
 * The local date and time, compact and sortable: "2025-05-12 14:03". Operators compare times
 * across rows and with logs, so the year-first form beats a locale's long form here.
 */
export function formatLocal(at: number): string {
  if (!isValidTime(at)) return String(at)
  const d = new Date(at)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The same with seconds and the UTC offset, for tooltips: "2025-05-12 14:03:22 UTC+02:00". */
export function formatLocalFull(at: number): string {
  if (!isValidTime(at)) return String(at)
  const d = new Date(at)
  const offset = -d.getTimezoneOffset()
  const sign = offset >= 0 ? '+' : '-'
  const zone = `UTC${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${formatLocal(at)}:${pad(d.getSeconds())} ${zone}`
}

/** The machine-readable form for `<time dateTime>`. */
export function toIso(at: number): string {
  return isValidTime(at) ? new Date(at).toISOString() : ''
}

/** Whether a Date can represent `at` (±8.64e15 ms); a service may send anything. */
export function isValidTime(at: number): boolean {
  return Number.isFinite(at) && Math.abs(at) <= 8.64e15
}
