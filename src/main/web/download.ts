import { createReadStream } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { sendText } from './plain-text'

/*
 * The host's half of "Download to this browser": what a ticket opened, sent as an attachment.
 * The host never sees a path from the request: the desk looked the ticket's transfer up in the
 * transfers log and hands back the file that log recorded.
 */

export type HostedDownload =
  | { kind: 'file'; path: string; fileName: string; size: number }
  /** A ticket presented before, or expired: 410. */
  | { kind: 'spent' }
  /** Not a ticket of this launch: 404. */
  | { kind: 'unknown' }
  /** A valid ticket whose file was removed from disk since: 404 saying so. */
  | { kind: 'missing' }

export function sendDownload(response: ServerResponse, opened: HostedDownload) {
  if (opened.kind !== 'file') {
    const [status, text] = REFUSALS[opened.kind]
    return sendText(response, status, text)
  }
  response.writeHead(200, {
    'Content-Type': 'application/octet-stream',
    'Content-Length': opened.size,
    'Content-Disposition': contentDisposition(opened.fileName),
    'Cache-Control': 'no-store',
  })
  createReadStream(opened.path)
    .on('error', () => response.destroy())
    .pipe(response)
}

const REFUSALS: Record<Exclude<HostedDownload['kind'], 'file'>, [number, string]> = {
  spent: [410, 'This download link was used already or has expired: ask for the download again'],
  unknown: [404, 'No such download'],
  missing: [404, 'The file is no longer on the host: it was moved or deleted'],
}

/**
 * `attachment` with the name twice (RFC 6266): an ASCII fallback with quotes and anything
 * outside printable ASCII replaced, and the exact name UTF-8 percent-encoded.
 */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_')
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`
}
