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
 * with a sink that may write later (a disk), holding the bytes until it has. Whatever the
 * pieces, the head and the body must come out the same; whatever the garbage, the parser must
 * refuse it with its own error, never loop or return a wrong body.
 */

const text = (value: string) => Buffer.from(value, 'latin1')

/**
 * Feeds `pieces` like raw-http.ts: re-feeds what was not consumed, and waits for the sink's
 * pending write before feeding more. The sink writes asynchronously every `asyncEvery`th time.
 */
async function parse(
  pieces: Uint8Array[],
  options: { asyncEvery?: number; endOfStream?: boolean } = {},
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const parser = new Http1ResponseParser()
  const body: Buffer[] = []
  let writes = 0
  const sink: BodySink = {
    write(bytes) {
      writes += 1
      if (options.asyncEvery === undefined || writes % options.asyncEvery !== 0) {
        body.push(Buffer.from(bytes))
        return
      }
      // Copied only after the wait: the bytes must stay untouched until the write settles.
      return Promise.resolve().then(() => {
        body.push(Buffer.from(bytes))
      })
    },
  }
  for (const piece of pieces) {
    let rest = piece
    for (let guard = 0; rest.length > 0 && !parser.complete; guard += 1) {
      if (guard > 1_000_000) throw new Error('the parser makes no progress')
      const consumed = parser.feed(rest, parser.response === null ? null : sink)
      await parser.takePendingWrite()
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
  it('reads a Content-Length body exactly, in any pieces, whether the sink writes at once or later', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: 1, max: 5 }),
        async (bytes, cuts, asyncEvery) => {
          const body = Buffer.from(bytes)
          const wire = Buffer.concat([
            text(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nETag: "v1"\r\n\r\n`),
            body,
          ])
          const parsed = await parse(split(wire, cuts), { asyncEvery })
          expect(parsed.status).toBe(200)
          expect(parsed.headers.get('etag')).toBe('"v1"')
          expect(parsed.body.equals(body)).toBe(true)
        },
      ),
    )
  })

  it('decodes a chunked body with extensions and trailers, in any pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 2000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.constantFrom('', ';name=value', ';a;b="c"'),
        async (bytes, sizes, cuts, extras) => {
          const body = Buffer.from(bytes)
          const wire = Buffer.concat([
            text('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
            chunked(body, sizes, extras),
          ])
          const parsed = await parse(split(wire, cuts), { asyncEvery: 2 })
          expect(parsed.body.equals(body)).toBe(true)
        },
      ),
    )
  })

  it('reads a body without framing until the connection ends', async () => {
    const parsed = await parse([text('HTTP/1.0 200 OK\nContent-Type: x\n\nhello '), text('world')])
    expect(parsed.body.toString()).toBe('hello world')
  })

  it('skips interim 1xx heads and takes the final one', async () => {
    const parsed = await parse([
      text('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n'),
      text(
        'HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 5-6/10\r\nContent-Length: 2\r\n\r\nab',
      ),
    ])
    expect(parsed.status).toBe(206)
    expect(parsed.headers.get('link')).toBeNull()
    expect(parsed.body.toString()).toBe('ab')
  })

  it('stops after the head, so the caller sees it before any body byte', async () => {
    const parser = new Http1ResponseParser()
    const wire = text('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc')
    expect(parser.feed(wire, null)).toBe(wire.length - 3)
    expect(parser.response?.status).toBe(200)
    expect(parser.feed(wire.subarray(wire.length - 3), null)).toBe(0)
  })

  it('has no body for 204 and 304, and an empty one for Content-Length: 0', async () => {
    for (const head of ['HTTP/1.1 204 No Content\r\n\r\n', 'HTTP/1.1 304 Not Modified\r\n\r\n']) {
      expect((await parse([text(head)])).body.length).toBe(0)
    }
    expect((await parse([text('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')])).body.length).toBe(
      0,
    )
  })

  it.each([
    {
      what: 'says the connection closed early when the framing announced more',
      refusal: IncompleteResponseError,
      cases: [
        'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc',
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab',
        'HTTP/1.1 200 OK\r\nContent-Le',
        '',
      ],
    },
    {
      what: 'refuses what is not HTTP/1.1 it can trust',
      refusal: MalformedResponseError,
      cases: [
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
      ],
    },
  ])('$what', async ({ refusal, cases }) => {
    for (const wire of cases) {
      await expect(parse([text(wire)]), wire).rejects.toThrow(refusal)
    }
  })

  it('accepts a repeated Content-Length of one value (RFC 9110 8.6)', async () => {
    expect(
      (await parse([text('HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\nabc')])).body.toString(),
    ).toBe('abc')
  })

  it('bounds the head, so a server cannot grow memory with endless headers', async () => {
    const endless = text(`HTTP/1.1 200 OK\r\n${'X-Pad: aaaaaaaaaaaaaaaa\r\n'.repeat(5000)}`)
    await expect(parse(split(endless, [100, 40_000]), { endOfStream: false })).rejects.toThrow(
      /longer than 65536 bytes/,
    )
  })

  it('never throws anything but its own errors on random bytes, and never loops', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
          fc
            .tuple(fc.string({ maxLength: 80 }), fc.uint8Array({ maxLength: 200 }))
            .map(([head, tail]) => Buffer.concat([text(`HTTP/1.1 ${head}\r\n\r\n`), tail])),
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (wire, cuts) => {
          try {
            await parse(split(wire, cuts), { asyncEvery: 3 })
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
