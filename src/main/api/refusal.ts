import { codeForStatus, isServiceErrorCode, validationIssuesOf } from '../../shared/api'
import type { ErrorBody, OperationName } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'

/*
 * One error model for any service: what a non-2xx answer that the service itself sent (a JSON
 * error body, or none) means to the app. The HTTP status decides first, the body's code refines
 * it, and the service's own code and message are kept for display:
 *   401 the credential does not authenticate (whatever the code: a real deployment says
 *       HTTP_ERROR), 403 it authenticates but may not do this (a missing scope, or an endpoint
 *       kept for browser sessions), 429 the rate limit, 408 the service's own time budget,
 *   499 the service cancelled it, 413 too large; otherwise the spec's seven codes when the body
 *   names one, else the status's (per-resource codes such as SSL_CERT_NOT_FOUND are 404s).
 */

export interface Refusal {
  code: string
  message: string
  details?: unknown
  /** The code of the service's error body, when the answer had one (absent: a proxy's page). */
  serviceCode?: string
}

/**
 * What a real deployment's codes beyond the spec's seven mean, in words (docs/SERVICE.md).
 * Shown before the service's own text, which is terse ("Interactive query budget exhausted").
 */
const SERVICE_CODE_WORDS: Record<string, string> = {
  RATE_LIMIT_EXCEEDED: "The service's rate limit was reached",
  RATE_LIMIT_UNAVAILABLE:
    'The service cannot check its rate limit right now, so it refuses requests; try again shortly',
  PAYLOAD_TOO_LARGE: 'The request is larger than the service accepts',
  DATABASE_QUERY_BUDGET_EXCEEDED:
    "The statement ran past the service's time budget for interactive queries and was stopped",
  DATABASE_QUERY_CANCELLED: 'The service cancelled the statement before it finished',
  POSTGRES_STATEMENT_LIMIT_EXCEEDED:
    'The request holds more statements than the service runs in one request',
}

/** Words for a status whose code the app does not know, when the body says nothing better. */
const STATUS_WORDS: Record<number, string> = {
  408: 'The service stopped the request: it ran past its time budget (a query budget or request timeout). Try again, or ask for less',
  413: 'The request is larger than the service accepts',
  499: 'The service cancelled the request before it finished. Try again',
}

/**
 * What an API token cannot do on a service that keeps these for browser sessions (its web
 * console), said per operation so each screen and the CLI can show it as it is.
 */
const BROWSER_ONLY_WORDS: Partial<Record<OperationName, string>> = {
  listSessions:
    'This service keeps browser sessions for the web console: an API token cannot list or end them.',
  logout:
    'This service keeps browser sessions for the web console: an API token cannot list or end them.',
  listInferenceModels:
    'This service shows its inference catalog to browser sessions only (the web console): an API token cannot read it.',
}
const BROWSER_ONLY_DEFAULT =
  'This service keeps this for browser sessions (the web console): an API token cannot use it.'

/** The wording of a BROWSER_SESSION_ONLY refusal for an operation, without the service's text. */
export function browserOnlyWords(operation: OperationName | undefined): string {
  return (
    (operation === undefined ? undefined : BROWSER_ONLY_WORDS[operation]) ?? BROWSER_ONLY_DEFAULT
  )
}

/**
 * A 403 that is about the kind of credential, not about its scopes: a real deployment's
 * `sessionOnly` rule ("This endpoint requires browser session authentication.", and
 * BROWSER_SESSION_REQUIRED on some routes).
 */
function isBrowserSessionRefusal(body: ErrorBody | null): boolean {
  if (body === null) return false
  return body.code === 'BROWSER_SESSION_REQUIRED' || /browser session/i.test(body.message)
}

/** `(HTTP 403 HTTP_ERROR: This endpoint requires …)`: the service's own words, kept. */
function serviceSaid(status: number, body: ErrorBody): string {
  return `(HTTP ${status} ${body.code}: ${body.message})`
}

/**
 * The app's reading of a refusal. `body` is the parsed error body, or null when the answer had
 * none (a proxy's page); `origin` names the service for messages; `retryAt` is when a 429 says
 * to come back (from Retry-After), if it said.
 */
export function refusalOf(
  status: number,
  body: ErrorBody | null,
  options: { origin: string; operation?: OperationName; retryAt?: Date | null; now?: Date },
): Refusal {
  const code = appCodeFor(status, body)
  const kept = (refusal: Refusal): Refusal =>
    body === null ? refusal : { ...refusal, serviceCode: body.code }
  const details = body === null ? undefined : normalisedDetails(body.details)
  const withDetails = (refusal: Refusal): Refusal =>
    details === undefined ? refusal : { ...refusal, details }

  if (code === APP_ERROR_CODES.BROWSER_SESSION_ONLY && body !== null) {
    const words = browserOnlyWords(options.operation)
    return kept(withDetails({ code, message: `${words} ${serviceSaid(status, body)}` }))
  }
  if (code === APP_ERROR_CODES.RATE_LIMITED) {
    const when = retryWords(options.retryAt ?? null, options.now ?? new Date())
    const words = `${SERVICE_CODE_WORDS['RATE_LIMIT_EXCEEDED'] ?? ''}: ${when}.`
    return kept(
      withDetails({
        code,
        message:
          body === null ? `${words} (HTTP ${status})` : `${words} ${serviceSaid(status, body)}`,
      }),
    )
  }
  if (body === null) {
    return { code, message: `${options.origin} answered HTTP ${status}${bareStatusWords(status)}` }
  }
  const words =
    SERVICE_CODE_WORDS[body.code] ?? (body.code === code ? undefined : STATUS_WORDS[status])
  if (words !== undefined) {
    return kept(withDetails({ code, message: `${words}. ${serviceSaid(status, body)}` }))
  }
  // The service's message is already for people; an unknown code is named beside it.
  const message =
    body.code === code ? body.message : `${body.message} (HTTP ${status}, ${body.code})`
  return kept(withDetails({ code, message }))
}

/** Status first; the body's code refines it where the status leaves room. */
function appCodeFor(status: number, body: ErrorBody | null): string {
  // A real deployment's auth middleware answers 401 before any route rule runs, so a 401 is
  // always "this credential does not authenticate" and a 403 always "it authenticated".
  if (status === 401) return 'UNAUTHORIZED'
  if (status === 403) {
    return isBrowserSessionRefusal(body) ? APP_ERROR_CODES.BROWSER_SESSION_ONLY : 'FORBIDDEN'
  }
  if (status === 429) return APP_ERROR_CODES.RATE_LIMITED
  if (body !== null && isServiceErrorCode(body.code)) return body.code
  if (status === 408) return APP_ERROR_CODES.SERVICE_TIMEOUT
  if (status === 499) return APP_ERROR_CODES.SERVICE_CANCELLED
  if (status === 413) return APP_ERROR_CODES.PAYLOAD_TOO_LARGE
  return codeForStatus(status)
}

/**
 * Validation details read once, paths as arrays (a dotted `items.0.sortOrder` becomes
 * `['items','0','sortOrder']`), every other field kept; details of any other shape pass as sent.
 */
function normalisedDetails(details: unknown): unknown {
  if (!Array.isArray(details) || details.length === 0) return details
  const issues = validationIssuesOf(details)
  return issues.length === details.length ? issues : details
}

/** "try again in 42 s (at 21:14:03 UTC)", or what is known when the service did not say. */
export function retryWords(retryAt: Date | null, now: Date): string {
  if (retryAt === null) return 'try again in a little while'
  const seconds = Math.max(0, Math.ceil((retryAt.getTime() - now.getTime()) / 1000))
  return `try again in ${seconds} s (at ${retryAt.toISOString().slice(11, 19)} UTC)`
}

/** What a bare 502/503/504 (no service error body: a proxy's page) means, for the message. */
const GATEWAY_FAILURES: Record<number, string> = {
  502: ' (Bad Gateway: a proxy in front of the service got no usable answer from it)',
  503: ' (Service Unavailable: the service is down or overloaded; try again shortly)',
  504: ' (Gateway Timeout: a proxy in front of the service gave up waiting for it)',
}

function bareStatusWords(status: number): string {
  const gateway = GATEWAY_FAILURES[status]
  if (gateway !== undefined) return gateway
  const words = STATUS_WORDS[status]
  return words === undefined ? '' : ` (${words})`
}
