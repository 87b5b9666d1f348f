/*
 * The one reader of a service's timestamps. The interface leaves their form open (session
 * timestamps are "integer", unit not shown; the status page preview and other generic
 * resources show no types at all), so a reasonable service may send epoch seconds, epoch
 * milliseconds or ISO 8601 text. Main and the renderer both read them here, so a value reads
 * the same on every screen.
 */

/** Integers below this are seconds: 10^12 ms is 2001-09-09, 10^12 s is in the year 33658. */
const SECONDS_BELOW = 1e12
/** What a Date can hold: ±8.64e15 ms from the epoch. */
const MAX_EPOCH_MS = 8.64e15
/** A date-time as text: 2025-05-12, then optionally T or a space and a time. */
const ISO_8601 =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i
/** Epoch seconds or milliseconds written as text ("1700000000"), as some services do. */
const EPOCH_DIGITS = /^-?\d{1,16}(?:\.\d+)?$/

/** An epoch number of either unit in milliseconds: values below 10^12 are seconds. */
export function epochMsOf(value: number): number {
  return Math.abs(value) < SECONDS_BELOW ? value * 1000 : value
}

/**
 * Epoch milliseconds from epoch seconds, epoch milliseconds (numbers or digit strings) or ISO
 * 8601 text; null for anything else (junk, booleans, out of a Date's range). Never guesses at
 * free text: `Date.parse` alone reads "1" as the year 2001 and "May 7" as a date.
 */
export function parseTimestamp(value: unknown): number | null {
  let ms: number
  if (typeof value === 'number') {
    ms = epochMsOf(value)
  } else if (typeof value === 'string') {
    const text = value.trim()
    if (EPOCH_DIGITS.test(text)) ms = epochMsOf(Number(text))
    else if (ISO_8601.test(text)) ms = Date.parse(text.replace(' ', 'T'))
    else return null
  } else {
    return null
  }
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_EPOCH_MS ? ms : null
}

/** The same as ISO 8601 (UTC), or null: how main stores a date it read. */
export function parseTimestampIso(value: unknown): string | null {
  const ms = parseTimestamp(value)
  return ms === null ? null : new Date(ms).toISOString()
}
