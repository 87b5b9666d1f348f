import net from 'node:net'
import type { OnReadOpts } from 'node:net'
import tls from 'node:tls'
import type { SecureContext } from 'node:tls'
import { openTunnel } from '../net/tunnel'
import type { ProxyAddress } from '../net/proxy'
import { HTTP_TOKEN, Http1ResponseParser } from './http1-response'
import type { BodySink } from './http1-response'

export type { BodySink } from './http1-response'

/*
 * One HTTP/1.1 GET whose body is pushed into a sink as it arrives: the transport of streamed
 * downloads (op 15's archive). Calls (`call`, JSON answers) keep fetch; a download is all body,
 * and both fetch and node:http allocate a fresh buffer for every socket read, garbage that V8
 * only collects after about 64 MB of it. Here the socket reads into reused buffers (net's
 * `onread`), the parser (http1-response.ts) hands the sink views of them, and a buffer is not
 * read into again while the sink still writes its bytes (to disk, straight from it). Measured
 * on the 1 GiB sandbox volume (bench/export.ts): no per-read garbage, and a third of
 * node:http's CPU to receive.
 *
 * Through a proxy (`route`, decided by src/main/net): an https target is reached through a
 * CONNECT tunnel, TLS on top; an http one as an absolute-form request to the proxy.
 *
 * One request per connection (`Connection: close`). No redirects, no token, no headers
 * timeout: the service client's `fetchRaw` adds those, and turns what this throws (Node system
 * errors, the parser's errors, the AbortSignal's reason) into ServiceErrors.
 */

export interface RawResponse {
  /** The URL this answer came from. */
  readonly url: string
  readonly status: number
  readonly headers: Headers
  /**
   * Pushes the body into `sink` (a write that returns a promise pauses the reading until it
   * settles; a rejected one stops the download with its error). Resolves at the body's end,
   * rejects if the connection breaks. Once.
   */
  readBody(sink: BodySink): Promise<void>
  /** The whole body, at most `limit` bytes kept (for error answers); a break ends it early. */
  bytes(limit: number): Promise<Buffer>
  /** Closes the connection without reading the rest. */
  discard(): void
}

export interface RawRequest {
  headers: Record<string, string>
  signal?: AbortSignal
  /** No byte for this long while we wait for one: the exchange fails (IDLE_TIMEOUT_CODE). 60 s. */
  idleTimeoutMs?: number
  /** Proxy and trust (src/main/net); direct with Node's default trust when not given. */
  route?: RawRoute
}

/** How the connection is made: what src/main/net's NetworkRoute says, transport part only. */
export interface RawRoute {
  proxy: ProxyAddress | null
  /** `Basic …`, sent to the proxy only (CONNECT, or the absolute-form request's header). */
  proxyAuthorization: string | null
  secureContext?: SecureContext
}

/** The code of the error for a server that went silent (no byte for `idleTimeoutMs`). */
export const IDLE_TIMEOUT_CODE = 'ERR_HTTP_IDLE'

/**
 * One socket read at most. 64 KiB, as the kernel hands a loopback or LAN flow over: reads of
 * 256 KiB open the receive window in big steps, and a sender whose TCP paces by timer (bbr)
 * then waits on its timer far more often. Measured on the 1 GiB sandbox volume, pinned cores,
 * rounds interleaved: a reader hashing and writing each read made 1.07 of curl with 64 KiB reads
 * and 0.82 with 256 KiB, the sender's pacing timer firing 1,100-3,000 times a GiB against
 * 2,900-8,900 (bench/results/HISTORY.md, export).
 */
const READ_BUFFER_BYTES = 64 * 1024
const DEFAULT_IDLE_TIMEOUT_MS = 60_000
/** Headers this module writes itself. */
const OWN_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding'])

export function requestRaw(url: URL, request: RawRequest): Promise<RawResponse> {
  return new Promise((resolveHead, rejectHead) => {
    const { signal } = request
    const parser = new Http1ResponseParser()
    /*
     * The read buffers, used in turn: while the sink writes one read's bytes from one buffer,
     * the socket reads the next into the other, so the network and the disk overlap. TLS gets
     * one static buffer, the form nodejs/node#35753 added for TLS sockets: a generator there is
     * not tested here, and a read into a buffer still being written would corrupt the file.
     */
    const ring =
      url.protocol === 'https:'
        ? [Buffer.allocUnsafe(READ_BUFFER_BYTES)]
        : [Buffer.allocUnsafe(READ_BUFFER_BYTES), Buffer.allocUnsafe(READ_BUFFER_BYTES)]
    /** Which buffer the socket's next read goes into (net asks after each read). */
    let nextIndex = 0
    const nextBuffer = () => {
      const buffer = ring[nextIndex] as Buffer
      nextIndex = (nextIndex + 1) % ring.length
      return buffer
    }
    /** The sink's pending write of each buffer's bytes: that buffer must not be read into. */
    const inUse = new Map<Uint8Array, Promise<void>>()
    /** Bytes of the last read not yet consumed; the socket is paused while they wait. */
    let held: { bytes: Uint8Array; buffer: Uint8Array } | null = null
    /** The socket is paused for the sink (a write), not waiting for the server. */
    let pausedForSink = false
    let sink: BodySink | null = null
    let body: { resolve(): void; reject(error: unknown): void } | null = null
    let headArrived = false
    let bodyDone = false
    let failure: unknown = null
    let endOfStream = false

    const route = request.route
    const requestText = requestHead(url, request.headers, route)
    if (signal?.aborted) {
      rejectHead(signal.reason)
      return
    }
    const onread: OnReadOpts = {
      buffer: ring.length === 1 ? (ring[0] as Buffer) : nextBuffer,
      callback: (size: number, buffer: Uint8Array) => consume(buffer.subarray(0, size), buffer),
    }
    /** Null while a proxy tunnel is being opened. */
    let socket: net.Socket | null = null
    const onAbort = () => fail(signal?.reason)
    signal?.addEventListener('abort', onAbort, { once: true })
    /** Reads arrive as 'data' events (fresh buffers), not into `onread`'s: see connect(). */
    let streamed = false
    connect(url, onread, route, signal).then((connected) => {
      if (failure !== null) {
        connected.socket.destroy()
        return
      }
      socket = connected.socket
      streamed = connected.streamed
      attach(connected.socket)
    }, fail)

    function attach(socket: net.Socket) {
      socket.setTimeout(request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS)
      socket.write(requestText)
      socket.on('error', fail)
      if (streamed) {
        socket.on('data', (chunk: Buffer) => {
          if (!consume(chunk, chunk)) socket.pause()
        })
      }
      socket.on('timeout', () => {
        // Paused by a slow sink (a slow disk) is not the server's silence.
        if (!pausedForSink) {
          fail(Object.assign(new Error('No data for too long'), { code: IDLE_TIMEOUT_CODE }))
        }
      })
      socket.on('end', () => {
        endOfStream = true
        if (!pausedForSink) onEndOfStream()
      })
      socket.on('close', () => {
        if (!bodyDone && failure === null && !endOfStream) {
          fail(Object.assign(new Error('The connection closed'), { code: 'ECONNRESET' }))
        }
      })
      // A tunnel comes paused (nothing read before the request's answer can be parsed).
      socket.resume()
    }

    /** Pauses the socket until `until` settles, then goes on with `next` (or fails). */
    function pauseUntil(until: Promise<void>, next: () => void): false {
      pausedForSink = true
      until.then(() => {
        pausedForSink = false
        next()
      }, fail)
      return false
    }

    /** Feeds one read's bytes to the parser; false pauses the socket. */
    function consume(bytes: Uint8Array, buffer: Uint8Array): boolean {
      if (failure !== null || bodyDone) return false
      let consumed: number
      try {
        consumed = parser.feed(bytes, sink)
      } catch (error) {
        fail(error)
        return false
      }
      if (!headArrived && parser.response !== null) {
        headArrived = true
        held = { bytes: bytes.subarray(consumed), buffer }
        pausedForSink = true
        resolveHead(response(parser.response.status, parser.response.headers))
        return false
      }
      const writing = parser.takePendingWrite()
      if (writing !== null) {
        inUse.set(buffer, writing)
        writing.then(
          () => {
            if (inUse.get(buffer) === writing) inUse.delete(buffer)
          },
          () => undefined,
        )
        if (consumed < bytes.length) {
          // The rest of this read (the next chunk of a chunked body) waits its turn.
          held = { bytes: bytes.subarray(consumed), buffer }
          return pauseUntil(writing, drain)
        }
      }
      if (parser.complete) {
        finishBody()
        return false
      }
      // The next read goes into a buffer whose bytes may still be being written; 'data' reads
      // bring fresh buffers, but wait for the write all the same, or a slow disk would let
      // the whole download pile up in memory.
      const upcoming = ring.length === 1 ? ring[0] : ring[nextIndex]
      const busy = streamed
        ? (writing ?? undefined)
        : upcoming === undefined
          ? undefined
          : inUse.get(upcoming)
      if (busy !== undefined) return pauseUntil(busy, readOn)
      return true
    }

    /** Hands the held bytes on, then lets the socket read again. */
    function drain() {
      const waiting = held
      held = null
      if (waiting !== null && !consume(waiting.bytes, waiting.buffer)) return
      readOn()
    }

    function readOn() {
      if (endOfStream) onEndOfStream()
      else socket?.resume()
    }

    function onEndOfStream() {
      try {
        parser.finish()
        finishBody()
      } catch (error) {
        fail(error)
      }
    }

    function finishBody() {
      if (bodyDone) return
      bodyDone = true
      cleanUp()
      // The body is done when its last bytes are written, not when they arrived.
      Promise.all(inUse.values()).then(
        () => body?.resolve(),
        (error: unknown) => body?.reject(error),
      )
    }

    function fail(error: unknown) {
      if (failure !== null || bodyDone) return
      failure = error ?? new Error('The download was stopped')
      cleanUp()
      if (!headArrived) rejectHead(failure)
      else body?.reject(failure)
    }

    function cleanUp() {
      signal?.removeEventListener('abort', onAbort)
      socket?.destroy()
    }

    function response(status: number, headers: Headers): RawResponse {
      return {
        url: url.href,
        status,
        headers,
        readBody(target) {
          if (sink !== null) return Promise.reject(new Error('The body was already read'))
          sink = target
          return new Promise<void>((resolve, reject) => {
            body = { resolve, reject }
            if (failure !== null) reject(failure)
            else if (bodyDone) resolve()
            else {
              pausedForSink = false
              drain()
            }
          })
        },
        async bytes(limit) {
          const chunks: Buffer[] = []
          let kept = 0
          const collector: BodySink = {
            write(bytes) {
              const keep = Math.min(bytes.length, limit - kept)
              if (keep > 0) chunks.push(Buffer.from(bytes.subarray(0, keep)))
              kept += keep
            },
          }
          // An error page cut short is still worth what arrived of it.
          await this.readBody(collector).catch(() => undefined)
          return Buffer.concat(chunks)
        },
        discard() {
          fail(new Error('The answer was discarded'))
        },
      }
    }
  })
}

/**
 * The socket the request is written to: straight to the target, or through the route's proxy
 * (a CONNECT tunnel for https, the proxy itself for http). `streamed`: TLS over a tunnel socket
 * does not honour `onread` (Node 24 hands its reads out as 'data' events only), so that one
 * connection is read from events instead.
 */
async function connect(
  url: URL,
  onread: OnReadOpts,
  route: RawRoute | undefined,
  signal: AbortSignal | undefined,
): Promise<{ socket: net.Socket; streamed: boolean }> {
  // An IPv6 literal comes bracketed in a URL, bare in a socket address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const proxy = route?.proxy ?? null
  if (url.protocol !== 'https:') {
    const target = proxy === null ? { host, port: Number(url.port || 80) } : proxy
    return {
      socket: net.connect({ host: target.host, port: target.port, onread }),
      streamed: false,
    }
  }
  const port = Number(url.port || 443)
  const tunnel =
    proxy === null
      ? undefined
      : await openTunnel(proxy, route?.proxyAuthorization ?? null, { host, port }, signal)
  // tls.connect takes `onread` too (nodejs/node#35753, Node 15.1); @types/node lacks it.
  const options: tls.ConnectionOptions & { onread?: OnReadOpts } = {
    host,
    port,
    ...(tunnel === undefined ? {} : { socket: tunnel }),
    ...(route?.secureContext === undefined ? {} : { secureContext: route.secureContext }),
    servername: net.isIP(host) === 0 ? host : undefined,
    ALPNProtocols: ['http/1.1'],
    ...(tunnel === undefined ? { onread } : {}),
  }
  return { socket: tls.connect(options), streamed: tunnel !== undefined }
}

function requestHead(url: URL, headers: Record<string, string>, route?: RawRoute): string {
  // An http request to a proxy names the whole URL (absolute-form) and carries the proxy login.
  const viaProxy = url.protocol === 'http:' && route?.proxy != null
  const target = viaProxy
    ? `${url.origin}${url.pathname}${url.search}`
    : `${url.pathname}${url.search}`
  const lines = [`GET ${target} HTTP/1.1`, `Host: ${url.host}`]
  if (viaProxy && route.proxyAuthorization !== null) {
    lines.push(`Proxy-Authorization: ${route.proxyAuthorization}`)
  }
  for (const [name, value] of Object.entries(headers)) {
    if (OWN_HEADERS.has(name.toLowerCase())) continue
    // Never a header that could end the head early or smuggle another request.
    if (!HTTP_TOKEN.test(name) || /[\r\n\0]/.test(value)) {
      throw new TypeError(`Invalid request header ${JSON.stringify(name)}`)
    }
    lines.push(`${name}: ${value}`)
  }
  lines.push('Connection: close', '', '')
  return lines.join('\r\n')
}
