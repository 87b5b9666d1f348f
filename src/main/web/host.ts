import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Result } from '../../shared/bridge'
import {
  channelFromPath,
  encodeEventMessage,
  launchUrl,
  MISSING_SECRET_MESSAGE,
  WEB_BRIDGE_PREFIX,
  WEB_DOWNLOAD_PREFIX,
  WEB_EVENTS_PATH,
  WEB_INVOKE_PREFIX,
} from '../../shared/bridge/web-protocol'
import type { BridgeEventListener } from '../bridge/events'
import { hostIsOurs, newLaunchSecret, originIsOurs, requestCarriesSecret } from './guard'
import { sendDownload } from './download'
import { sendText } from './plain-text'
import type { HostedDownload } from './download'
import {
  filesNamedBy,
  lookupStatic,
  readFilesNow,
  readIndexHtml,
  sendFile,
  sendHeldFile,
} from './static'
import type { HeldFile } from './static'

/*
 * Web mode's loopback host: serves the built renderer to a browser and carries the bridge
 * (POST /__bridge/invoke/<channel> for calls, GET /__bridge/events as Server-Sent Events).
 * Same contract as Electron IPC, so the renderer cannot tell which transport it runs on.
 * The renderer's files are served to anyone who names our Host (they are the same built files
 * on every machine); the bridge, which is the app, answers only requests with the launch secret.
 */

/** What the host needs of the desk: the two halves of the bridge. */
export interface BridgeEndpoint {
  dispatch(channel: unknown, input: unknown): Promise<Result<unknown>>
  /** The same call, its Result as UTF-8 JSON: what this host sends (see Dispatcher). */
  dispatchJson(channel: unknown, input: unknown): Promise<Buffer>
  onEvent(listener: BridgeEventListener): () => void
  /**
   * "Download to this browser": the file a one-time ticket names, spending the ticket
   * (web/download.ts). Without it the host serves no downloads.
   */
  openDownload?(ticket: string): Promise<HostedDownload>
}

export interface WebHostOptions {
  desk: BridgeEndpoint
  /** The built renderer (out/renderer). */
  rendererDir: string
  /** 0 (the default) picks a free port. */
  port?: number
  /** The name printed in the URL; the socket is bound to 127.0.0.1 either way. */
  host?: '127.0.0.1' | 'localhost'
  /** Launch secret; random when not given (tests pass one to know it). */
  secret?: string
  /** DEFAULT_LIMITS unless given (tests shorten them). */
  limits?: Partial<HostLimits>
  /** Told when index.html has been sent whole, once per page served. */
  onPageServed?: () => void
  /**
   * Told when the page has what it needs to start: every file its HTML names (its script, the
   * modules it preloads, its styles) sent whole after it. Once per page served.
   */
  onPageFilesServed?: () => void
  /** Told when the page has asked for the first of those files (once per page served). */
  onPageFilesAsked?: () => void
}

export interface WebHost {
  /** The address to open: the per-launch secret is in its fragment, which the page keeps. */
  url: string
  /** The page's origin, without the secret. */
  origin: string
  port: number
  /** The limits in force, as read back from the server. */
  limits: HostLimits
  close(): Promise<void>
}

/** What one local client may cost the host. */
export interface HostLimits {
  /** Time to send a request's headers (a client that trickles them holds a connection). */
  headersTimeoutMs: number
  /**
   * Time to send a whole request, body included. Node stops this clock once the request has
   * arrived, so the event stream (a GET whose response never ends) is not cut by it.
   */
  requestTimeoutMs: number
  /** Open connections at once; Node closes any further one as soon as it is accepted. */
  maxConnections: number
  /** A bridge call's body; past it the host answers 413 and closes the connection. */
  maxBodyBytes: number
}

export const DEFAULT_LIMITS: HostLimits = {
  // A browser on the same machine sends its headers in a millisecond; 10 s is generous.
  headersTimeoutMs: 10_000,
  // The largest body (4 MB) crosses loopback in milliseconds, even from a busy browser.
  requestTimeoutMs: 30_000,
  // A browser opens at most 6 connections per host name (127.0.0.1 and localhost are two), and
  // each tab holds one for its event stream; 64 leaves room for several tabs, test contexts and
  // scripts, and still bounds the sockets and buffers a local flood could make us hold.
  maxConnections: 64,
  // Bridge inputs are small JSON documents; a certificate upload with its chain is the largest.
  maxBodyBytes: 4 * 1024 * 1024,
}

/*
 * node:http as CommonJS, not through an ES import: importing it makes Node build the module's
 * ES facade, which reads every export, and its lazy WebSocket/EventSource getters load undici
 * (25-40 ms of every start, before the host can listen). process.getBuiltinModule skips it.
 */
const { createServer } = process.getBuiltinModule('node:http')

/**
 * How often Node looks for requests past their timeouts. Its default, 30 s, would let a stalled
 * request outlive headersTimeoutMs by up to that much; the check is a walk over open requests.
 */
const TIMEOUT_CHECK_INTERVAL_MS = 1_000
/** Comments on the event stream keep proxies and idle timeouts from closing it. */
const KEEPALIVE_MS = 15_000

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Sent with every answer of the host (the launch benches serve their floor page with them). */
export const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Nothing of ours needs to be named to another site (the secret, in the fragment, never is).
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const secret = options.secret ?? newLaunchSecret()
  const limits: HostLimits = { ...DEFAULT_LIMITS, ...options.limits }
  const rendererDir = path.resolve(options.rendererDir)
  const streams = new Set<ServerResponse>()
  let port = 0

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    },
    (request, response) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value)
      handle(request, response).catch(() => {
        if (!response.headersSent) sendText(response, 500, 'Internal error')
        else response.destroy()
      })
    },
  )
  server.maxConnections = limits.maxConnections

  async function handle(request: IncomingMessage, response: ServerResponse) {
    if (!hostIsOurs(request, port)) return sendText(response, 421, 'Unknown host')
    if (!originIsOurs(request, port)) return sendText(response, 403, 'Foreign origin')
    const target = request.url ?? '/'
    // The raw path is judged before URL parsing, which would quietly fold `/../` away.
    const rawPath = target.split('?')[0] ?? '/'
    if (!rawPath.startsWith('/') || hasDotSegments(rawPath)) {
      return sendText(response, 400, 'Bad path')
    }
    const url = new URL(target, `http://127.0.0.1:${port}`)
    if (isBridgePath(url.pathname)) return serveBridge(request, response, url.pathname)
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendText(response, 405, 'Method not allowed')
    }
    return serveRenderer(response, url.pathname, request.method === 'HEAD')
  }

  async function serveBridge(request: IncomingMessage, response: ServerResponse, pathname: string) {
    // A browser download cannot send the secret's header: a one-time ticket, minted over the
    // bridge (which took the secret), stands in for it once.
    if (pathname.startsWith(WEB_DOWNLOAD_PREFIX)) {
      if (request.method !== 'GET') return sendText(response, 405, 'Use GET')
      const ticket = pathname.slice(WEB_DOWNLOAD_PREFIX.length)
      const opened = options.desk.openDownload
        ? await options.desk.openDownload(ticket)
        : ({ kind: 'unknown' } as const)
      return sendDownload(response, opened)
    }
    if (!requestCarriesSecret(request, secret)) {
      return sendText(response, 401, MISSING_SECRET_MESSAGE)
    }
    if (pathname.startsWith(WEB_INVOKE_PREFIX)) {
      const channel = channelFromPath(pathname)
      if (channel === null) return sendText(response, 404, 'Not found')
      if (request.method !== 'POST') return sendText(response, 405, 'Use POST')
      return invoke(request, response, channel)
    }
    if (pathname === WEB_EVENTS_PATH) {
      if (request.method !== 'GET') return sendText(response, 405, 'Use GET')
      return streamEvents(request, response)
    }
    return sendText(response, 404, 'Not found')
  }

  async function invoke(request: IncomingMessage, response: ServerResponse, channel: string) {
    const contentType = request.headers['content-type'] ?? ''
    if (!/^application\/json\b/i.test(contentType)) {
      // Forms cannot send application/json, which keeps simple cross-site posts out too.
      return sendText(response, 415, 'Send application/json')
    }
    const body = await readBody(request, limits.maxBodyBytes)
    if (body === 'too-large') return refuseOversizeBody(request, response)
    let input: unknown
    try {
      input = body.length === 0 ? undefined : JSON.parse(body.toString('utf8'))
    } catch {
      return sendJson(response, 400, {
        ok: false,
        error: { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON' },
      })
    }
    return sendJsonBytes(response, 200, await options.desk.dispatchJson(channel, input))
  }

  function streamEvents(request: IncomingMessage, response: ServerResponse) {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      // Stops buffering proxies from holding events back.
      'X-Accel-Buffering': 'no',
    })
    response.write('retry: 2000\n: connected\n\n')
    streams.add(response)
    // Each event is one unnamed SSE message whose data is the frame {event, payload}.
    const unsubscribe = options.desk.onEvent((event, payload) => {
      response.write(encodeEventMessage(event, payload))
    })
    const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS)
    keepalive.unref()
    const stop = () => {
      clearInterval(keepalive)
      unsubscribe()
      streams.delete(response)
    }
    request.on('close', stop)
    response.on('close', stop)
  }

  /**
   * The files the last page served names, read into memory as it went out and each dropped
   * once sent (onPageFilesServed when none is left). Sent from memory, a file takes one turn of
   * this loop instead of a stat, an open and reads on the thread pool, each waiting for a turn:
   * the page asks for them while the core's modules load here (web/cli.ts), in stages with
   * turns between them, and one turn is then enough to answer every request that came.
   */
  let pageFiles: Map<string, HeldFile> | null = null
  let pageFilesAsked = false
  const sent = (pathname: string) => {
    if (pageFiles === null || !pageFiles.delete(pathname)) return
    if (!pageFilesAsked) {
      pageFilesAsked = true
      options.onPageFilesAsked?.()
    }
    if (pageFiles.size > 0) return
    pageFiles = null
    options.onPageFilesServed?.()
  }

  async function serveRenderer(response: ServerResponse, pathname: string, headOnly: boolean) {
    // A HEAD request is answered from the disk: it is not the page asking for its file.
    const held = headOnly ? undefined : pageFiles?.get(pathname)
    if (held) {
      sendHeldFile(response, held)
      return sent(pathname)
    }
    const found = await lookupStatic(rendererDir, pathname)
    if (found.kind === 'refused') return sendText(response, 400, 'Bad path')
    if (found.kind === 'not-found') return sendText(response, 404, 'Not found')
    if (found.kind === 'file') {
      return sendFile(response, found, headOnly)
    }
    const html = await readIndexHtml(rendererDir)
    if (html === null) {
      return sendText(response, 503, 'The renderer is not built: run `npm run web` (it builds it).')
    }
    const bytes = Buffer.from(html, 'utf8')
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Length': bytes.length,
      'Cache-Control': 'no-store',
    })
    if (headOnly) return response.end()
    response.end(bytes, () => {
      options.onPageServed?.()
      pageFiles = readFilesNow(rendererDir, filesNamedBy(html))
      pageFilesAsked = false
      if (pageFiles.size === 0) {
        pageFiles = null
        options.onPageFilesServed?.()
      }
    })
  }

  await listen(server, options.port ?? 0)
  port = (server.address() as AddressInfo).port
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`
  return {
    url: launchUrl(origin, secret),
    origin,
    port,
    limits: {
      headersTimeoutMs: server.headersTimeout,
      requestTimeoutMs: server.requestTimeout,
      maxConnections: server.maxConnections,
      maxBodyBytes: limits.maxBodyBytes,
    },
    async close() {
      for (const stream of streams) stream.end()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

/** True when a path, raw or percent-decoded, holds `.` or `..` segments or backslashes. */
function hasDotSegments(rawPath: string): boolean {
  let decoded: string
  try {
    decoded = decodeURIComponent(rawPath)
  } catch {
    return true
  }
  return (
    [rawPath, decoded].some((candidate) =>
      candidate.split(/[/\\]/).some((segment) => segment === '..' || segment === '.'),
    ) ||
    decoded.includes('\\') ||
    decoded.includes('\0')
  )
}

/** Everything under /__bridge, the prefix itself included: none of it is a renderer file. */
function isBridgePath(pathname: string): boolean {
  return pathname === WEB_BRIDGE_PREFIX || pathname.startsWith(`${WEB_BRIDGE_PREFIX}/`)
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    // Loopback only: never 0.0.0.0, never ::, whatever the caller asked for.
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
}

/**
 * The body, or 'too-large' as soon as it is known to pass `limit`: at once when Content-Length
 * says so, else at the chunk that passes it. Reading stops there; the rest is never read.
 */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  if (Number(request.headers['content-length'] ?? 0) > limit) return Promise.resolve('too-large')
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      request.off('data', onData)
      request.pause()
      resolve('too-large')
    }
    request.on('data', onData)
    request.on('end', () => resolve(Buffer.concat(chunks)))
    request.on('error', reject)
  })
}

/**
 * 413, then the connection is closed: keeping it for the next request would mean reading (and
 * throwing away) the rest of the body first, as long as the sender cares to send it.
 */
function refuseOversizeBody(request: IncomingMessage, response: ServerResponse) {
  response.setHeader('Connection', 'close')
  response.once('finish', () => request.socket.destroy())
  sendText(response, 413, 'Request body too large')
}

function sendJson(response: ServerResponse, status: number, value: unknown) {
  sendJsonBytes(response, status, Buffer.from(JSON.stringify(value), 'utf8'))
}

function sendJsonBytes(response: ServerResponse, status: number, bytes: Buffer) {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': bytes.length,
    'Cache-Control': 'no-store',
  })
  response.end(bytes)
}
