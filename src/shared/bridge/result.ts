import { z } from 'zod'

/*
 * Every bridge call answers with a Result, never a thrown Error: ipcMain.handle keeps only an
 * Error's message, and a Result carries the code, status and details the renderer needs.
 */

/** Codes the app itself raises, beside the service's seven (src/shared/api/errors.ts). */
export const APP_ERROR_CODES = {
  /** The service could not be reached (connection refused, DNS, network down). */
  OFFLINE: 'OFFLINE',
  TIMEOUT: 'TIMEOUT',
  /** The TLS handshake failed (untrusted, expired or mismatched certificate). */
  TLS_ERROR: 'TLS_ERROR',
  BAD_URL: 'BAD_URL',
  /** The service answered with something that is not the documented shape. */
  BAD_RESPONSE: 'BAD_RESPONSE',
  /** The profile has no token (signed out): the user must sign in again. */
  NOT_SIGNED_IN: 'NOT_SIGNED_IN',
  KEYCHAIN_UNAVAILABLE: 'KEYCHAIN_UNAVAILABLE',
  CANCELLED: 'CANCELLED',
  /** A file could not be written: the folder is missing, read-only or not ours to write. */
  NOT_WRITABLE: 'NOT_WRITABLE',
  /** The disk (or the user's quota) is full. */
  DISK_FULL: 'DISK_FULL',
  /** The target file exists and the write was told not to replace it. */
  FILE_EXISTS: 'FILE_EXISTS',
  /** A downloaded file's size or SHA-256 differs from what the service announced. */
  INTEGRITY_ERROR: 'INTEGRITY_ERROR',
  /** The bridge call named no known channel. */
  UNKNOWN_CHANNEL: 'UNKNOWN_CHANNEL',
  /**
   * The service keeps this endpoint for browser sessions (its web console) and refused the
   * profile's API token here (a real deployment's 403 "This endpoint requires browser session
   * authentication."). Not a bad token and not a missing scope: a plain limit of API tokens.
   */
  BROWSER_SESSION_ONLY: 'BROWSER_SESSION_ONLY',
  /** The service's rate limit (429, or a read still refused after the waits it allowed). */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The service stopped the request itself (408: its query budget or request timeout). */
  SERVICE_TIMEOUT: 'SERVICE_TIMEOUT',
  /** The service cancelled the request before it finished (499). */
  SERVICE_CANCELLED: 'SERVICE_CANCELLED',
  /** The request is larger than the service accepts (413). */
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
} as const
export type AppErrorCode = keyof typeof APP_ERROR_CODES

export const bridgeErrorSchema = z.lazy(() =>
  z.object({
    /** A service code (VALIDATION_ERROR, UNAUTHORIZED, ...) or an app code (OFFLINE, ...). */
    code: z.string(),
    message: z.string(),
    /** The HTTP status when the error came from the service. */
    status: z.number().optional(),
    details: z.unknown().optional(),
    /**
     * The service operation that answered with this error (an OperationName), when it was the
     * service's answer: the screens word the headline for that operation and code.
     */
    operation: z.string().optional(),
    /**
     * The code of the service's own error body (`HTTP_ERROR`, `SSL_CERT_NOT_FOUND`, ...), when it
     * sent one: `code` says what the answer means to the app (status first), this is kept for
     * display. Absent when no service error body came (a proxy's page, an app-side failure).
     */
    serviceCode: z.string().optional(),
  }),
)
export type BridgeError = z.infer<typeof bridgeErrorSchema>

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError }

export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

export function fail(error: BridgeError): Result<never> {
  return { ok: false, error }
}

export const resultSchema = z.lazy(() =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value: z.unknown() }),
    z.object({ ok: z.literal(false), error: bridgeErrorSchema }),
  ]),
)
