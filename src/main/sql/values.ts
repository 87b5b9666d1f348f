/*
 * Values of a kept result. Rows hold what JSON.parse made of the service's answer, except that
 * a JSON number that a double cannot hold exactly is kept as its source text (ExactNumber):
 * int8 and numeric arrive as strings from the sandbox, but a real service may send
 * 9007199254740993 or 0.1000000000000000055511151231257827 as bare numbers.
 */

/** A JSON number kept as the service wrote it, because a double would change it. */
export class ExactNumber {
  constructor(readonly source: string) {}
  toJSON(): string {
    return this.source
  }
}

/**
 * A value the service cut to fit its size limit (a real deployment sends `{preview, truncated:
 * true}`, or leaves a member of a cut row out): what it kept, and a mark that says so. The mark
 * travels with the text when it is copied or saved: a cut value must not pass for the whole.
 */
export class CutValue {
  constructor(readonly preview: string) {}
  get text(): string {
    return this.preview === '' ? CUT_MARK : `${this.preview}… ${CUT_MARK}`
  }
  toJSON(): string {
    return this.text
  }
}

export const CUT_MARK = '[cut by the service]'

/**
 * A value as a real deployment encodes it in JSON, read: a Buffer's JSON (bytea) becomes the
 * `\x…` hex text psql shows, `{preview, truncated: true}` a CutValue. Anything else is kept.
 */
export function serviceValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  if (keys.length === 2 && record['type'] === 'Buffer' && isByteArray(record['data'])) {
    return `\\x${Buffer.from(record['data']).toString('hex')}`
  }
  if (keys.length === 2 && record['truncated'] === true && typeof record['preview'] === 'string') {
    return new CutValue(record['preview'])
  }
  return value
}

function isByteArray(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) => typeof item === 'number' && Number.isInteger(item) && item >= 0 && item <= 255,
    )
  )
}

/** The text a cell shows and copies; null for SQL NULL. */
export function displayText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (value instanceof ExactNumber) return value.source
  if (value instanceof CutValue) return value.text
  return toJsonText(value)
}

/** JSON text with exact numbers written as they came (not as strings). */
export function toJsonText(value: unknown, indent?: number): string {
  if (!containsExactNumber(value)) return JSON.stringify(value, null, indent)
  const marks: string[] = []
  const text = JSON.stringify(
    value,
    // `this[key]` is the value before its toJSON ran (which turned it into a string).
    function (this: Record<string, unknown>, key: string, item: unknown) {
      const original = this[key]
      if (original instanceof ExactNumber) {
        marks.push(original.source)
        return `\u0000exact${marks.length - 1}\u0000`
      }
      return item
    },
    indent,
  )
  return text.replace(
    /"\\u0000exact(\d+)\\u0000"/g,
    (_match, index: string) => marks[Number(index)]!,
  )
}

function containsExactNumber(value: unknown): boolean {
  if (value instanceof ExactNumber) return true
  if (Array.isArray(value)) return value.some(containsExactNumber)
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some(containsExactNumber)
  }
  return false
}

/** A decimal's text (`-12.50`, `1e3`, `NaN`) compared by value, exactly; non-numbers last. */
export function compareDecimalText(a: string, b: string): number {
  const left = parseDecimal(a)
  const right = parseDecimal(b)
  if (left === null || right === null) {
    if (left === null && right === null) return a < b ? -1 : a > b ? 1 : 0
    return left === null ? 1 : -1
  }
  if (left.negative !== right.negative) return left.negative ? -1 : 1
  const magnitude = compareMagnitude(left, right)
  return left.negative ? -magnitude : magnitude
}

interface Decimal {
  negative: boolean
  /** Digits without leading zeros of the integer part; "" for zero. */
  integer: string
  /** Digits of the fraction without trailing zeros. */
  fraction: string
}

const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/

function parseDecimal(text: string): Decimal | null {
  const match = DECIMAL.exec(text)
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return null
  let integer = match[2] ?? ''
  let fraction = match[3] ?? ''
  const exponent = Number(match[4] ?? 0)
  if (exponent !== 0 && Math.abs(exponent) < 10_000) {
    const digits = integer + fraction
    const point = integer.length + exponent
    if (point <= 0) {
      integer = ''
      fraction = '0'.repeat(-point) + digits
    } else if (point >= digits.length) {
      integer = digits + '0'.repeat(point - digits.length)
      fraction = ''
    } else {
      integer = digits.slice(0, point)
      fraction = digits.slice(point)
    }
  }
  integer = integer.replace(/^0+/, '')
  fraction = fraction.replace(/0+$/, '')
  const zero = integer === '' && fraction === ''
  return { negative: match[1] === '-' && !zero, integer, fraction }
}

function compareMagnitude(a: Decimal, b: Decimal): number {
  if (a.integer.length !== b.integer.length) return a.integer.length < b.integer.length ? -1 : 1
  if (a.integer !== b.integer) return a.integer < b.integer ? -1 : 1
  if (a.fraction !== b.fraction) return a.fraction < b.fraction ? -1 : 1
  return 0
}
