/*
 * A big list answer split into its rows without parsing it whole, or even decoding it to one
 * string (issue 9: "big data is
 * streamed, never parsed and re-serialised twice"). The scanner finds the list's array (the
 * body itself, or one member of the body's object, as in `{ "object": "list", "data": [...] }`)
 * and the text of each element, exactly as the service sent it. Each row is then parsed and
 * validated on its own, and kept as that text: nothing builds 150,000 objects at once, and
 * nothing is serialised again to be stored.
 *
 * The scanner works on the body's UTF-8 bytes (JSON's delimiters are ASCII, which never occur
 * inside a multi-byte character). It only has to find where values begin and end (strings and
 * nesting); each element's text is then checked by JSON.parse, and the rest of the body (the
 * envelope around the array) is parsed too, so a malformed body is refused as a whole.
 */

export interface ArraySpan {
  /** Index of the array's `[`. */
  start: number
  /** Index just past its `]`. */
  end: number
  /** [from, to) of each element's text, whitespace trimmed. */
  elements: Uint32Array
  /**
   * Some number in the elements may not survive JSON.parse exactly (16+ digits, or an
   * exponent): parse them with parseServiceJson. False: plain JSON.parse is exact.
   */
  inexactNumbers: boolean
}

export class JsonShapeError extends Error {
  override name = 'JsonShapeError'
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const COMMA = 0x2c
const COLON = 0x3a

function isSpace(code: number | undefined): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

type Bytes = Buffer

function skipSpace(text: Bytes, index: number): number {
  while (index < text.length && isSpace(text[index])) index += 1
  return index
}

/** Index just past the string that opens at `index` (a `"`). */
function skipString(text: Bytes, index: number): number {
  let at = index + 1
  for (;;) {
    const quote = text.indexOf(QUOTE, at)
    if (quote < 0) throw new JsonShapeError('a string is not closed')
    // Escaped when an odd number of backslashes stands before it.
    let backslashes = 0
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes += 1
    if (backslashes % 2 === 0) return quote + 1
    at = quote + 1
  }
}

/** Set by skipValue when a number outside strings may be inexact (see ArraySpan). */
let sawInexact = false

function isDigit(code: number | undefined): boolean {
  return code !== undefined && code >= 0x30 && code <= 0x39
}

/**
 * Index just past the value that starts at `index`. Containers are skipped by counting
 * brackets outside strings; scalars run to the next delimiter. JSON.parse of the pieces checks
 * the rest.
 */
function skipValue(text: Bytes, index: number): number {
  const first = text[index]
  if (first === QUOTE) return skipString(text, index)
  if (first === OPEN_BRACKET || first === OPEN_BRACE) {
    let depth = 0
    let digits = 0
    for (let at = index; at < text.length; at += 1) {
      const code = text[at]
      if (isDigit(code)) {
        digits += 1
        if (digits >= 16) sawInexact = true
        continue
      }
      if ((code === 0x65 || code === 0x45) && digits > 0) sawInexact = true
      digits = 0
      if (code === QUOTE) {
        at = skipString(text, at) - 1
      } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        depth += 1
      } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
        depth -= 1
        if (depth === 0) return at + 1
      }
    }
    throw new JsonShapeError('an array or object is not closed')
  }
  let at = index
  while (at < text.length) {
    const code = text[at]
    if (code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE || isSpace(code)) break
    at += 1
  }
  if (at === index) throw new JsonShapeError(`a value is missing at ${index}`)
  // A scalar element: the same test as parseServiceJson's, on its few characters.
  if (/\d{16}|[eE][+-]?\d{3}/.test(decode(text, index, at))) sawInexact = true
  return at
}

/** The elements of the array that opens at `start`. */
function splitArrayAt(text: Bytes, start: number): ArraySpan {
  if (text[start] !== OPEN_BRACKET) throw new JsonShapeError('not an array')
  const bounds: number[] = []
  let at = skipSpace(text, start + 1)
  sawInexact = false
  if (text[at] === CLOSE_BRACKET) {
    return { start, end: at + 1, elements: new Uint32Array(0), inexactNumbers: false }
  }
  for (;;) {
    const from = at
    const to = skipValue(text, at)
    bounds.push(from, to)
    at = skipSpace(text, to)
    const code = text[at]
    if (code === CLOSE_BRACKET) {
      return {
        start,
        end: at + 1,
        elements: Uint32Array.from(bounds),
        inexactNumbers: sawInexact,
      }
    }
    if (code !== COMMA) throw new JsonShapeError(`expected , or ] at ${at}`)
    at = skipSpace(text, at + 1)
  }
}

/**
 * Finds the list in `text`: the body itself when `member` is null, else the array held by that
 * member of the body's object. Throws JsonShapeError when it is not there.
 */
export function findJsonArray(text: Bytes, member: string | null): ArraySpan {
  const start = skipSpace(text, 0)
  if (member === null) {
    const span = splitArrayAt(text, start)
    if (skipSpace(text, span.end) !== text.length) {
      throw new JsonShapeError('text follows the array')
    }
    return span
  }
  if (text[start] !== OPEN_BRACE) throw new JsonShapeError('not an object')
  let at = skipSpace(text, start + 1)
  let found: ArraySpan | null = null
  while (at < text.length && text[at] !== CLOSE_BRACE) {
    if (text[at] !== QUOTE) throw new JsonShapeError(`expected a key at ${at}`)
    const keyEnd = skipString(text, at)
    const key = JSON.parse(decode(text, at, keyEnd)) as string
    at = skipSpace(text, keyEnd)
    if (text[at] !== COLON) throw new JsonShapeError(`expected : at ${at}`)
    at = skipSpace(text, at + 1)
    if (key === member && text[at] === OPEN_BRACKET) {
      // The last of duplicate keys wins, as with JSON.parse.
      found = splitArrayAt(text, at)
      at = found.end
    } else {
      at = skipValue(text, at)
    }
    at = skipSpace(text, at)
    if (text[at] === COMMA) at = skipSpace(text, at + 1)
  }
  if (found === null) throw new JsonShapeError(`no "${member}" array`)
  return found
}

function decode(text: Bytes, from: number, to: number): string {
  return text.toString('utf8', from, to)
}

/** The body with the array's elements left out (`[]`), to parse and check the rest of it. */
export function withoutElements(text: Bytes, span: ArraySpan): string {
  return decode(text, 0, span.start) + '[]' + decode(text, span.end, text.length)
}

/** The text of element `index`. */
export function elementText(text: Bytes, span: ArraySpan, index: number): string {
  return decode(text, span.elements[index * 2]!, span.elements[index * 2 + 1]!)
}

export function elementCount(span: ArraySpan): number {
  return span.elements.length / 2
}
