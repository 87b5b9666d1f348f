import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from '../api/errors'
import { findErrorCode, networkReason, toNetworkError } from '../api/network'
import type { AbortContext } from '../api/network'
import { describeServerChain, UNKNOWN_ISSUER_CODES } from './peer'
import { ProxySettingError } from './proxy'
import type { ProxyAddress } from './proxy'
import { ProxyRefusedError } from './tunnel'

/*
 * Transport failures in words that name the right party: a proxy's refusal or absence as the
 * proxy's (not the service's), and a certificate from an unknown issuer with what the server
 * presented (subject, issuer, SHA-256) and, when it sent its CA, that CA to trust.
 */

interface RouteFacts {
  proxy: ProxyAddress | null
  proxyAuthorization: string | null
}

/**
 * undici's ProxyAgent reports a refusal only in its message: a refused CONNECT, or a 407 to an
 * absolute-form request.
 */
const UNDICI_PROXY_REFUSALS = [
  /Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/,
  /^Proxy Authentication Required \((407)\)$/,
]

/** Codes of a failed connection attempt: with a proxy, the only connection made is to it. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NODATA',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** The ServiceError for a refusal by the route's proxy (a CONNECT or a 407 answer). */
export function proxyRefusal(refusal: ProxyRefusedError): ServiceError {
  // No `status`: that would say the service answered (it was never reached).
  return new ServiceError(APP_ERROR_CODES.OFFLINE, refusal.message, {
    cause: refusal,
    details: { reason: 'PROXY_REFUSED', proxy: refusal.proxy, proxyStatus: refusal.status },
  })
}

/** What went wrong reaching `url` over `route`, as a ServiceError (async: see explainTls). */
export async function transportError(
  error: unknown,
  url: URL,
  route: RouteFacts | null,
  context: AbortContext,
): Promise<ServiceError> {
  if (error instanceof ServiceError) return error
  if (error instanceof ProxySettingError) {
    return new ServiceError(APP_ERROR_CODES.BAD_URL, error.message, { cause: error })
  }
  const proxy = route?.proxy ?? null
  const refusal = proxy === null ? null : refusalOf(error, proxy)
  if (refusal !== null && !context.caller?.aborted) return proxyRefusal(refusal)
  const code = findErrorCode(error)
  const aborted = context.caller?.aborted === true || context.timeout?.aborted === true
  if (proxy !== null && code !== undefined && CONNECT_CODES.has(code) && !aborted) {
    return new ServiceError(
      APP_ERROR_CODES.OFFLINE,
      `Could not connect to the proxy at ${proxy.origin} (${networkReason(code) ?? code})`,
      { cause: error, details: { reason: code, proxy: proxy.origin } },
    )
  }
  const mapped = toNetworkError(error, url, context)
  if (code !== undefined && UNKNOWN_ISSUER_CODES.has(code) && route !== null) {
    return explainUnknownIssuer(mapped, code, url, route)
  }
  return mapped
}

function refusalOf(error: unknown, proxy: ProxyAddress): ProxyRefusedError | null {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 6; depth += 1) {
    if (current instanceof ProxyRefusedError) return current
    for (const pattern of UNDICI_PROXY_REFUSALS) {
      const match = pattern.exec(current.message)
      if (match) return new ProxyRefusedError(proxy.origin, Number(match[1]))
    }
    current = current.cause
  }
  return null
}

/**
 * The TLS error with the server's certificate named, read over a second connection. When that
 * read fails too, the first error stands as it was.
 */
async function explainUnknownIssuer(
  error: ServiceError,
  code: string,
  url: URL,
  route: RouteFacts,
): Promise<ServiceError> {
  let chain
  try {
    chain = await describeServerChain(url, route)
  } catch {
    return error
  }
  const { certificate, ca } = chain
  const offer =
    ca === null
      ? ' The server does not send its CA certificate: add the CA\u2019s PEM file to this profile to trust it.'
      : ` Its CA is \u201c${ca.subject}\u201d (SHA-256 ${ca.fingerprint256}), which you may trust for this profile.`
  return new ServiceError(
    error.code,
    `${error.message}. The server\u2019s certificate: \u201c${certificate.subject}\u201d, issued by ` +
      `\u201c${certificate.issuer}\u201d, SHA-256 ${certificate.fingerprint256}.${offer}`,
    { cause: error, details: { reason: code, certificate, ca } },
  )
}

/** A proxy that wants a login (407) or forbids the target (403) says the same on a retry. */
export function isPermanentProxyRefusal(error: ServiceError): boolean {
  const details = error.details as { reason?: unknown; proxyStatus?: unknown } | undefined
  return (
    details?.reason === 'PROXY_REFUSED' &&
    (details.proxyStatus === 407 || details.proxyStatus === 403)
  )
}
