import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ErrorBody } from '../shared/api'
import { validationIssuesOf } from '../shared/api'
import { ApiFailure, invalidField } from './failure'

/** What a handler answers: a JSON document, or raw bytes with their own headers. */
export type Reply =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'bytes'; status: number; bytes: Buffer; headers: Record<string, string> }

export function json(body: unknown, status = 200): Reply {
  return { kind: 'json', status, body }
}

export function bytes(data: Buffer, headers: Record<string, string>, status = 200): Reply {
  return { kind: 'bytes', status, bytes: data, headers }
}

/*
 * HTTP statuses are not shown by the interface (the body's `code` says what happened). The
 * default personality answers 400/401/403/404/409/422/500 by code and 201 for an upload; the
 * variant (SandboxOptions.variant) makes the other common choice for the 22 operations:
 * 400 for every refusal of the client's request, 500 for its own failures, and 200 for every
 * success. Statuses HTTP itself fixes (416 for a range, the download links') are not remapped.
 */

/** A 2xx of an operation, as the variant sends it. */
export function variantSuccessStatus(status: number): number {
  return status >= 200 && status <= 299 ? 200 : status
}

/** A service error's status, as the variant sends it: every 4xx is 400. */
export function variantErrorStatus(status: number): number {
  return status >= 400 && status <= 499 ? 400 : status
}

/** The largest request body the sandbox reads; larger ones are refused, not buffered. */
export const MAX_BODY_BYTES = 1024 * 1024

const BASE_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }

export function send(response: ServerResponse, reply: Reply, headOnly = false): void {
  if (reply.kind === 'json') {
    const text = JSON.stringify(reply.body)
    response.writeHead(reply.status, {
      ...BASE_HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(text),
      ...reply.headers,
    })
    response.end(headOnly ? undefined : text)
    return
  }
  response.writeHead(reply.status, {
    ...BASE_HEADERS,
    'Content-Length': reply.bytes.length,
    ...reply.headers,
  })
  response.end(headOnly ? undefined : reply.bytes)
}

export function sendError(
  response: ServerResponse,
  status: number,
  body: ErrorBody,
  headers: Record<string, string> = {},
): void {
  send(response, { kind: 'json', status, body, headers })
}

/** A body as read off the wire: absent (no bytes) or text with its declared content type. */
export type RawBody = { present: false } | { present: true; text: string; contentType: string }

/**
 * Reads the whole body up to MAX_BODY_BYTES. A larger body is refused as a validation
 * failure on the body itself (path []) before it is buffered.
 */
export async function readBody(request: IncomingMessage): Promise<RawBody> {
  const declared = Number(request.headers['content-length'] ?? '0')
  if (declared > MAX_BODY_BYTES) throw tooLarge()
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of request) {
    const buffer = chunk as Buffer
    length += buffer.length
    if (length > MAX_BODY_BYTES) throw tooLarge()
    chunks.push(buffer)
  }
  if (length === 0) return { present: false }
  return {
    present: true,
    text: Buffer.concat(chunks).toString('utf8'),
    contentType: request.headers['content-type'] ?? '',
  }
}

const TOO_LARGE_MESSAGE = `Request body exceeds ${MAX_BODY_BYTES} bytes`

function tooLarge() {
  return invalidField([], TOO_LARGE_MESSAGE)
}

/** Whether `error` is readBody's refusal of a body over MAX_BODY_BYTES. */
export function isBodyTooLarge(error: unknown): boolean {
  return (
    error instanceof ApiFailure &&
    validationIssuesOf(error.details).some((issue) => issue.message === TOO_LARGE_MESSAGE)
  )
}

/** application/json or any application/*+json, with parameters such as charset allowed. */
export function isJsonContentType(contentType: string): boolean {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType)
}

/** Parses a body as JSON, refusing a non-JSON content type or malformed text with a 400. */
export function parseJsonBody(body: RawBody & { present: true }): unknown {
  if (!isJsonContentType(body.contentType)) {
    const declared = body.contentType === '' ? 'none' : body.contentType
    throw invalidField([], `Content-Type must be application/json (got ${declared})`)
  }
  try {
    return JSON.parse(body.text) as unknown
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'unreadable'
    throw invalidField([], `Malformed JSON body: ${reason}`)
  }
}

/** Whether the Accept header asks for `mediaType` (listed with a non-zero quality). */
export function accepts(request: IncomingMessage, mediaType: string): boolean {
  const header = request.headers.accept
  if (!header) return false
  return header.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
    if (type !== mediaType) return false
    const quality = params.find((param) => param.startsWith('q='))
    return quality === undefined || Number(quality.slice(2)) > 0
  })
}

/** `attachment` with an ASCII fallback name and the exact name as RFC 5987 `filename*`. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
