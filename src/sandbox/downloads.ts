import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { z } from 'zod'
import { ApiFailure, forbidden, invalidField, notFound } from './failure'
import { contentDisposition, sendError } from './http'
import type { VolumeArchive } from './volumes/types'

/*
 * Volume exports (op 15) hand out a link instead of bytes: an absolute URL on the sandbox,
 * signed with a per-sandbox secret and valid for a short time, so a download manager can
 * fetch it (and resume it with Range) without the bearer token.
 */

export const DOWNLOAD_PREFIX = '/downloads/volumes/'
export const DOWNLOAD_LIFETIME_MS = 15 * 60 * 1000
const DOWNLOAD_PERMISSION = 'docker:volumes:read'

export interface SignedDownload {
  url: string
  expiresAt: Date
}

export interface DownloadTarget {
  nodeId: string
  name: string
}

export interface DownloadSigner {
  sign(baseUrl: string, target: DownloadTarget, now: Date): SignedDownload
  /** The volume a signed path names; 403 when the signature is wrong or the link expired. */
  verify(pathname: string, search: URLSearchParams, now: Date): DownloadTarget
}

export function createDownloadSigner(secret: Buffer = randomBytes(32)): DownloadSigner {
  const signature = (target: DownloadTarget, expires: number) =>
    createHmac('sha256', secret)
      .update(`${target.nodeId}\n${target.name}\n${expires}`)
      .digest('base64url')

  return {
    sign(baseUrl, target, now) {
      const expiresAt = new Date(now.getTime() + DOWNLOAD_LIFETIME_MS)
      const expires = expiresAt.getTime()
      const path = `${DOWNLOAD_PREFIX}${encodeURIComponent(target.nodeId)}/${encodeURIComponent(target.name)}.tar.gz`
      const query = new URLSearchParams({
        expires: String(expires),
        signature: signature(target, expires),
      })
      return { url: `${baseUrl}${path}?${query.toString()}`, expiresAt }
    },

    verify(pathname, search, now) {
      const target = parseDownloadPath(pathname)
      const expires = Number(search.get('expires'))
      const presented = Buffer.from(search.get('signature') ?? '', 'base64url')
      const expected = Buffer.from(signature(target, expires), 'base64url')
      const valid =
        Number.isSafeInteger(expires) &&
        presented.length === expected.length &&
        timingSafeEqual(presented, expected)
      if (!valid) throw forbidden(DOWNLOAD_PERMISSION, { reason: 'Invalid download signature' })
      if (expires <= now.getTime()) {
        throw forbidden(DOWNLOAD_PERMISSION, { reason: 'Download link expired' })
      }
      return target
    },
  }
}

function parseDownloadPath(pathname: string): DownloadTarget {
  const rest = pathname.slice(DOWNLOAD_PREFIX.length).split('/')
  const [rawNode, rawFile] = rest
  if (rest.length !== 2 || !rawNode || !rawFile?.endsWith('.tar.gz')) throw notFound()
  try {
    const nodeId = decodeURIComponent(rawNode)
    const name = decodeURIComponent(rawFile.slice(0, -'.tar.gz'.length))
    return { nodeId, name }
  } catch {
    throw notFound()
  }
}

export type ByteRange = { start: number; end: number }

/**
 * Reads a single `Range: bytes=` range: `a-b`, `a-` or `-n`. Returns null when the header
 * is absent, names another unit or several ranges (then the whole archive is sent, as
 * RFC 9110 allows), and 'unsatisfiable' when no byte of it exists.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | null | 'unsatisfiable' {
  if (!header) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(first)
  if (start >= size) return 'unsatisfiable'
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1)
  if (end < start) return 'unsatisfiable'
  return { start, end }
}

/*
 * Test-only faults (`/__sandbox/downloads`): the next download(s) stop after N bytes of body, as
 * a dropped connection would, so a client's resume can be exercised for real. Counters say what
 * was served (full answers, partial 206 answers, cuts), so a test can check a resume used Range.
 */

export const downloadCutSchema = z.strictObject({
  /** Bytes of body sent before the connection is closed; null clears pending cuts. */
  afterBytes: z.int().min(0).nullable(),
  /** How many of the next downloads are cut (default 1). */
  count: z.int().min(1).max(1000).default(1),
})

export interface DownloadFaultStatus {
  pendingCuts: number
  afterBytes: number | null
  served: { full: number; partial: number; cut: number }
}

export interface DownloadFaults {
  cutNext(afterBytes: number | null, count: number): void
  /** The cut for a download starting now (consumes one), or null. */
  take(): number | null
  served(kind: 'full' | 'partial' | 'cut'): void
  status(): DownloadFaultStatus
  clear(): void
}

export function createDownloadFaults(): DownloadFaults {
  let afterBytes: number | null = null
  let pendingCuts = 0
  let served = { full: 0, partial: 0, cut: 0 }
  return {
    cutNext(bytes, count) {
      afterBytes = bytes
      pendingCuts = bytes === null ? 0 : count
    },
    take() {
      if (afterBytes === null || pendingCuts === 0) return null
      pendingCuts -= 1
      return afterBytes
    },
    served(kind) {
      served = { ...served, [kind]: served[kind] + 1 }
    },
    status: () => ({ pendingCuts, afterBytes: pendingCuts > 0 ? afterBytes : null, served }),
    clear() {
      afterBytes = null
      pendingCuts = 0
      served = { full: 0, partial: 0, cut: 0 }
    },
  }
}

/** Reads the body of `POST /__sandbox/downloads/cut`; 400 on the field that is wrong. */
export function parseDownloadCut(text: string | null): z.output<typeof downloadCutSchema> {
  let value: unknown
  try {
    value = text === null ? {} : JSON.parse(text)
  } catch {
    throw invalidField([], 'The body must be JSON')
  }
  const parsed = downloadCutSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalidField((issue?.path ?? []).map(String), issue?.message ?? 'Invalid')
  }
  return parsed.data
}

/** Sends at most `limit` bytes of `stream`, then closes the connection once they are flushed. */
async function sendCut(stream: Readable, response: ServerResponse, limit: number): Promise<void> {
  let sent = 0
  if (limit > 0) {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const piece = chunk.length > limit - sent ? chunk.subarray(0, limit - sent) : chunk
      sent += piece.length
      if (!response.write(piece)) await once(response, 'drain')
      if (sent >= limit) break
    }
  }
  stream.destroy()
  // end() flushes what was written, then FIN: the client sees the body stop short.
  response.socket?.end()
}

/** Serves a signed volume archive: GET and HEAD, one Range, streamed with backpressure. */
export async function serveVolumeDownload(
  request: IncomingMessage,
  response: ServerResponse,
  archive: VolumeArchive,
  filename: string,
  faults?: DownloadFaults,
): Promise<void> {
  const method = request.method ?? 'GET'
  if (method !== 'GET' && method !== 'HEAD') {
    throw notFound({ method, allowedMethods: ['GET', 'HEAD'] })
  }
  const headOnly = method === 'HEAD'
  const size = archive.sizeBytes
  const etag = `"${await archive.sha256()}"`
  const ifRange = request.headers['if-range']
  // A resume against another version of the archive must get the whole of it.
  const rangeHeader = ifRange === undefined || ifRange === etag ? request.headers.range : undefined
  const range = parseRange(rangeHeader, size)

  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    'Content-Type': 'application/gzip',
    'Content-Disposition': contentDisposition(filename),
    ETag: etag,
    'Cache-Control': 'no-store',
  }
  if (range === 'unsatisfiable') {
    const failure = new ApiFailure(
      'UNPROCESSABLE_ENTITY',
      { reason: 'Range not satisfiable', sizeBytes: size },
      416,
    )
    sendError(response, failure.status, failure.body, { 'Content-Range': `bytes */${size}` })
    return
  }
  if (range) {
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${size}`
  }
  const length = range ? range.end - range.start + 1 : size
  response.writeHead(range ? 206 : 200, { ...headers, 'Content-Length': String(length) })
  if (headOnly || length === 0) {
    response.end()
    return
  }
  const cutAfter = faults?.take() ?? null
  faults?.served(cutAfter !== null && cutAfter < length ? 'cut' : range ? 'partial' : 'full')
  try {
    const stream = archive.createReadStream(range ?? undefined)
    if (cutAfter !== null && cutAfter < length) await sendCut(stream, response, cutAfter)
    else await pipeline(stream, response)
  } catch {
    // The client went away mid-stream (or the sandbox is closing): nothing left to answer.
    response.destroy()
  }
}
