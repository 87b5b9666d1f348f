import type { IncomingMessage } from 'node:http'
import type { OperationName } from '../shared/api'
import { validationIssuesOf } from '../shared/api'
import type { ApiFailure } from './failure'

/*
 * The `gateway` flavour's rules that cut across operations: how a caller is recognised, which
 * endpoints are for browser sessions only, how an error body reads, and the rate limit. Facts
 * read from the public source of a real deployment (wiolett-industries/gateway,
 * `packages/backend/src`: `modules/auth/auth.middleware.ts`, `middleware/error-handler.ts`,
 * `middleware/rate-limit.ts`); the code is ours.
 */

/** API tokens are `gw_…`; a bearer credential without the prefix is no credential at all. */
export const GATEWAY_TOKEN_PREFIX = 'gw_'
/** A browser session travels in this cookie (`gateway_session=<token>`), never as a bearer. */
export const GATEWAY_SESSION_COOKIE = 'gateway_session'

export type GatewayCredential =
  { kind: 'api-token'; token: string } | { kind: 'session'; token: string } | null

/** What the request presents: a bearer `gw_…` token first, then the session cookie. */
export function gatewayCredential(request: IncomingMessage): GatewayCredential {
  const header = request.headers.authorization
  const bearer = header === undefined ? null : (/^Bearer +(\S+) *$/.exec(header)?.[1] ?? null)
  if (bearer !== null && bearer.startsWith(GATEWAY_TOKEN_PREFIX)) {
    return { kind: 'api-token', token: bearer }
  }
  const cookies = request.headers.cookie ?? ''
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === GATEWAY_SESSION_COOKIE && value.length > 0) {
      return { kind: 'session', token: decodeURIComponent(value.join('=')) }
    }
  }
  return null
}

/**
 * Endpoints kept for browser sessions (the real service's `sessionOnly` middleware): an API
 * token that authenticates is answered 403 here, whatever its scopes.
 */
export const BROWSER_ONLY_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'listSessions',
  'logout',
  'listInferenceModels',
])

export const BROWSER_SESSION_REQUIRED = 'This endpoint requires browser session authentication.'

/** An error as the gateway flavour sends it: its own status, code, message and headers. */
export class GatewayFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'GatewayFailure'
  }

  get body(): { code: string; message: string; details?: unknown } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details }
  }
}

/** hono's HTTPException, as the real error handler sends it: `HTTP_ERROR`, no details. */
export function httpError(status: number, message: string): GatewayFailure {
  return new GatewayFailure(status, 'HTTP_ERROR', message)
}

/** The real service's not-found code and message for each kind of resource the sandbox names. */
const NOT_FOUND_BY_RESOURCE: Record<string, [code: string, message: string]> = {
  certificate: ['SSL_CERT_NOT_FOUND', 'SSL certificate not found'],
  pkiCertificate: ['CERT_NOT_FOUND', 'Certificate not found'],
  certificateFolder: ['FOLDER_NOT_FOUND', 'Folder not found'],
  userFolder: ['FOLDER_NOT_FOUND', 'Folder not found'],
  nginxTemplateFolder: ['FOLDER_NOT_FOUND', 'Folder not found'],
  loggingEnvironment: ['ENVIRONMENT_NOT_FOUND', 'Logging environment not found'],
  loggingSchema: ['SCHEMA_NOT_FOUND', 'Logging schema not found'],
  database: ['DATABASE_NOT_FOUND', 'Database not found'],
  copyJob: ['COPY_JOB_NOT_FOUND', 'Copy job not found'],
  migration: ['MIGRATION_NOT_FOUND', 'Migration not found'],
  proxyHost: ['PROXY_HOST_NOT_FOUND', 'Proxy host not found'],
  additionalRoute: ['ADDITIONAL_ROUTE_NOT_FOUND', 'Additional route not found'],
  node: ['NODE_NOT_FOUND', 'Node not found'],
  deployment: ['DEPLOYMENT_NOT_FOUND', 'Deployment not found'],
  volume: ['VOLUME_NOT_FOUND', 'Volume not found'],
  app: ['APP_NOT_FOUND', 'App not found'],
  incident: ['INCIDENT_NOT_FOUND', 'Incident not found'],
}

function detailsRecord(details: unknown): Record<string, unknown> {
  return typeof details === 'object' && details !== null && !Array.isArray(details)
    ? (details as Record<string, unknown>)
    : {}
}

/**
 * One of the sandbox's own refusals (ApiFailure, the seven codes) as the real service words it:
 * - 401/403 come from its auth middleware as `HTTP_ERROR` ("Missing required scope: …");
 * - validation `details[].path` is a dotted string (`items.0.sortOrder`), zod's `path.join('.')`;
 * - not-found codes are per resource (`SSL_CERT_NOT_FOUND`), without details;
 * - a conflict or an unprocessable request says why in its message.
 */
export function gatewayFailureOf(failure: ApiFailure): GatewayFailure {
  const details = detailsRecord(failure.details)
  switch (failure.code) {
    case 'UNAUTHORIZED':
      return httpError(401, 'Invalid or expired bearer token')
    case 'FORBIDDEN': {
      const permission = typeof details['permission'] === 'string' ? details['permission'] : ''
      return httpError(403, `Missing required scope: ${permission}`)
    }
    case 'VALIDATION_ERROR':
      return new GatewayFailure(
        failure.status === 416 ? 416 : 400,
        'VALIDATION_ERROR',
        'Request validation failed',
        validationIssuesOf(failure.details).map((issue) => ({
          path: issue.path.join('.'),
          message: issue.message,
        })),
      )
    case 'NOT_FOUND': {
      const resource = typeof details['resource'] === 'string' ? details['resource'] : ''
      const known = NOT_FOUND_BY_RESOURCE[resource]
      if (known) return new GatewayFailure(404, known[0], known[1])
      // A path no route has: hono's own 404, which is no JSON error of the service.
      return httpError(404, 'Not Found')
    }
    case 'CONFLICT':
      return new GatewayFailure(409, 'CONFLICT', reasonOf(failure.details, 'Resource conflict'))
    case 'UNPROCESSABLE_ENTITY':
      return new GatewayFailure(
        400,
        'BAD_REQUEST',
        reasonOf(failure.details, 'Request could not be processed'),
      )
    case 'INTERNAL_ERROR':
      return new GatewayFailure(500, 'INTERNAL_ERROR', 'An unexpected error occurred')
  }
}

/** The first human reason a sandbox refusal carries: `reason`, `message`, or a detail's. */
function reasonOf(details: unknown, fallback: string): string {
  const record = detailsRecord(details)
  for (const key of ['reason', 'message']) {
    if (typeof record[key] === 'string') return record[key]
  }
  const issue = validationIssuesOf(details)[0]
  return issue ? issue.message : fallback
}

/* ------------------------------------------------------------------ rate limit */

/**
 * The real service's limiter: a sliding window per client, `X-RateLimit-Limit/Remaining/Reset`
 * on every answer, and past the limit 429 `RATE_LIMIT_EXCEEDED` with `Retry-After` (seconds).
 * The sandbox's window is generous (tests make thousands of calls); `/__sandbox/rate-limit`
 * makes the next calls meet the limit on purpose.
 */
export interface RateLimiter {
  /** Counts one request, at the limiter's clock: its headers, or the 429 to send instead. */
  take(): { headers: Record<string, string>; refusal: GatewayFailure | null }
  /** The next `count` requests are refused, each told to come back in `retryAfterSeconds`. */
  refuseNext(count: number, retryAfterSeconds: number): void
  status(): { refusalsLeft: number; retryAfterSeconds: number }
  clear(): void
}

export const RATE_LIMIT_WINDOW_MS = 60_000
export const RATE_LIMIT_MAX_REQUESTS = 100_000

/**
 * `clock` (epoch ms) is the wall clock unless a test holds it still, so that no request it
 * counts leaves the window however long the test takes (`SandboxOptions.rateLimitClock`).
 */
export function createRateLimiter({
  maxRequests = RATE_LIMIT_MAX_REQUESTS,
  windowMs = RATE_LIMIT_WINDOW_MS,
  clock = Date.now,
}: { maxRequests?: number; windowMs?: number; clock?: () => number } = {}): RateLimiter {
  let stamps: number[] = []
  let refusalsLeft = 0
  let retryAfterSeconds = 1
  const refusal = (seconds: number, headers: Record<string, string>) =>
    new GatewayFailure(
      429,
      'RATE_LIMIT_EXCEEDED',
      'Too many requests, please try again later.',
      { retryAfterSeconds: seconds },
      { ...headers, 'Retry-After': String(seconds) },
    )
  return {
    take() {
      const now = clock()
      stamps = stamps.filter((stamp) => stamp > now - windowMs)
      const headers = {
        'X-RateLimit-Limit': String(maxRequests),
        'X-RateLimit-Remaining': String(Math.max(0, maxRequests - stamps.length - 1)),
        'X-RateLimit-Reset': String(Math.ceil((now + windowMs) / 1000)),
      }
      if (refusalsLeft > 0) {
        refusalsLeft -= 1
        return { headers, refusal: refusal(retryAfterSeconds, headers) }
      }
      if (stamps.length >= maxRequests) {
        const oldest = stamps[0] ?? now
        const seconds = Math.max(1, Math.ceil((oldest + windowMs - now) / 1000))
        return { headers, refusal: refusal(seconds, headers) }
      }
      stamps.push(now)
      return { headers, refusal: null }
    },
    refuseNext(count, seconds) {
      refusalsLeft = count
      retryAfterSeconds = seconds
    },
    status: () => ({ refusalsLeft, retryAfterSeconds }),
    clear() {
      stamps = []
      refusalsLeft = 0
      retryAfterSeconds = 1
    },
  }
}

/** `POST /__sandbox/rate-limit` `{count, retryAfterSeconds}`, checked. */
export function parseRateLimitRequest(text: string | null): {
  count: number
  retryAfterSeconds: number
} {
  let value: unknown
  try {
    value = JSON.parse(text ?? '{}')
  } catch {
    value = null
  }
  const record = detailsRecord(value)
  const count = record['count']
  const seconds = record['retryAfterSeconds'] ?? 1
  if (
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 0 ||
    count > 1000 ||
    typeof seconds !== 'number' ||
    !Number.isInteger(seconds) ||
    seconds < 0 ||
    seconds > 3600
  ) {
    throw new GatewayFailure(
      400,
      'VALIDATION_ERROR',
      'Expected {"count": 0..1000, "retryAfterSeconds": 0..3600}',
    )
  }
  return { count, retryAfterSeconds: seconds }
}
