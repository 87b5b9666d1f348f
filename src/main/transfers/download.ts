import { APP_ERROR_CODES } from '../../shared/bridge'
import { errorFromResponse, isServiceError, ServiceError } from '../api'
import type { RawResponse } from '../api'
import { describeOrigin, findErrorCode, formatWait, networkReason } from '../api/network'
import { IDLE_TIMEOUT_CODE } from '../api/raw-http'
import type { AtomicFile } from './atomic-file'
import { isPermanentProxyRefusal } from '../net/errors'

/*
 * Streams one HTTP download into a file, resuming after a dropped connection. A resume
 * asks for the rest with `Range: bytes=<have>-` and `If-Range: <validator>` (the first answer's
 * strong ETag, else its Last-Modified), so a server whose file changed in between sends the
 * whole new file (200) instead of a mismatched tail. A 200 to a range request always restarts
 * the file from zero: bytes are never appended to a file they do not continue. Memory stays
 * flat: each chunk is written (and hashed) before the next one is read. Volume archives run it
 * on the download worker (worker-download.ts), from socket to disk on one thread.
 *
 * A body that goes silent (a NAT or proxy that drops the flow without a reset) is given up after
 * `stallTimeoutMs` without a byte, and resumed like a dropped connection. The engine gives up
 * after `maxAttemptsWithoutProgress` failed attempts in a row that each brought less than
 * MIN_PROGRESS_BYTES: a link that trickles a few bytes per attempt (a slow drip, a connection cut
 * every few bytes) ends in a clear error instead of resuming for ever.
 */

/** How the engine fetches: the service client's `fetchRaw` (token only to the profile's origin). */
export type RangeFetch = (
  url: string,
  request: { headers: Record<string, string>; signal: AbortSignal; idleTimeoutMs: number },
) => Promise<RawResponse>

export interface DownloadProgress {
  bytesDone: number
  /** Null while the size is unknown. */
  bytesTotal: number | null
  /** Resumes so far (Range requests after a dropped connection). */
  resumes: number
  /** Times the file started over (a 200 to a range request, a changed file). */
  restarts: number
}

/** Where the bytes go: an AtomicFile, or the download worker's own file (worker-download.ts). */
export type DownloadFile = Pick<AtomicFile, 'size' | 'write' | 'restart'>

export interface DownloadOptions {
  url: string
  fetch: RangeFetch
  file: DownloadFile
  signal: AbortSignal
  /** What the service announced; the answer's own length is used when absent. */
  expectedSize?: number | null
  onProgress?(progress: DownloadProgress): void
  /** A fresh URL when the link was refused on a resume (signed links expire); optional. */
  renewUrl?(): Promise<string>
  /** Consecutive failed attempts without a byte of progress before giving up. Default 5. */
  maxAttemptsWithoutProgress?: number
  /** First pause before a resume; doubles per failed attempt, at most 5 s. Default 500 ms. */
  retryDelayMs?: number
  /** No byte of the body for this long ends the attempt (then a resume). Default 60 s. */
  stallTimeoutMs?: number
}

export interface DownloadResult extends DownloadProgress {
  bytesTotal: number
}

const MAX_RETRY_DELAY_MS = 5_000
export const DEFAULT_STALL_TIMEOUT_MS = 60_000
/** What an attempt must bring before a failure after it no longer counts toward giving up. */
export const MIN_PROGRESS_BYTES = 64 * 1024

export async function downloadToFile(options: DownloadOptions): Promise<DownloadResult> {
  const { file, signal } = options
  const maxFailures = options.maxAttemptsWithoutProgress ?? 5
  const retryDelayMs = options.retryDelayMs ?? 500
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS
  let url = options.url
  let total: number | null = options.expectedSize ?? null
  let validator: string | null = null
  let resumes = 0
  let restarts = 0
  let failures = 0
  let renewed = false
  const progress = (): DownloadProgress => ({
    bytesDone: file.size,
    bytesTotal: total,
    resumes,
    restarts,
  })

  for (;;) {
    throwIfCancelled(signal)
    const offset = file.size
    const headers: Record<string, string> = { 'accept-encoding': 'identity' }
    if (offset > 0) {
      headers['range'] = `bytes=${offset}-`
      if (validator !== null) headers['if-range'] = validator
    }
    const sizeBefore = file.size
    let response: RawResponse
    try {
      // The transport's idle timer is the stall watchdog: it counts only while it waits for
      // the network, never while a full buffer waits for the disk.
      response = await options.fetch(url, { headers, signal, idleTimeoutMs: stallTimeoutMs })
    } catch (error) {
      failures = await afterFailure(error, failures, maxFailures, retryDelayMs, signal)
      continue
    }

    if (offset > 0 && (response.status === 403 || response.status === 410) && !renewed) {
      // A signed link that expired while we were cut off: ask the service for a new one, once.
      if (options.renewUrl !== undefined) {
        response.discard()
        url = await options.renewUrl()
        renewed = true
        continue
      }
    }
    if (offset > 0 && response.status === 416) {
      // Nothing left to send: complete if the server's size is what we have, else start over.
      const size = parseContentRange(response.headers.get('content-range'))?.size ?? null
      response.discard()
      if (size !== null && size === offset && (total === null || total === size)) {
        return { ...progress(), bytesTotal: size }
      }
      await file.restart()
      restarts += 1
      continue
    }
    if (response.status !== 200 && response.status !== 206) {
      const error = await errorFromResponse(response, url)
      if (RETRYABLE_STATUSES.has(response.status)) {
        failures = await afterFailure(error, failures, maxFailures, retryDelayMs, signal)
        continue
      }
      throw error
    }

    if (response.status === 206) {
      const range = parseContentRange(response.headers.get('content-range'))
      if (range === null || range.start !== offset) {
        // A range we did not ask for cannot continue this file: start over without Range.
        response.discard()
        await file.restart()
        restarts += 1
        continue
      }
      if (range.size !== null) total = range.size
    } else {
      if (offset > 0) {
        // The server ignored Range or If-Range said the file changed: the whole file again.
        await file.restart()
        restarts += 1
      }
      const length = contentLength(response.headers)
      if (length !== null) total = length
    }
    if (offset > 0 && file.size > 0) resumes += 1
    validator = validatorOf(response.headers) ?? validator
    options.onProgress?.(progress())

    try {
      await streamBody(response, file, () => options.onProgress?.(progress()))
    } catch (error) {
      if (isFileError(error) || signal.aborted) throw cancelledOr(error, signal)
      if (madeProgress(file.size - sizeBefore)) failures = 0
      const failure = isServiceError(error)
        ? error
        : findErrorCode(error) === IDLE_TIMEOUT_CODE
          ? stalled(url, stallTimeoutMs)
          : brokeMidBody(error, url, file.size - sizeBefore)
      failures = await afterFailure(failure, failures, maxFailures, retryDelayMs, signal)
      continue
    }
    if (total !== null && file.size < total) {
      // The body ended early without an error (a closed connection the parser accepted).
      if (madeProgress(file.size - sizeBefore)) failures = 0
      failures = await afterFailure(
        new ServiceError(APP_ERROR_CODES.OFFLINE, 'The connection closed before the end'),
        failures,
        maxFailures,
        retryDelayMs,
        signal,
      )
      continue
    }
    return { ...progress(), bytesTotal: total ?? file.size }
  }
}

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504])

function madeProgress(bytes: number): boolean {
  return bytes >= MIN_PROGRESS_BYTES
}

function originOf(url: string): string {
  try {
    return describeOrigin(new URL(url))
  } catch {
    // A relative URL: the service's own origin, which the message need not spell out.
    return 'the server'
  }
}

/** A connection that broke while the archive was arriving: OFFLINE, saying how much came. */
function brokeMidBody(error: unknown, url: string, received: number): ServiceError {
  const code = findErrorCode(error)
  const reason = (code && networkReason(code)) ?? code ?? 'network error'
  return new ServiceError(
    APP_ERROR_CODES.OFFLINE,
    `The connection to ${originOf(url)} broke during the download, after ${received} bytes of this attempt (${reason})`,
    { cause: error, ...(code === undefined ? {} : { details: { reason: code } }) },
  )
}

function stalled(url: string, ms: number): ServiceError {
  return new ServiceError(
    APP_ERROR_CODES.TIMEOUT,
    `The download from ${originOf(url)} stalled: no data for ${formatWait(ms)}`,
  )
}

/**
 * Writes (and hashes) each piece of the body straight from the transport's
 * read buffers: no copy, no batch buffer, memory flat at those two buffers whatever the file's
 * size. Writing each read as it comes, while its bytes are still in the CPU cache, costs about
 * half the kernel time of gathering 1 MiB batches first, and the transport reads the next piece
 * into its other buffer meanwhile (bench/export.ts). Writes run one after another, in order
 * (the file's hash and positions depend on it). Bytes received before a dropped connection are
 * written before the error is passed on, so the resume starts exactly after them.
 */
async function streamBody(
  response: RawResponse,
  file: DownloadFile,
  onWritten: () => void,
): Promise<void> {
  let writes: Promise<void> = Promise.resolve()
  try {
    await response.readBody({
      write(bytes) {
        writes = writes.then(async () => {
          await file.write(bytes)
          onWritten()
        })
        return writes
      },
    })
  } finally {
    // Never leave a write running behind the caller's back (it may resume or abort the file).
    await writes.catch(() => undefined)
  }
}

/** Counts a failed attempt, waits before the next one, or throws when it is time to give up. */
async function afterFailure(
  error: unknown,
  failures: number,
  maxFailures: number,
  retryDelayMs: number,
  signal: AbortSignal,
): Promise<number> {
  if (signal.aborted) throw cancelledOr(error, signal)
  if (!isNetworkFailure(error)) throw error
  const next = failures + 1
  if (next >= maxFailures) {
    // The last failure's code and status (TIMEOUT, a 503, ...) say what happened; OFFLINE when
    // the connection itself failed.
    const last = isServiceError(error) ? error : null
    throw new ServiceError(
      last?.code ?? APP_ERROR_CODES.OFFLINE,
      `The download failed ${next} times in a row without progress (${last?.message ?? 'the connection failed'})`,
      { cause: error, ...(last?.status === undefined ? {} : { status: last.status }) },
    )
  }
  await sleep(Math.min(MAX_RETRY_DELAY_MS, retryDelayMs * 2 ** failures), signal)
  return next
}

/** Failures worth another attempt: the network, not the file system or a refusal. */
function isNetworkFailure(error: unknown): boolean {
  if (isServiceError(error)) {
    // A proxy that wants a login or forbids the target says the same on every attempt.
    if (isPermanentProxyRefusal(error)) return false
    return (
      error.code === APP_ERROR_CODES.OFFLINE ||
      error.code === APP_ERROR_CODES.TIMEOUT ||
      error.code === 'INTERNAL_ERROR' ||
      (error.status !== undefined && RETRYABLE_STATUSES.has(error.status))
    )
  }
  // A broken body (node:http's "aborted", ECONNRESET) comes raw from the stream.
  return error instanceof Error
}

function isFileError(error: unknown): boolean {
  return (
    isServiceError(error) &&
    (error.code === APP_ERROR_CODES.DISK_FULL ||
      error.code === APP_ERROR_CODES.NOT_WRITABLE ||
      error.code === APP_ERROR_CODES.CANCELLED)
  )
}

/** A failure while the user cancelled reads as the cancel it really is. */
function cancelledOr(error: unknown, signal: AbortSignal): unknown {
  if (!signal.aborted) return error
  if (isServiceError(error) && error.code === APP_ERROR_CODES.CANCELLED) return error
  return new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written', {
    cause: error,
  })
}

function throwIfCancelled(signal: AbortSignal) {
  if (signal.aborted) {
    throw new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written')
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(new ServiceError(APP_ERROR_CODES.CANCELLED, 'Cancelled: no file was written'))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** A strong ETag, else Last-Modified: what If-Range may carry (RFC 9110 13.1.5). */
function validatorOf(headers: Headers): string | null {
  const etag = headers.get('etag')
  if (etag !== null && etag.startsWith('"')) return etag
  return headers.get('last-modified')
}

function contentLength(headers: Headers): number | null {
  const value = headers.get('content-length')
  if (value === null || !/^\d+$/.test(value.trim())) return null
  return Number(value)
}

/** A Content-Range value: `bytes 100-199/1000`, or for a 416 the size alone; null if unreadable. */
export function parseContentRange(
  header: string | null,
): { start: number; end: number; size: number | null } | { start: null; size: number } | null {
  if (header === null) return null
  const unsatisfied = /^bytes \*\/(\d+)$/.exec(header.trim())
  if (unsatisfied) return { start: null, size: Number(unsatisfied[1]) }
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header.trim())
  if (!match) return null
  const [, start = '', end = '', size = '*'] = match
  return { start: Number(start), end: Number(end), size: size === '*' ? null : Number(size) }
}
