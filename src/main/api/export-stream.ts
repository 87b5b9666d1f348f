import type { ExportFormat } from '../../shared/api'
import { operations } from '../../shared/api'
import { EXPORT_FORMAT_INFO } from '../../shared/bridge'
import { badResponse, mainMediaType, parseAnswer, parseJsonBody } from './answer-checks'
import { filenameFromContentDisposition } from './content-disposition'
import { exportShapeProblem } from './export-shape'
import { zipProblem } from './zip-listing'

/*
 * Op 12's answer streamed to disk (features/certificates/export.ts). A service may send the
 * file itself (a real deployment does: `Content-Disposition: attachment; filename="<cn>.p12"`,
 * `Content-Type: application/x-pkcs12`, and a ZIP for pem-bundle) or JSON `{filename,
 * mediaType, encoding, content}` (our sandbox's default flavour when not asked for raw bytes).
 * Both are read here: the raw file chunk by chunk as it arrives (each chunk written and hashed
 * before the next is read), the JSON form whole (it is one JSON document) and decoded.
 *
 * Resume: op 12 is a POST; a real deployment (hono's Response) sends no `Accept-Ranges` and a
 * POST's answer is not addressable by Range on most servers, so an export that breaks is asked
 * again from the start, never resumed: nothing half-written is kept (the atomic writer).
 */

/** Op 12's 2xx answer, its body not read yet. */
export interface ExportAnswer {
  headers: Headers
  /** The body as it arrives; a broken connection throws a ServiceError from the iteration. */
  chunks: AsyncIterable<Uint8Array>
}

/** What the service said it sent, before its body is read. */
export interface ExportHead {
  /** As the service named it (not sanitised: whoever writes it does). */
  filename: string | null
  mediaType: string | null
  /** The JSON form `{filename, mediaType, encoding, content}`, not the file itself. */
  json: boolean
  /** A ZIP (pem-bundle as a real deployment sends it), by its media type or name. */
  zip: boolean
}

export function exportHeadOf(headers: Headers): ExportHead {
  return headOf(
    filenameFromContentDisposition(headers.get('content-disposition')),
    mainMediaType(headers.get('content-type')),
  )
}

function headOf(filename: string | null, mediaType: string | null): ExportHead {
  const json = mediaType !== null && /[/+]json$/i.test(mediaType)
  const zip =
    !json &&
    ((mediaType !== null && /^application\/(x-)?zip(-compressed)?$/i.test(mediaType)) ||
      (filename !== null && /\.zip$/i.test(filename)))
  return { filename, mediaType, json, zip }
}

/** The largest JSON form read into memory (it holds the file base64-encoded). */
const MAX_JSON_EXPORT_BYTES = 16 * 1024 * 1024
/**
 * Bytes handed to the writer at a time: each write is a round trip to the writer thread, and a
 * server that drips a byte a read would otherwise cost one per byte.
 */
const WRITE_BYTES = 64 * 1024
/** The largest raw export checked whole at its end (certificate files are kilobytes). */
const MAX_CHECKED_BYTES = 16 * 1024 * 1024

/**
 * The raw file's chunks as they arrive, each handed on at once (to be written and hashed), and
 * at the end the whole checked as the format's file (export-shape.ts; a ZIP as a ZIP that lists
 * PEM files): a body a proxy damaged or cut throws at its end, so the writer keeps nothing.
 */
export async function* checkedRawChunks(
  answer: ExportAnswer,
  format: ExportFormat,
  head: ExportHead,
  /** A further check of the whole file (its certificate is the listed one), or none. */
  alsoCheck: (bytes: Buffer) => string | null = () => null,
): AsyncIterable<Uint8Array> {
  const kept: Buffer[] = []
  let size = 0
  /** Bytes arrived and not handed on yet (a slow server's chunks may be a byte each). */
  let pending: Buffer[] = []
  let pendingSize = 0
  for await (const chunk of answer.chunks) {
    size += chunk.length
    if (size > MAX_CHECKED_BYTES) {
      throw badResponse(
        'exportCertificate',
        `the ${format} export is larger than ${MAX_CHECKED_BYTES} bytes, far more than a certificate file`,
      )
    }
    // A copy: the chunk's memory may be reused once it has been written.
    const copy = Buffer.from(chunk)
    kept.push(copy)
    pending.push(copy)
    pendingSize += copy.length
    if (pendingSize >= WRITE_BYTES) {
      yield Buffer.concat(pending, pendingSize)
      pending = []
      pendingSize = 0
    }
  }
  if (pendingSize > 0) yield Buffer.concat(pending, pendingSize)
  const bytes = Buffer.concat(kept, size)
  const problem = rawFileProblem(format, bytes, head) ?? alsoCheck(bytes)
  if (problem !== null) throw badResponse('exportCertificate', problem)
}

/** Why raw bytes cannot be the `format` file the headers announced, or null. */
export function rawFileProblem(
  format: ExportFormat,
  bytes: Buffer,
  head: ExportHead,
): string | null {
  const looksZip = bytes.length >= 4 && bytes.readUInt32LE(0) === 0x04034b50
  if (head.zip || looksZip) {
    if (format !== 'pem-bundle') return `the ${format} export came as a ZIP archive`
    if (!head.zip) return 'the pem-bundle export is a ZIP archive, which the service did not say'
    return zipProblem(bytes)
  }
  return exportShapeProblem(format, bytes)
}

/** The JSON form read whole and decoded to the file's bytes (never through a text decoder). */
export async function fileOfJsonAnswer(
  answer: ExportAnswer,
  format: ExportFormat,
): Promise<{ filename: string; mediaType: string; bytes: Buffer; head: ExportHead }> {
  const parts: Buffer[] = []
  let size = 0
  for await (const chunk of answer.chunks) {
    size += chunk.length
    if (size > MAX_JSON_EXPORT_BYTES) {
      throw badResponse('exportCertificate', 'its JSON answer is larger than an export can be')
    }
    parts.push(Buffer.from(chunk))
  }
  const parsed = parseAnswer(
    'exportCertificate',
    operations.exportCertificate.response,
    parseJsonBody(
      'exportCertificate',
      200,
      answer.headers.get('content-type'),
      Buffer.concat(parts, size).toString('utf8'),
    ),
  )
  const { filename, mediaType, encoding, content } = parsed.data
  let bytes: Buffer
  if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(content)) {
      throw badResponse('exportCertificate', 'its base64 content is not valid base64')
    }
    bytes = Buffer.from(content, 'base64')
  } else if (EXPORT_FORMAT_INFO[format].binary) {
    // A binary file squeezed through text has already lost bytes: refuse rather than save it.
    throw badResponse('exportCertificate', `the binary ${format} export was sent as text`)
  } else {
    bytes = Buffer.from(content, 'utf8')
  }
  const head = headOf(filename, mediaType)
  const problem = rawFileProblem(format, bytes, head)
  if (problem !== null) throw badResponse('exportCertificate', problem)
  return { filename, mediaType, bytes, head }
}

/**
 * The name a saved export takes: the stem the app chose (the certificate's name, or the save
 * dialog's), with the served file's extension when the service sent another kind of file than
 * the format's usual one (a ZIP for pem-bundle becomes `<name>.zip`).
 */
export function savedExportName(chosen: string, format: ExportFormat, head: ExportHead): string {
  if (!head.zip) return chosen
  const usual = EXPORT_FORMAT_INFO[format].extension
  const stem = chosen.toLowerCase().endsWith(usual.toLowerCase())
    ? chosen.slice(0, chosen.length - usual.length)
    : chosen.replace(/\.(pem|zip)$/i, '')
  return `${stem}.zip`
}
