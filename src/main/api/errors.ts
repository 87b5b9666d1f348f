import { APP_ERROR_CODES } from '../../shared/bridge'
import type { BridgeError } from '../../shared/bridge'
import { findSecrets, replaceRanges } from './redaction'

/**
 * An error the main process can explain: a service code (VALIDATION_ERROR, UNAUTHORIZED, ...)
 * or an app code (OFFLINE, TIMEOUT, ...). It crosses the bridge as a BridgeError with exactly
 * these fields, so its message must already be fit for a user and must never hold a token.
 */
export class ServiceError extends Error {
  readonly code: string
  /** The HTTP status when the error came from the service. */
  readonly status?: number
  readonly details?: unknown
  /**
   * The operation (src/shared/api/operations.ts) whose answer this is, when the service
   * answered: the renderer words the headline for that operation and code.
   */
  readonly operation?: string
  /** The code of the service's error body, when it sent one (HTTP_ERROR, SSL_CERT_NOT_FOUND…). */
  readonly serviceCode?: string

  constructor(
    code: string,
    message: string,
    options: {
      status?: number
      details?: unknown
      cause?: unknown
      operation?: string
      serviceCode?: string
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ServiceError'
    this.code = code
    if (options.status !== undefined) this.status = options.status
    if (options.details !== undefined) this.details = options.details
    if (options.operation !== undefined) this.operation = options.operation
    if (options.serviceCode !== undefined) this.serviceCode = options.serviceCode
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError
}

const GENERIC_MESSAGE =
  'Something went wrong inside Infradesk. Try again; if it persists, restart the app.'

/**
 * The bridge's view of any error. Only a ServiceError's fields cross; anything else (a bug, a
 * library's TypeError) becomes INTERNAL_ERROR with a generic message, because its text may
 * carry paths, headers or a token. `secrets` are cut out of whatever does cross.
 */
export function toBridgeError(error: unknown, secrets: readonly string[] = []): BridgeError {
  if (!isServiceError(error)) {
    return storageFailure(error) ?? { code: 'INTERNAL_ERROR', message: GENERIC_MESSAGE }
  }
  const bridgeError: BridgeError = { code: error.code, message: redact(error.message, secrets) }
  if (error.status !== undefined) bridgeError.status = error.status
  if (error.details !== undefined) bridgeError.details = redactDeep(error.details, secrets)
  if (error.operation !== undefined) bridgeError.operation = error.operation
  if (error.serviceCode !== undefined) bridgeError.serviceCode = redact(error.serviceCode, secrets)
  return bridgeError
}

/*
 * The app's own files (profiles.json, settings.json, the SQLite cache) live in its data folder. A
 * full or read-only disk under them is not a bug of ours: it gets a message the user can act on,
 * chosen by the error's code alone (its text holds paths), instead of "something went wrong".
 */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL'])
const NOT_WRITABLE_CODES = new Set([
  'EROFS',
  'EACCES',
  'EPERM',
  'SQLITE_READONLY',
  'SQLITE_CANTOPEN',
])

function storageFailure(error: unknown): BridgeError | null {
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  const family = code.startsWith('SQLITE_READONLY') ? 'SQLITE_READONLY' : code
  if (DISK_FULL_CODES.has(family) || code.startsWith('SQLITE_IOERR_WRITE')) {
    return {
      code: APP_ERROR_CODES.DISK_FULL,
      message:
        "The disk holding Infradesk's data folder is full, so this change was not saved " +
        '(what was saved before is intact). Free some space and try again.',
      details: { reason: code },
    }
  }
  if (NOT_WRITABLE_CODES.has(family)) {
    return {
      code: APP_ERROR_CODES.NOT_WRITABLE,
      message:
        'Infradesk may not write to its data folder (read-only or not its own), so this change ' +
        'was not saved (what was saved before is intact). Check the folder and its permissions.',
      details: { reason: code },
    }
  }
  return null
}

const REDACTED = '[redacted]'

/**
 * Cuts every secret out of `text`, in each form a service or a proxy may echo it (base64,
 * percent-encoded, truncated, in another case; see redaction.ts, which also says how a token
 * too short to be looked for inside words is handled). Empty secrets are ignored.
 */
export function redact(text: string, secrets: readonly string[]): string {
  return replaceRanges(text, findSecrets(text, secrets), REDACTED)
}

/** `redact` through strings inside arrays and plain objects (error details). */
export function redactDeep(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (secrets.every((secret) => secret.length === 0)) return value
  // Details are small; anything deeper is cut rather than walked (and cycles end here).
  if (depth > MAX_DETAIL_DEPTH) return REDACTED
  if (typeof value === 'string') return redact(value, secrets)
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets, depth + 1))
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        redact(key, secrets),
        redactDeep(item, secrets, depth + 1),
      ]),
    )
  }
  return value
}

const MAX_DETAIL_DEPTH = 20

/** A copy of `error` with every secret cut out of its message and details. */
export function redactError(error: ServiceError, secrets: readonly string[]): ServiceError {
  const message = redact(error.message, secrets)
  const details = redactDeep(error.details, secrets)
  const serviceCode =
    error.serviceCode === undefined ? undefined : redact(error.serviceCode, secrets)
  // Redacted string by string, never searched as JSON text (its escaping could hide a token);
  // when nothing was cut, the error is kept as it is, cause included.
  const original = safeStringify(error.details)
  if (
    message === error.message &&
    serviceCode === error.serviceCode &&
    original !== null &&
    original === safeStringify(details)
  ) {
    return error
  }
  // The cause is dropped: its text is exactly what may have held the secret.
  return new ServiceError(error.code, message, {
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(details === undefined ? {} : { details }),
    ...(error.operation === undefined ? {} : { operation: error.operation }),
    ...(serviceCode === undefined ? {} : { serviceCode }),
  })
}

/** JSON of `value`, or null when it cannot be serialised (then it is redacted field by field). */
function safeStringify(value: unknown): string | null {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return null
  }
}
