import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { pipeline } from 'node:stream/promises'
import { ApiFailure, forbidden, notFound } from './failure'
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

/** Serves a signed volume archive: GET and HEAD, one Range, streamed with backpressure. */
export async function serveVolumeDownload(
  request: IncomingMessage,
  response: ServerResponse,
  archive: VolumeArchive,
  filename: string,
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
  try {
    await pipeline(archive.createReadStream(range ?? undefined), response)
  } catch {
    // The client went away mid-stream (or the sandbox is closing): nothing left to answer.
    response.destroy()
  }
}
