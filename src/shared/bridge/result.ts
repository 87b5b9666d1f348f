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
