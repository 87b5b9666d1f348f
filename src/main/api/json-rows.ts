/*
 * A big list answer split into its rows as its bytes arrive, without holding the body, parsing
 * it whole, or even decoding it to one string (big data is streamed, never parsed and
 * re-serialised twice). The splitter finds the list's array (the body itself, or one member of
 * the body's object, as in `{ "object": "list", "data": [...] }`) and hands on the text of each
 * element, exactly as the service sent it, as soon as its last byte has arrived. Each row is
 * then parsed and validated on its own: nothing builds 150,000 objects at once, nothing keeps
 * the rows, and nothing is serialised again to be stored.
 *
 * The splitter works on UTF-8 bytes (JSON's delimiters are ASCII, which never occur inside a
 * multi-byte character; a row split between two chunks is joined before it is decoded). It
 * only finds where values begin and end (strings and nesting); each element's text is checked
 * by JSON.parse, and the rest of the body (the envelope around the array, kept with the array
 * left empty) is parsed too, so a malformed body is refused as a whole. Memory: the element
 * being read, and the envelope (small for a list answer; whatever is not the list otherwise,
 * bounded by the client's response size limit).
 */

export class JsonShapeError extends Error {
  override name = 'JsonShapeError'
}

/** One element of the array, as sent (whitespace around it trimmed). */
export type RowHandler = (
  text: string,
  /**
   * Some number in it may not survive JSON.parse exactly (16+ digits, or an exponent): parse
   * it with parseServiceJson. False: plain JSON.parse is exact.
   */
  inexactNumbers: boolean,
) => void

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const COMMA = 0x2c
const COLON = 0x3a
/** Keys longer than this are not the list's member (it is a short name); kept no further. */
const MAX_KEY_BYTES = 256

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length)
}

/**
 * Where the splitter is: before the array (in the envelope), in it, after it, or in a body
 * that cannot hold it (not an array, or not an object when a member is asked for), which is
 * kept whole to say what it is instead.
 */
type Place = 'start' | 'before' | 'array' | 'after' | 'other'

export class JsonRowSplitter {
  private place: Place = 'start'
  private count = 0
  /** The envelope's bytes so far (the array's elements left out). */
  private readonly envelope: Buffer[] = []
  private envelopeBytes = 0
  /** Envelope scanning (outside the array): strings and nesting, and the keys of depth 1. */
  private depth = 0
  private inString = false
  /** The previous chunk ended inside a string, just after an unpaired backslash. */
  private escaped = false
  /** At depth 1 of the top object: the next string is a key (after `{` or `,`). */
  private expectKey = false
  /** The bytes of the depth-1 key being read, or of the last one read. */
  private key: number[] = []
  private keyTooLong = false
  private keyIsString = false
  /** After the member's key and its `:`: whether its value begins with `[`. */
  private memberValueNext = false
  private found = false
  /** The element being read: its bytes from earlier chunks, and its own state. */
  private element: Buffer[] = []
  private inElement = false
  private elementDepth = 0
  private digits = 0
  private inexact = false
  /** The array's last delimiter was a comma (an element must follow). */
  private afterComma = false

  constructor(
    /** The member of the body's object that holds the list, or null: the body is the list. */
    private readonly member: string | null,
    private readonly onRow: RowHandler,
  ) {}

  /** Rows handed on so far. */
  get rows(): number {
    return this.count
  }

  /** Whether the array was found and its elements are being (or were) read. */
  get started(): boolean {
    return this.found
  }

  /** The next bytes of the body. Throws JsonShapeError when the list cannot be read. */
  push(input: Uint8Array): void {
    const chunk = asBuffer(input)
    let at = 0
    while (at < chunk.length) {
      if (this.place === 'array') at = this.scanArray(chunk, at)
      else at = this.scanEnvelope(chunk, at)
    }
  }

  /**
   * The end of the body: the envelope's text, the array written `[]` in it, to be parsed and
   * checked by the caller. Throws JsonShapeError when the array was not found or not closed.
   */
  end(): string {
    if (this.place === 'array') throw new JsonShapeError('the array is not closed')
    if (!this.found) {
      throw new JsonShapeError(this.member === null ? 'not an array' : `no "${this.member}" array`)
    }
    return this.envelopeText()
  }

  /** Everything kept of the body: all of it when the list was not found (to say what it is). */
  envelopeText(): string {
    return Buffer.concat(this.envelope, this.envelopeBytes).toString('utf8')
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return
    // Copied: a transport may read its next bytes into the same buffer.
    const piece = Buffer.from(chunk.subarray(from, to))
    this.envelope.push(piece)
    this.envelopeBytes += piece.length
  }

  /** Scans the envelope from `from`; returns where the array's elements begin, or the end. */
  private scanEnvelope(chunk: Buffer, from: number): number {
    let at = from
    while (at < chunk.length) {
      if (this.inString) {
        at = this.continueString(chunk, at, this.keyIsString)
        continue
      }
      const code = chunk[at]!
      at += 1
      if (isSpace(code)) continue
      if (this.place === 'start') {
        const list = this.member === null ? code === OPEN_BRACKET : code === OPEN_BRACE
        this.place = list ? 'before' : 'other'
        if (list && this.member === null) {
          this.found = true
          this.openArray(chunk, from, at)
          return at
        }
      }
      if (this.memberValueNext) {
        this.memberValueNext = false
        if (code === OPEN_BRACKET && this.place !== 'other') {
          if (this.found) throw new JsonShapeError(`the "${this.member}" member appears twice`)
          this.found = true
          this.openArray(chunk, from, at)
          return at
        }
      }
      if (code === QUOTE) {
        this.inString = true
        this.keyIsString = this.expectKey && this.depth === 1
        if (this.keyIsString) {
          this.key = [QUOTE]
          this.keyTooLong = false
          this.expectKey = false
        }
      } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        this.depth += 1
        this.expectKey = this.depth === 1 && code === OPEN_BRACE
      } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
        this.depth -= 1
      } else if (code === COMMA) {
        this.expectKey = this.depth === 1
      } else if (code === COLON && this.depth === 1 && this.member !== null) {
        this.memberValueNext = this.isMemberKey()
      }
    }
    this.keep(chunk, from, at)
    return at
  }

  /** The array's `[` ends at `at`: the envelope keeps it; its elements follow. */
  private openArray(chunk: Buffer, from: number, at: number): void {
    this.keep(chunk, from, at)
    this.depth += 1
    this.place = 'array'
    this.afterComma = false
  }

  private keyBytes(chunk: Buffer, from: number, to: number): void {
    if (this.keyTooLong) return
    if (this.key.length + (to - from) > MAX_KEY_BYTES) {
      this.keyTooLong = true
      return
    }
    for (let at = from; at < to; at += 1) this.key.push(chunk[at]!)
  }

  private isMemberKey(): boolean {
    if (!this.keyIsString || this.keyTooLong) return false
    this.keyIsString = false
    let key: unknown
    try {
      key = JSON.parse(Buffer.from([...this.key, QUOTE]).toString('utf8'))
    } catch {
      return false
    }
    return key === this.member
  }

  /**
   * Reads on in the string being read, from `at` (an envelope key's bytes are collected when
   * `collectKey`); returns where the scan resumes: past the closing quote, or the chunk's end
   * when the string goes on into the next chunk. Both scans skip strings through here.
   */
  private continueString(chunk: Buffer, at: number, collectKey: boolean): number {
    const end = this.stringEnd(chunk, at)
    if (collectKey) this.keyBytes(chunk, at, end < 0 ? chunk.length : end - 1)
    if (end < 0) return chunk.length
    this.inString = false
    return end
  }

  /**
   * Index just past the closing quote of the string being read, from `from`; -1 when the chunk
   * ends first (`escaped` then says whether its last backslash escapes the next chunk's first
   * byte).
   */
  private stringEnd(chunk: Buffer, from: number): number {
    let at = from
    if (this.escaped) {
      this.escaped = false
      at += 1
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, at)
      const stop = quote < 0 ? chunk.length : quote
      // Escaped when an odd number of backslashes (since `at`) stands before it.
      let backslashes = 0
      while (stop - 1 - backslashes >= at && chunk[stop - 1 - backslashes] === BACKSLASH) {
        backslashes += 1
      }
      if (quote < 0) {
        this.escaped = backslashes % 2 === 1
        return -1
      }
      if (backslashes % 2 === 0) return quote + 1
      at = quote + 1
    }
  }

  /** Scans the array's elements from `from`; returns where the envelope resumes, or the end. */
  private scanArray(chunk: Buffer, from: number): number {
    let start = this.inElement ? from : -1
    let at = from
    while (at < chunk.length) {
      if (this.inString) {
        at = this.continueString(chunk, at, false)
        continue
      }
      const code = chunk[at]!
      if (
        this.elementDepth === 0 &&
        (code === COMMA || code === CLOSE_BRACKET || code === CLOSE_BRACE)
      ) {
        this.digits = 0
        if (this.inElement) {
          this.finishElement(chunk, start, at)
          start = -1
        } else if (code === COMMA || this.afterComma) {
          throw new JsonShapeError('a value is missing in the array')
        }
        if (code === COMMA) {
          this.afterComma = true
          at += 1
          continue
        }
        if (code === CLOSE_BRACE) throw new JsonShapeError('the array is closed by }')
        // The envelope resumes with the `]`.
        this.place = 'after'
        this.expectKey = false
        return at
      }
      if (!this.inElement) {
        if (isSpace(code)) {
          at += 1
          continue
        }
        this.inElement = true
        this.afterComma = false
        start = at
      }
      at += 1
      if (isDigit(code)) {
        this.digits += 1
        if (this.digits >= 16) this.inexact = true
        continue
      }
      if ((code === 0x65 || code === 0x45) && this.digits > 0) this.inexact = true
      this.digits = 0
      if (code === QUOTE) {
        this.inString = true
      } else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        this.elementDepth += 1
      } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
        this.elementDepth -= 1
      }
    }
    if (this.inElement) this.element.push(Buffer.from(chunk.subarray(start, chunk.length)))
    return at
  }

  /** The element that began at `start` (-1: in an earlier chunk) ends before `end`. */
  private finishElement(chunk: Buffer, start: number, end: number): void {
    // Decoded straight from the chunk when the row is all in it (the common case: no copy,
    // no view object per row); joined with its earlier pieces otherwise.
    const joined =
      this.element.length === 0
        ? null
        : Buffer.concat([...this.element, chunk.subarray(Math.max(start, 0), end)])
    const bytes = joined ?? chunk
    const from = joined === null ? start : 0
    let last = joined === null ? end : joined.length
    while (last > from && isSpace(bytes[last - 1]!)) last -= 1
    const text = bytes.toString('utf8', from, last)
    const inexact = this.inexact
    if (joined !== null) this.element = []
    this.inElement = false
    this.inexact = false
    this.count += 1
    this.onRow(text, inexact)
  }
}

/** Every row of a whole body (tests, and bodies already in memory). */
export function splitJsonRows(
  body: Uint8Array,
  member: string | null,
): { rows: string[]; envelope: string; inexact: boolean[] } {
  const rows: string[] = []
  const inexact: boolean[] = []
  const splitter = new JsonRowSplitter(member, (text, maybe) => {
    rows.push(text)
    inexact.push(maybe)
  })
  splitter.push(body)
  return { rows, envelope: splitter.end(), inexact }
}
