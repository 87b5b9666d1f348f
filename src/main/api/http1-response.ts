/*
 * A strict HTTP/1.1 response parser for downloads, as a pure state machine: bytes in, a head
 * and body bytes out. It exists so that a download can read its socket into one reused buffer
 * (see raw-http.ts) instead of a fresh allocation per read; nothing here touches a socket.
 *
 * What it accepts (RFC 9112), and nothing more:
 *   - a status line `HTTP/1.0|1.1 NNN reason`, header fields `name: value`, CRLF or bare LF;
 *     obsolete line folding and malformed names are refused;
 *   - interim 1xx heads (100 Continue, 103 Early Hints) are skipped; 101 is refused (we never
 *     ask to switch protocols);
 *   - a body framed by `Transfer-Encoding: chunked` (extensions ignored, trailers read and
 *     dropped), by `Content-Length` (one value, or a list of equal values), or by the end of
 *     the connection; 204 and 304 have none.
 * Limits keep a hostile server from growing memory: 64 KiB of head, 4 KiB per chunk-size or
 * trailer line.
 */

export interface ResponseHead {
  status: number
  headers: Headers
}

/**
 * Receives body bytes. `bytes` is a view of a reused buffer: valid during the call, or until the
 * returned promise settles; that buffer is not read into again before then, so a sink can write
 * the bytes to disk from where they are, without a copy. The reader may fill its other buffer
 * and call `write` again before the previous write settled: a sink keeps its writes in call
 * order (download.ts chains them).
 */
export interface BodySink {
  write(bytes: Uint8Array): void | Promise<void>
}

/** The answer is not HTTP/1.1 we can trust: the download fails (and may be resumed). */
export class MalformedResponseError extends Error {
  readonly code = 'ERR_HTTP_MALFORMED'
}

/** The connection ended before the body its framing announced. */
export class IncompleteResponseError extends Error {
  readonly code = 'ERR_HTTP_INCOMPLETE'
  constructor(readonly receivedBytes: number) {
    super('The connection closed before the end of the answer')
  }
}

const MAX_HEAD_BYTES = 64 * 1024
const MAX_LINE_BYTES = 4 * 1024
/** An HTTP token (RFC 9110 5.6.2): what a header field's name must be, in either direction. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const STATUS_LINE = /^HTTP\/1\.[01] ([1-9]\d\d)(?: [^\r\n]*)?$/
const CR = 13
const LF = 10

type State =
  | { kind: 'head' }
  | { kind: 'length'; remaining: number }
  | { kind: 'until-close' }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; remaining: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'done' }

export class Http1ResponseParser {
  private state: State = { kind: 'head' }
  /** Bytes of an unfinished head or line, kept across reads (small: bounded by the limits). */
  private pending: number[] = []
  private head: ResponseHead | null = null
  private bodyBytes = 0
  /** The current head's lines so far, and its size (against MAX_HEAD_BYTES). */
  private headLines: string[] = []
  private headBytes = 0
  /** The sink's write of the last body bytes, while it runs. */
  private writing: Promise<void> | null = null

  /** The final (non-1xx) head, once it has arrived. */
  get response(): ResponseHead | null {
    return this.head
  }

  get complete(): boolean {
    return this.state.kind === 'done'
  }

  /** Body bytes handed to sinks so far. */
  get received(): number {
    return this.bodyBytes
  }

  /**
   * The sink's pending write, taken once: the caller must not feed more (nor reuse the memory
   * of the bytes it fed) until it settles.
   */
  takePendingWrite(): Promise<void> | null {
    const writing = this.writing
    this.writing = null
    return writing
  }

  /**
   * Consumes `bytes` up to the end of the head (then stops, so that the caller can look at it
   * before any body byte is handed on), or through the body into `sink`. Returns how many bytes
   * were consumed: fewer than given after the head, without a sink, or when the sink's write is
   * pending (see takePendingWrite).
   */
  feed(bytes: Uint8Array, sink: BodySink | null): number {
    let offset = 0
    while (offset < bytes.length && this.state.kind !== 'done') {
      const state = this.state
      switch (state.kind) {
        case 'head': {
          const end = this.takeLine(bytes, offset, MAX_HEAD_BYTES, true)
          if (end === -1) return bytes.length
          offset = end
          if (this.head !== null) return offset
          break
        }
        case 'length':
        case 'chunk-data':
        case 'until-close': {
          if (sink === null) return offset
          const size =
            state.kind === 'until-close'
              ? bytes.length - offset
              : Math.min(state.remaining, bytes.length - offset)
          const written = sink.write(bytes.subarray(offset, offset + size))
          offset += size
          this.bodyBytes += size
          if (state.kind !== 'until-close') {
            state.remaining -= size
            if (state.remaining === 0) {
              this.state = state.kind === 'length' ? { kind: 'done' } : { kind: 'chunk-end' }
            }
          }
          if (written instanceof Promise) {
            this.writing = written
            return offset
          }
          break
        }
        case 'chunk-size':
        case 'chunk-end':
        case 'trailers': {
          const end = this.takeLine(bytes, offset, MAX_LINE_BYTES, false)
          if (end === -1) return bytes.length
          offset = end
          break
        }
      }
    }
    return offset
  }

  /** The connection ended: fine for a close-delimited body, an error for any other state. */
  finish(): void {
    if (this.state.kind === 'until-close') this.state = { kind: 'done' }
    if (this.state.kind !== 'done') {
      if (this.state.kind === 'head' && this.head === null && this.pending.length === 0) {
        throw new IncompleteResponseError(0)
      }
      throw new IncompleteResponseError(this.bodyBytes)
    }
  }

  /**
   * Gathers one line (through its LF) starting at `offset`; returns where the next byte is, or
   * -1 when the line goes on in the next read. A whole line is handed to `onLine`.
   */
  private takeLine(bytes: Uint8Array, offset: number, limit: number, isHead: boolean): number {
    const newline = bytes.indexOf(LF, offset)
    const end = newline === -1 ? bytes.length : newline + 1
    const headSoFar = isHead ? this.headBytes : this.pending.length
    if (headSoFar + (end - offset) > limit) {
      throw new MalformedResponseError(`The answer's header is longer than ${limit} bytes`)
    }
    for (let index = offset; index < end; index += 1) this.pending.push(bytes[index] as number)
    if (isHead) this.headBytes += end - offset
    if (newline === -1) return -1
    const line = this.pending
    this.pending = []
    const length =
      line.length >= 2 && line[line.length - 2] === CR ? line.length - 2 : line.length - 1
    this.onLine(Buffer.from(line.slice(0, length)).toString('latin1'))
    return end
  }

  private onLine(line: string): void {
    switch (this.state.kind) {
      case 'head':
        if (line !== '') this.headLines.push(line)
        // An empty line ends the head; before a status line it is a stray one, skipped.
        else if (this.headLines.length > 0) this.endHead()
        return
      case 'chunk-size':
        this.onChunkSize(line)
        return
      case 'chunk-end':
        if (line !== '')
          throw new MalformedResponseError('A chunk does not end where its size said')
        this.state = { kind: 'chunk-size' }
        return
      case 'trailers':
        if (line === '') this.state = { kind: 'done' }
        return
      default:
        return
    }
  }

  private endHead(): void {
    const [statusLine = '', ...fieldLines] = this.headLines
    this.headLines = []
    this.headBytes = 0
    const match = STATUS_LINE.exec(statusLine)
    if (!match)
      throw new MalformedResponseError('The answer does not start with an HTTP/1.x status line')
    const status = Number(match[1])
    const headers = new Headers()
    for (const field of fieldLines) {
      if (field.startsWith(' ') || field.startsWith('\t')) {
        throw new MalformedResponseError('The answer folds a header over lines (obsolete, refused)')
      }
      const colon = field.indexOf(':')
      const name = colon > 0 ? field.slice(0, colon) : ''
      if (!HTTP_TOKEN.test(name))
        throw new MalformedResponseError('The answer has a malformed header')
      try {
        headers.append(name, field.slice(colon + 1).trim())
      } catch {
        throw new MalformedResponseError(`The answer's header ${name} has a malformed value`)
      }
    }
    if (status === 101) throw new MalformedResponseError('The server switched protocols unasked')
    if (status < 200) return // an interim answer: the real one follows
    this.head = { status, headers }
    this.state = bodyFraming(status, headers)
  }

  private onChunkSize(line: string): void {
    const size = line.split(';', 1)[0]?.trim() ?? ''
    if (!/^[0-9a-fA-F]{1,12}$/.test(size)) {
      throw new MalformedResponseError('A chunk of the answer has a malformed size')
    }
    const remaining = Number.parseInt(size, 16)
    this.state = remaining === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', remaining }
  }
}

function bodyFraming(status: number, headers: Headers): State {
  if (status === 204 || status === 304) return { kind: 'done' }
  const transferEncoding = headers.get('transfer-encoding')
  if (transferEncoding !== null) {
    const codings = transferEncoding.split(',').map((coding) => coding.trim().toLowerCase())
    // RFC 9112 6.3: chunked last frames the body; any other final coding runs to the close.
    return codings.at(-1) === 'chunked' ? { kind: 'chunk-size' } : { kind: 'until-close' }
  }
  const contentLength = headers.get('content-length')
  if (contentLength === null) return { kind: 'until-close' }
  const values = new Set(contentLength.split(',').map((value) => value.trim()))
  const [value = ''] = values
  if (values.size !== 1 || !/^\d{1,15}$/.test(value)) {
    throw new MalformedResponseError('The answer has a malformed Content-Length')
  }
  const remaining = Number(value)
  return remaining === 0 ? { kind: 'done' } : { kind: 'length', remaining }
}
