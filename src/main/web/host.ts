import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import type { Result } from '../../shared/bridge'
import {
  channelFromPath,
  encodeEventMessage,
  WEB_BRIDGE_PREFIX,
  WEB_EVENTS_PATH,
  WEB_INVOKE_PREFIX,
} from '../../shared/bridge/web-protocol'
import type { BridgeEventListener } from '../bridge/events'
import {
  hostIsOurs,
  newLaunchSecret,
  originIsOurs,
  requestCarriesSecret,
  secretsMatch,
  SECRET_QUERY,
  sessionCookie,
} from './guard'
import { lookupStatic, readIndexHtml, sendFile } from './static'

/*
 * Web mode's loopback host: serves the built renderer to a browser and carries the bridge
 * (POST /__bridge/invoke/<channel> for calls, GET /__bridge/events as Server-Sent Events).
 * Same contract as Electron IPC, so the renderer cannot tell which transport it runs on.
 */

/** What the host needs of the desk: the two halves of the bridge. */
export interface BridgeEndpoint {
  dispatch(channel: unknown, input: unknown): Promise<Result<unknown>>
  /** The same call, its Result as UTF-8 JSON: what this host sends (see Dispatcher). */
  dispatchJson(channel: unknown, input: unknown): Promise<Buffer>
  onEvent(listener: BridgeEventListener): () => void
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
}

export interface WebHost {
  /** Open this once: it holds the per-launch secret, which becomes an HttpOnly cookie. */
  url: string
  /** The page's origin, without the secret. */
  origin: string
  port: number
  close(): Promise<void>
}

/*
 * node:http as CommonJS, not through an ES import: importing it makes Node build the module's
 * ES facade, which reads every export, and its lazy WebSocket/EventSource getters load undici
 * (25-40 ms of every start, before the host can listen). process.getBuiltinModule skips it.
 */
const { createServer } = process.getBuiltinModule('node:http')

/** Bridge inputs are small JSON documents; a certificate upload with its chain is the largest. */
const MAX_BODY_BYTES = 4 * 1024 * 1024
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

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // The first URL carries the secret; never let it leave in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const secret = options.secret ?? newLaunchSecret()
  const rendererDir = path.resolve(options.rendererDir)
  const streams = new Set<ServerResponse>()
  let port = 0

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value)
    handle(request, response).catch(() => {
      if (!response.headersSent) sendText(response, 500, 'Internal error')
      else response.destroy()
    })
  })

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

    const offered = secretOffered(url)
    if (offered !== null) {
      if (!secretsMatch(secret, offered)) return sendText(response, 401, 'Wrong secret')
      // The secret moves into an HttpOnly cookie and the address bar loses it, so page scripts
      // (and anything that reads location or history) never see it.
      response.writeHead(303, { 'Set-Cookie': sessionCookie(port, secret), Location: '/' })
      return response.end()
    }
    if (!requestCarriesSecret(request, port, secret)) {
      return sendText(
        response,
        401,
        "Open the address that `npm run web` printed: it holds this launch's secret.",
      )
    }

    if (url.pathname.startsWith(WEB_INVOKE_PREFIX)) {
      const channel = channelFromPath(url.pathname)
      if (channel === null) return sendText(response, 404, 'Not found')
      if (request.method !== 'POST') return sendText(response, 405, 'Use POST')
      return invoke(request, response, channel)
    }
    if (url.pathname === WEB_EVENTS_PATH) {
      if (request.method !== 'GET') return sendText(response, 405, 'Use GET')
      return streamEvents(request, response)
    }
    if (url.pathname === WEB_BRIDGE_PREFIX || url.pathname.startsWith(`${WEB_BRIDGE_PREFIX}/`)) {
      return sendText(response, 404, 'Not found')
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendText(response, 405, 'Method not allowed')
    }
    return serveRenderer(response, url.pathname, request.method === 'HEAD')
  }

  async function invoke(request: IncomingMessage, response: ServerResponse, channel: string) {
    const contentType = request.headers['content-type'] ?? ''
    if (!/^application\/json\b/i.test(contentType)) {
      // Forms cannot send application/json, which keeps simple cross-site posts out too.
      return sendText(response, 415, 'Send application/json')
    }
    const body = await readBody(request, MAX_BODY_BYTES)
    if (body === 'too-large') return sendText(response, 413, 'Request body too large')
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

  async function serveRenderer(response: ServerResponse, pathname: string, headOnly: boolean) {
    const found = await lookupStatic(rendererDir, pathname)
    if (found.kind === 'refused') return sendText(response, 400, 'Bad path')
    if (found.kind === 'not-found') return sendText(response, 404, 'Not found')
    if (found.kind === 'file') return sendFile(response, found, headOnly)
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
    response.end(headOnly ? undefined : bytes)
  }

  await listen(server, options.port ?? 0)
  port = (server.address() as AddressInfo).port
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`
  return {
    url: `${origin}/?${SECRET_QUERY}=${secret}`,
    origin,
    port,
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

/** `/?secret=…` or `/auth/<secret>`: the two ways the printed URL may carry the secret. */
function secretOffered(url: URL): string | null {
  if (url.pathname === '/' && url.searchParams.has(SECRET_QUERY)) {
    return url.searchParams.get(SECRET_QUERY)
  }
  const match = /^\/auth\/([^/]+)$/.exec(url.pathname)
  return match ? (match[1] ?? null) : null
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

function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) tooLarge = true
      if (!tooLarge) chunks.push(chunk)
    })
    request.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)))
    request.on('error', reject)
  })
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

function sendText(response: ServerResponse, status: number, text: string) {
  const bytes = Buffer.from(`${text}\n`, 'utf8')
  response.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': bytes.length,
    'Cache-Control': 'no-store',
  })
  response.end(bytes)
}
