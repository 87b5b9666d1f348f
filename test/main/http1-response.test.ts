import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  Http1ResponseParser,
  IncompleteResponseError,
  MalformedResponseError,
} from '../../src/main/api/http1-response'
import type { BodySink } from '../../src/main/api/http1-response'

/*
 * The download transport's HTTP/1.1 parser, fed as a socket would feed it: in arbitrary pieces,
 * with a sink that may take fewer bytes than offered (a full write buffer). Whatever the
 * pieces, the head and the body must come out the same; whatever the garbage, the parser must
 * refuse it with its own error, never loop or return a wrong body.
 */

const text = (value: string) => Buffer.from(value, 'latin1')

/** Feeds `pieces` like raw-http.ts: re-feeds what was not consumed until all of it was. */
function parse(
  pieces: Uint8Array[],
  options: { sinkLimit?: number; endOfStream?: boolean } = {},
): { status: number; headers: Headers; body: Buffer } {
  const parser = new Http1ResponseParser()
  const body: Buffer[] = []
  const sink: BodySink = {
    write(bytes) {
      const take = Math.min(bytes.length, options.sinkLimit ?? bytes.length)
      body.push(Buffer.from(bytes.subarray(0, take)))
      return take
    },
  }
  for (const piece of pieces) {
    let rest = piece
    for (let guard = 0; rest.length > 0 && !parser.complete; guard += 1) {
      if (guard > 1_000_000) throw new Error('the parser makes no progress')
      const consumed = parser.feed(rest, parser.response === null ? null : sink)
      rest = rest.subarray(consumed)
    }
  }
  if (options.endOfStream !== false) parser.finish()
  const head = parser.response
  if (head === null) throw new Error('no head')
  return { ...head, body: Buffer.concat(body) }
}

/** Splits `bytes` at the given cut points (sorted, deduplicated, within range). */
function split(bytes: Buffer, cuts: number[]): Buffer[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const pieces: Buffer[] = []
  let start = 0
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point))
    start = point
  }
  return pieces
}

function chunked(body: Buffer, sizes: number[], extras = ''): Buffer {
  const parts: Buffer[] = []
  let offset = 0
  for (const size of sizes) {
    if (offset >= body.length) break
    const piece = body.subarray(offset, offset + Math.max(1, size))
    parts.push(text(`${piece.length.toString(16)}${extras}\r\n`), piece, text('\r\n'))
    offset += piece.length
  }
  if (offset < body.length) {
    const piece = body.subarray(offset)
    parts.push(text(`${piece.length.toString(16)}\r\n`), piece, text('\r\n'))
  }
  parts.push(text('0\r\nx-checksum: abc\r\n\r\n'))
  return Buffer.concat(parts)
}

describe('the HTTP/1.1 response parser', () => {
  it('reads a Content-Length body exactly, in any pieces, whatever the sink takes at once', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 1, max: 300 }),
        (bytes, cuts, sinkLimit) => {
          const body = Buffer.from(bytes)
          const wire = Buffer.concat([
            text(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nETag: "v1"\r\n\r\n`),
            body,
          ])
          const parsed = parse(split(wire, cuts), { sinkLimit })
          expect(parsed.status).toBe(200)
          expect(parsed.headers.get('etag')).toBe('"v1"')
          expect(parsed.body.equals(body)).toBe(true)
        },
      ),
    )
  })

  it('decodes a chunked body with extensions and trailers, in any pieces', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 2000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.constantFrom('', ';name=value', ';a;b="c"'),
        (bytes, sizes, cuts, extras) => {
          const body = Buffer.from(bytes)
          const wire = Buffer.concat([
            text('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
            chunked(body, sizes, extras),
          ])
          const parsed = parse(split(wire, cuts), { sinkLimit: 97 })
          expect(parsed.body.equals(body)).toBe(true)
        },
      ),
    )
  })

  it('reads a body without framing until the connection ends', () => {
    const parsed = parse([text('HTTP/1.0 200 OK\nContent-Type: x\n\nhello '), text('world')])
    expect(parsed.body.toString()).toBe('hello world')
  })

  it('skips interim 1xx heads and takes the final one', () => {
    const parsed = parse([
      text('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'),
      text(
        'HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-6/10\r\nContent-Length: 2\r\n\r\nab',
      ),
    ])
    expect(parsed.status).toBe(206)
    expect(parsed.headers.get('link')).toBeNull()
    expect(parsed.body.toString()).toBe('ab')
  })

  it('stops after the head, so the caller sees it before any body byte', () => {
    const parser = new Http1ResponseParser()
    const wire = text('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc')
    expect(parser.feed(wire, null)).toBe(wire.length - 3)
    expect(parser.response?.status).toBe(200)
    expect(parser.feed(wire.subarray(wire.length - 3), null)).toBe(0)
  })

  it('has no body for 204 and 304, and an empty one for Content-Length: 0', () => {
    for (const head of ['HTTP/1.1 204 No Content\r\n\r\n', 'HTTP/1.1 304 Not Modified\r\n\r\n']) {
      expect(parse([text(head)]).body.length).toBe(0)
    }
    expect(parse([text('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')]).body.length).toBe(0)
  })

  it('says the connection closed early when the framing announced more', () => {
    const cases = [
      'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab',
      'HTTP/1.1 200 OK\r\nContent-Le',
      '',
    ]
    for (const wire of cases) {
      expect(() => parse([text(wire)]), wire).toThrow(IncompleteResponseError)
    }
  })

  it('refuses what is not HTTP/1.1 it can trust', () => {
    const cases = [
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      'HTTP/2 200\r\n\r\n',
      'HTTP/1.1 2000 OK\r\n\r\n',
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n',
      'HTTP/1.1 200 OK\r\nX-Long: a\r\n  folded\r\n\r\n',
      'HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 3, 4\r\n\r\nabc',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n',
    ]
    for (const wire of cases) {
      expect(() => parse([text(wire)]), wire).toThrow(MalformedResponseError)
    }
  })

  it('accepts a repeated Content-Length of one value (RFC 9110 8.6)', () => {
    expect(
      parse([text('HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc')]).body.toString(),
    ).toBe('abc')
  })

  it('bounds the head, so a server cannot grow memory with endless headers', () => {
    const endless = text(`HTTP/1.1 200 OK\r\n${'X-Pad: aaaaaaaaaaaaaaaa\r\n'.repeat(5000)}`)
    expect(() => parse(split(endless, [100, 40_000]), { endOfStream: false })).toThrow(
      /longer than 65536 bytes/,
    )
  })

  it('never throws anything but its own errors on random bytes, and never loops', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
          fc
            .tuple(fc.string({ maxLength: 80 }), fc.uint8Array({ maxLength: 200 }))
            .map(([head, tail]) => Buffer.concat([text(`HTTP/1.1 ${head}\r\n\r\n`), tail])),
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (wire, cuts) => {
          try {
            parse(split(wire, cuts), { sinkLimit: 7 })
          } catch (error) {
            const known =
              error instanceof MalformedResponseError ||
              error instanceof IncompleteResponseError ||
              (error instanceof Error && error.message === 'no head')
            expect(known, String(error)).toBe(true)
          }
        },
      ),
    )
  })
})
