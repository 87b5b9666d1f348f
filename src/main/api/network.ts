import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from './errors'
import { IDLE_TIMEOUT_CODE } from './raw-http'

/*
 * Turns what Node's fetch (undici) throws into an app error that says exactly what failed.
 * undici wraps the real reason: `TypeError('fetch failed', { cause })`, where the cause is a
 * system error (ECONNREFUSED...), an AggregateError of them (one per address tried), a TLS
 * verification error (DEPTH_ZERO_SELF_SIGNED_CERT...) or one of undici's own (UND_ERR_*).
 */

/** Connection failures: the service could not be reached at all. */
const OFFLINE_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'the host name could not be resolved right now',
  EAI_FAIL: 'the host name could not be resolved',
  EAI_NODATA: 'the host name has no address',
  EAI_NONAME: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  EHOSTDOWN: 'host is down',
  ENETUNREACH: 'network unreachable',
  ENETDOWN: 'network is down',
  EADDRNOTAVAIL: 'address not available',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'the connection was closed by the other side',
  UND_ERR_CLOSED: 'the connection was closed',
  ERR_HTTP_MALFORMED: 'the answer is not valid HTTP/1.1',
  ERR_HTTP_INCOMPLETE: 'the connection closed before the end of the answer',
}

/** TLS failures: something answered, but not with a certificate (or protocol) we trust. */
const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'the certificate cannot be verified',
  UNABLE_TO_GET_ISSUER_CERT: 'the issuer certificate is unknown',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'the issuer certificate is not trusted on this computer',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not yet valid',
  CERT_REVOKED: 'the certificate has been revoked',
  CERT_UNTRUSTED: 'the certificate is not trusted',
  CERT_REJECTED: 'the certificate was rejected',
  CERT_SIGNATURE_FAILURE: 'the certificate signature is invalid',
  INVALID_CA: 'invalid certificate authority',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not match the host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'the server does not speak TLS on this port',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'the server does not speak TLS on this port',
}

/** A connection failure's code in words ('connection reset'), or null for a code we do not know. */
export function networkReason(code: string): string | null {
  return OFFLINE_REASONS[code] ?? null
}

function isTlsCode(code: string): boolean {
  return (
    code in TLS_REASONS ||
    code.startsWith('CERT_') ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_')
  )
}

/** `https://host:443`: the origin with its port spelled out, as users compare it with config. */
export function describeOrigin(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  return `${url.protocol}//${url.hostname}:${port}`
}

/** The first `code` found along an error's cause chain (and inside AggregateErrors). */
export function findErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 8 || error === null || typeof error !== 'object') return undefined
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' && code !== '') return code
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = findErrorCode(inner, depth + 1)
      if (found) return found
    }
  }
  return findErrorCode((error as { cause?: unknown }).cause, depth + 1)
}

export interface AbortContext {
  /** The per-attempt timeout signal: aborted means TIMEOUT. */
  timeout?: AbortSignal
  timeoutMs?: number
  /** The caller's signal: aborted means CANCELLED. */
  caller?: AbortSignal
}

/**
 * The app error for a failed exchange with `url`. Which signal fired decides between
 * TIMEOUT and CANCELLED (the thrown DOMException alone does not say whose it was).
 */
export function toNetworkError(error: unknown, url: URL, context: AbortContext = {}): ServiceError {
  if (error instanceof ServiceError) return error
  const origin = describeOrigin(url)
  if (context.timeout?.aborted && !context.caller?.aborted) {
    const seconds = (context.timeoutMs ?? 0) / 1000
    return new ServiceError(
      APP_ERROR_CODES.TIMEOUT,
      `No answer from ${origin} within ${formatSeconds(seconds)}`,
      { cause: error },
    )
  }
  if (context.caller?.aborted) {
    return new ServiceError(APP_ERROR_CODES.CANCELLED, 'The request was cancelled', {
      cause: error,
    })
  }
  const code = findErrorCode(error)
  if (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === IDLE_TIMEOUT_CODE
  ) {
    return new ServiceError(APP_ERROR_CODES.TIMEOUT, `No answer from ${origin} in time`, {
      cause: error,
    })
  }
  if (code !== undefined && isTlsCode(code)) {
    const reason = TLS_REASONS[code] ?? code
    return new ServiceError(
      APP_ERROR_CODES.TLS_ERROR,
      `Could not connect securely to ${origin} (${reason})`,
      { cause: error, details: { reason: code } },
    )
  }
  if (code === 'ERR_INVALID_URL') {
    return new ServiceError(APP_ERROR_CODES.BAD_URL, `${origin} is not a usable address`, {
      cause: error,
    })
  }
  const reason = (code && OFFLINE_REASONS[code]) ?? (code ? code : 'network error')
  return new ServiceError(APP_ERROR_CODES.OFFLINE, `Could not connect to ${origin} (${reason})`, {
    cause: error,
    details: code ? { reason: code } : undefined,
  })
}

/** A wait for a message: `60 s`, or `1500 ms` when it is not whole seconds. */
export function formatWait(ms: number): string {
  return formatSeconds(ms / 1000)
}

function formatSeconds(seconds: number): string {
  if (seconds >= 1 && Number.isInteger(seconds)) return `${seconds} s`
  return `${Math.round(seconds * 1000)} ms`
}
