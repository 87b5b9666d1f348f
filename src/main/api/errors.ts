import type { BridgeError } from '../../shared/bridge'

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

  constructor(
    code: string,
    message: string,
    options: { status?: number; details?: unknown; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ServiceError'
    this.code = code
    if (options.status !== undefined) this.status = options.status
    if (options.details !== undefined) this.details = options.details
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
  if (!isServiceError(error)) return { code: 'INTERNAL_ERROR', message: GENERIC_MESSAGE }
  const bridgeError: BridgeError = { code: error.code, message: redact(error.message, secrets) }
  if (error.status !== undefined) bridgeError.status = error.status
  if (error.details !== undefined) bridgeError.details = redactDeep(error.details, secrets)
  return bridgeError
}

const REDACTED = '[redacted]'

/** Replaces every occurrence of each secret in `text`. Empty secrets are ignored. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text
  for (const secret of secrets) {
    if (secret.length > 0) result = result.split(secret).join(REDACTED)
  }
  return result
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
  const present = secrets.filter((secret) => secret.length > 0)
  const details = safeStringify(error.details)
  const clean = (text: string) => !present.some((secret) => text.includes(secret))
  if (details !== null && clean(error.message) && clean(details)) return error
  // The cause is dropped: its text is exactly what may have held the secret.
  return new ServiceError(error.code, redact(error.message, present), {
    status: error.status,
    details: redactDeep(error.details, present),
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
