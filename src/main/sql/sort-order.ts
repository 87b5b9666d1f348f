import type { SqlField } from '../../shared/bridge/channels/sql'
import { compareDecimalText, displayText, ExactNumber } from './values'

/*
 * The order of a kept result sorted by one column, as PostgreSQL's ORDER BY would give it:
 * text in code-point order (the C collation: UTF-8 bytes, never "natural" digit runs), numbers,
 * booleans, dates and times by value, NULLs last ascending and first descending (PostgreSQL's
 * default NULLS LAST / NULLS FIRST). Equal values keep the service's order. Pure: no I/O, no
 * state, so the result store can run it wherever it lives (a worker thread too).
 */

export type SortDirection = 'asc' | 'desc'

/** How one kind of column compares its non-NULL values: through a key computed once per row. */
interface Ordering<K> {
  keyOf(value: unknown): K
  compare(a: K, b: K): number
}

/**
 * Row indexes of `rows` in the order of `column`, `direction`. `field` says the column's type
 * (from the service's type name or OID, or inferred from its values by parse-result).
 */
export function sortOrder(
  rows: readonly (readonly unknown[])[],
  column: number,
  field: SqlField,
  direction: SortDirection,
): Uint32Array {
  return orderWith(orderingFor(field), rows, column, direction)
}

function orderWith<K>(
  ordering: Ordering<K>,
  rows: readonly (readonly unknown[])[],
  column: number,
  direction: SortDirection,
): Uint32Array {
  // Keys once per row: a timestamp is parsed n times, not n log n times.
  const keys: (K | null)[] = rows.map((row) => {
    const value = row[column]
    return value === null || value === undefined ? null : ordering.keyOf(value)
  })
  const sign = direction === 'asc' ? 1 : -1
  const order = Uint32Array.from({ length: rows.length }, (_, index) => index)
  order.sort((a, b) => {
    const left = keys[a]!
    const right = keys[b]!
    if (left === null || right === null) {
      if (left === right) return a - b
      // NULL is larger than every value: last ascending, first descending.
      return sign * (left === null ? 1 : -1)
    }
    return sign * ordering.compare(left, right) || a - b
  })
  return order
}

/** The ordering of a column's type. */
function orderingFor(field: SqlField): Ordering<unknown> {
  if (field.display === 'number') return NUMBER_ORDERING as Ordering<unknown>
  if (field.display === 'boolean') return BOOLEAN_ORDERING as Ordering<unknown>
  const type = field.dataType.toLowerCase()
  if (DATE_TIME_TYPES.has(type)) return dateTimeOrdering(type) as Ordering<unknown>
  return TEXT_ORDERING as Ordering<unknown>
}

/**
 * Compares two strings by Unicode code point, which is UTF-8 byte order (PostgreSQL's C
 * collation). `<` on JS strings compares UTF-16 units, which puts U+FF61 after U+1F600; mapping
 * surrogates above the rest of the BMP fixes that at the first differing unit.
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let index = 0; index < length; index += 1) {
    const left = a.charCodeAt(index)
    const right = b.charCodeAt(index)
    if (left !== right) return codePointRank(left) - codePointRank(right)
  }
  return a.length - b.length
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000
  if (unit >= 0xe000) return unit - 0x800
  return unit
}

const TEXT_ORDERING: Ordering<string> = {
  keyOf: (value) => displayText(value) ?? '',
  compare: compareCodePoints,
}

/** A number as the service sent it: a JS number, or exact digits (int8, numeric). */
type NumberKey = number | string

/** PostgreSQL's order of the special values: -Infinity < every number < Infinity < NaN. */
const SPECIAL_NUMBERS: Record<string, number> = {
  '-infinity': -1,
  infinity: 1,
  '+infinity': 1,
  nan: 2,
}

const NUMBER_ORDERING: Ordering<NumberKey> = {
  keyOf: (value) =>
    typeof value === 'number'
      ? value
      : value instanceof ExactNumber
        ? value.source
        : (displayText(value) ?? ''),
  compare(a, b) {
    if (typeof a === 'number' && typeof b === 'number') return a - b
    const left = String(a)
    const right = String(b)
    const leftSpecial = SPECIAL_NUMBERS[left.trim().toLowerCase()] ?? 0
    const rightSpecial = SPECIAL_NUMBERS[right.trim().toLowerCase()] ?? 0
    if (leftSpecial !== 0 || rightSpecial !== 0) {
      return leftSpecial - rightSpecial || compareCodePoints(left, right)
    }
    // Exactly, by the digits: 9007199254740993 > 9007199254740992 although a double says equal.
    return compareDecimalText(left, right)
  },
}

const TRUE_TEXTS = new Set(['t', 'true', 'y', 'yes', 'on', '1'])

const BOOLEAN_ORDERING: Ordering<number> = {
  keyOf: (value) =>
    value === true || (typeof value === 'string' && TRUE_TEXTS.has(value.trim().toLowerCase()))
      ? 1
      : 0,
  compare: (a, b) => a - b,
}

const DATE_TIME_TYPES = new Set([
  'date',
  'timestamp',
  'timestamptz',
  'timestamp without time zone',
  'timestamp with time zone',
  'time',
  'timetz',
  'time without time zone',
  'time with time zone',
])

/**
 * A point in time to compare: whole seconds, then the fraction's digits (up to nanoseconds, so
 * PostgreSQL's microseconds are kept, which a Date's milliseconds would drop). `rank` places
 * -infinity first and infinity last, and text that does not read as a time after all times.
 */
interface TimeKey {
  rank: -1 | 0 | 1 | 2
  seconds: number
  fraction: string
  text: string
}

const DATE_TIME =
  /^(\d{4,})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?(\s+BC)?$/i
const TIME_OF_DAY =
  /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2}(?::?\d{2})?)?)?$/i

function dateTimeOrdering(type: string): Ordering<TimeKey> {
  const timeOfDay = type.startsWith('time') && !type.startsWith('timestamp')
  return {
    keyOf: (value) => {
      const text = (displayText(value) ?? '').trim()
      return (timeOfDay ? timeOfDayKey(text) : dateTimeKey(text)) ?? unreadable(text)
    },
    compare: (a, b) =>
      a.rank - b.rank ||
      a.seconds - b.seconds ||
      compareCodePoints(a.fraction, b.fraction) ||
      compareCodePoints(a.text, b.text),
  }
}

function unreadable(text: string): TimeKey {
  return { rank: 2, seconds: 0, fraction: '', text }
}

function timeKey(seconds: number, fraction: string | undefined, text: string): TimeKey {
  return { rank: 0, seconds, fraction: (fraction ?? '').padEnd(9, '0').slice(0, 9), text }
}

/** A date or timestamp (JSON's ISO form or PostgreSQL's own text, BC years, ±infinity). */
function dateTimeKey(text: string): TimeKey | null {
  const lower = text.toLowerCase()
  if (lower === '-infinity') return { rank: -1, seconds: 0, fraction: '', text }
  if (lower === 'infinity' || lower === '+infinity')
    return { rank: 1, seconds: 0, fraction: '', text }
  const match = DATE_TIME.exec(text)
  if (!match) return null
  const [, year, month, day, hour, minute, second, fraction, offset, bc] = match
  // 1 BC is year 0, 2 BC year -1 (ISO 8601's astronomical years).
  const fullYear = bc ? 1 - Number(year) : Number(year)
  const date = new Date(0)
  date.setUTCFullYear(fullYear, Number(month) - 1, Number(day))
  date.setUTCHours(Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0), 0)
  const seconds = date.getTime() / 1000 - offsetSeconds(offset)
  return Number.isFinite(seconds) ? timeKey(seconds, fraction, text) : null
}

/** A time of day, with its zone when it has one (timetz compares in UTC). */
function timeOfDayKey(text: string): TimeKey | null {
  const match = TIME_OF_DAY.exec(text)
  if (!match) return null
  const [, hour, minute, second, fraction, offset] = match
  const seconds =
    Number(hour) * 3600 + Number(minute) * 60 + Number(second ?? 0) - offsetSeconds(offset)
  return timeKey(seconds, fraction, text)
}

/** "+02", "-05:30", "+0530", "Z" in seconds east of UTC; none is UTC. */
function offsetSeconds(offset: string | undefined): number {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0
  const digits = offset.slice(1).replace(/:/g, '')
  const seconds =
    Number(digits.slice(0, 2)) * 3600 +
    Number(digits.slice(2, 4) || 0) * 60 +
    Number(digits.slice(4, 6) || 0)
  return offset.startsWith('-') ? -seconds : seconds
}
