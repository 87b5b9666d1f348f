import { setImmediate as nextTurn } from 'node:timers/promises'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from './errors'
import { describeOrigin, findErrorCode } from './network'

/*
 * Reading an answer's body from fetch: bounded by the response size limit (a clear error past
 * it, instead of one answer taking the app down), and a connection that breaks mid-body said
 * as such. Whole (`readBounded`, for answers parsed at once) or chunk by chunk as they arrive
 * (`readChunks`, for list answers split into rows on the way).
 */

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`
  return `${bytes} bytes`
}

export function tooLarge(url: URL, limit: number, size: string): ServiceError {
  return new ServiceError(
    APP_ERROR_CODES.BAD_RESPONSE,
    `The answer from ${describeOrigin(url)} is too large (${size}; the limit is ` +
      `${formatBytes(limit)}). Narrow the request, or raise the response size limit.`,
    { details: { limitBytes: limit } },
  )
}

/**
 * The whole body, refused as soon as it passes `limit` bytes (by its Content-Length when it
 * declares one, else while reading), so an oversized answer never lands in memory. A connection
 * that breaks after the headers is reported as such, with how much had arrived.
 */
export async function readBounded(response: Response, url: URL, limit: number): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isSafeInteger(declared) && declared > 0 && declared <= limit) {
    // A declared length: one buffer, filled as chunks arrive (a 10 MB answer is held once,
    // not as chunks and then again joined).
    let whole = Buffer.allocUnsafe(declared)
    let filled = 0
    await readChunks(response, url, limit, (chunk) => {
      if (filled + chunk.byteLength > whole.length) {
        // More than declared: grow (a server may lie; the limit still holds).
        const grown = Buffer.allocUnsafe(Math.max(whole.length * 2, filled + chunk.byteLength))
        whole.copy(grown, 0, 0, filled)
        whole = grown
      }
      whole.set(chunk, filled)
      filled += chunk.byteLength
    })
    return whole.subarray(0, filled)
  }
  const chunks: Uint8Array[] = []
  await readChunks(response, url, limit, (chunk) => chunks.push(chunk))
  return Buffer.concat(chunks)
}

/**
 * How long one read of a body keeps main's loop before letting it turn. A socket with data
 * waiting is read up to 32 times in one turn of libuv's loop, and each 64 KiB chunk costs fetch
 * and the sink ~1 ms: a 10 MB list held the loop for 30-45 ms at a time (bench `stalls`,
 * sessions). Letting the loop turn stops reading for that turn (the stream's queue fills and
 * fetch pauses the socket), so timers and the bridge's calls go first. 2 ms rather than 4: the
 * stalls bench's p99 over all scenarios was 17-19 ms in three runs, against 18-22 at 4 ms, with
 * the same elapsed times.
 */
const SLICE_MS = 2

/**
 * Hands each chunk of the body to `onChunk` as it arrives (decompressed, as fetch gives it),
 * refusing the answer past `limit` bytes. Whatever `onChunk` throws ends the read (the rest of
 * the body is cancelled) and is thrown as it is.
 */
export async function readChunks(
  response: Response,
  url: URL,
  limit: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge(url, limit, formatBytes(declared))
  }
  if (!response.body) return
  let received = 0
  const reader = response.body.getReader()
  const letLoopTurn = loopTurns()
  for (;;) {
    await letLoopTurn()
    const next = await readNext(reader, url, received, declared)
    if (next.done) return
    const chunk = next.value
    received += chunk.byteLength
    try {
      if (received > limit) throw tooLarge(url, limit, `more than ${formatBytes(limit)}`)
      onChunk(chunk)
    } catch (error) {
      // Nothing more of this answer is wanted: the connection goes.
      await reader.cancel().catch(() => undefined)
      throw error
    }
  }
}

/** A function to call between reads: it lets main's loop turn once reading held it SLICE_MS. */
export function loopTurns(): () => Promise<void> {
  let sliceStart = performance.now()
  return async () => {
    if (performance.now() - sliceStart < SLICE_MS) return
    await nextTurn()
    sliceStart = performance.now()
  }
}

/** The next chunk of a body; a connection that breaks is said as such (bodyBreak). */
export async function readNext(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  url: URL,
  received: number,
  declared: number,
): Promise<Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>> {
  try {
    return await reader.read()
  } catch (error) {
    throw bodyBreak(error, url, received, declared)
  }
}

/**
 * What a failed read of the body means: a timeout or a cancel keeps its meaning (the caller's
 * signals decide); a broken connection says that the answer was cut, not that nobody answered.
 */
export function bodyBreak(error: unknown, url: URL, received: number, declared: number): unknown {
  const code = findErrorCode(error)
  if (error instanceof DOMException || code === undefined || !(code in BODY_BREAKS)) return error
  return new ServiceError(
    APP_ERROR_CODES.OFFLINE,
    `The connection to ${describeOrigin(url)} broke while the answer was arriving ` +
      `(after ${formatBytes(received)}${Number.isFinite(declared) && declared > 0 ? ` of ${formatBytes(declared)}` : ''})`,
    { cause: error, details: { reason: code, receivedBytes: received } },
  )
}

/** Errors undici gives when the connection ends while a body is being read. */
const BODY_BREAKS: Record<string, true> = {
  UND_ERR_SOCKET: true,
  ECONNRESET: true,
  UND_ERR_CLOSED: true,
  EPIPE: true,
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: true,
}
