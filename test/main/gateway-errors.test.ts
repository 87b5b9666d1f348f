import { describe, expect, it } from 'vitest'
import { refusalOf } from '../../src/main/api/refusal'
import { nextWaitMs, retryAtOf } from '../../src/main/api/retry-after'
import { validationIssuesOf } from '../../src/shared/api'

/*
 * One error model for any service (src/main/api/refusal.ts): the HTTP status first, the body's
 * code refining it, the service's own code and message kept; validation paths read either way;
 * Retry-After read as seconds or an HTTP date, within a budget.
 */

const origin = 'https://ims.example.com'
const now = new Date('2026-12-01T22:00:00.000Z')

describe('status first, then code', () => {
  it.each([
    {
      why: '401 is "does not authenticate", whatever the code',
      status: 401,
      body: { code: 'HTTP_ERROR', message: 'Invalid or expired bearer token' },
      refusal: {
        code: 'UNAUTHORIZED',
        message: 'Invalid or expired bearer token (HTTP 401, HTTP_ERROR)',
        serviceCode: 'HTTP_ERROR',
      },
    },
    {
      why: 'per-resource not-found codes are NOT_FOUND, the service code kept',
      status: 404,
      body: { code: 'SSL_CERT_NOT_FOUND', message: 'SSL certificate not found' },
      refusal: {
        code: 'NOT_FOUND',
        message: 'SSL certificate not found (HTTP 404, SSL_CERT_NOT_FOUND)',
        serviceCode: 'SSL_CERT_NOT_FOUND',
      },
    },
    {
      why: 'a spec code the body names still decides where the status leaves room',
      status: 418,
      body: { code: 'NOT_FOUND', message: 'Resource not found' },
      refusal: { code: 'NOT_FOUND', message: 'Resource not found', serviceCode: 'NOT_FOUND' },
    },
  ])('$why', ({ status, body, refusal }) => {
    expect(refusalOf(status, body, { origin })).toEqual(refusal)
  })

  it.each([
    [401, 'FORBIDDEN', 'UNAUTHORIZED'],
    [403, 'UNAUTHORIZED', 'FORBIDDEN'],
    [403, 'HTTP_ERROR', 'FORBIDDEN'],
    [403, 'BROWSER_SESSION_REQUIRED', 'BROWSER_SESSION_ONLY'],
    [413, 'PAYLOAD_TOO_LARGE', 'PAYLOAD_TOO_LARGE'],
  ])('%i with the body code %s is %s', (status, serviceCode, code) => {
    expect(refusalOf(status, { code: serviceCode, message: 'no' }, { origin }).code).toBe(code)
  })

  it('a 403 for browser sessions only is BROWSER_SESSION_ONLY, worded per operation', () => {
    const body = {
      code: 'HTTP_ERROR',
      message: 'This endpoint requires browser session authentication.',
    }
    const sessions = refusalOf(403, body, { origin, operation: 'listSessions' })
    expect(sessions).toEqual({
      code: 'BROWSER_SESSION_ONLY',
      message:
        'This service keeps browser sessions for the web console: an API token cannot list or end them. ' +
        '(HTTP 403 HTTP_ERROR: This endpoint requires browser session authentication.)',
      serviceCode: 'HTTP_ERROR',
    })
  })

  it.each([
    {
      status: 403,
      serviceCode: 'HTTP_ERROR',
      message: 'Missing required scope: ssl:cert:list',
      code: 'FORBIDDEN',
      says: /Missing required scope/,
    },
    {
      status: 408,
      serviceCode: 'DATABASE_QUERY_BUDGET_EXCEEDED',
      message: 'Interactive query budget exhausted',
      code: 'SERVICE_TIMEOUT',
      says: /ran past the service's time budget/,
    },
    {
      status: 499,
      serviceCode: 'DATABASE_QUERY_CANCELLED',
      message: 'Interactive query cancelled',
      code: 'SERVICE_CANCELLED',
      says: /cancelled the statement/,
    },
  ])("$status $serviceCode is $code, in words of its own and the service's", (refused) => {
    const refusal = refusalOf(
      refused.status,
      { code: refused.serviceCode, message: refused.message },
      { origin },
    )
    expect(refusal.code).toBe(refused.code)
    expect(refusal.message).toMatch(refused.says)
    expect(refusal.message).toContain(refused.message)
  })

  it('408 without a body and 429 have words of their own', () => {
    expect(refusalOf(408, null, { origin }).message).toMatch(/time budget/)
    const limited = refusalOf(
      429,
      {
        code: 'RATE_LIMIT_EXCEEDED',
        message: 'Too many requests',
        details: { retryAfterSeconds: 30 },
      },
      { origin, now, retryAt: new Date(now.getTime() + 30_000) },
    )
    expect(limited).toMatchObject({
      code: 'RATE_LIMITED',
      serviceCode: 'RATE_LIMIT_EXCEEDED',
      details: { retryAfterSeconds: 30 },
    })
    expect(limited.message).toContain('try again in 30 s (at 22:00:30 UTC)')
  })

  it("no service body at all: no service code (a proxy's page)", () => {
    expect(refusalOf(502, null, { origin }).serviceCode).toBeUndefined()
  })

  it('validation details with dotted paths are read as arrays, other fields kept', () => {
    const refusal = refusalOf(
      400,
      {
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [{ path: 'items.0.sortOrder', message: 'Expected integer', code: 'invalid_type' }],
      },
      { origin },
    )
    expect(refusal.details).toEqual([
      { path: ['items', '0', 'sortOrder'], message: 'Expected integer', code: 'invalid_type' },
    ])
  })
})

describe('validationIssuesOf', () => {
  it('reads a path as an array, numeric indexes, a dotted string, or the empty string', () => {
    expect(
      validationIssuesOf([
        { path: ['items', '0', 'sortOrder'], message: 'a' },
        { path: ['items', 1, 'id'], message: 'b' },
        { path: 'items.2.id', message: 'c' },
        { path: '', message: 'd' },
      ]),
    ).toEqual([
      { path: ['items', '0', 'sortOrder'], message: 'a' },
      { path: ['items', '1', 'id'], message: 'b' },
      { path: ['items', '2', 'id'], message: 'c' },
      { path: [], message: 'd' },
    ])
  })
})

describe('Retry-After', () => {
  it('reads seconds and HTTP dates; anything else is unknown', () => {
    expect(retryAtOf('5', now)).toEqual(new Date('2026-12-01T22:00:05.000Z'))
    expect(retryAtOf('Tue, 01 Dec 2026 22:00:42 GMT', now)).toEqual(
      new Date('2026-12-01T22:00:42.000Z'),
    )
    // A date already past means now.
    expect(retryAtOf('Tue, 01 Dec 2026 21:00:00 GMT', now)).toEqual(now)
    expect(retryAtOf('soon', now)).toBeNull()
    expect(retryAtOf(null, now)).toBeNull()
  })

  it('waits at most 3 times and 60 s in all', () => {
    const in20s = new Date(now.getTime() + 20_000)
    expect(nextWaitMs(in20s, now, { waits: 0, waitedMs: 0 }, 0)).toBe(20_000)
    expect(nextWaitMs(in20s, now, { waits: 2, waitedMs: 40_000 }, 0)).toBe(20_000)
    expect(nextWaitMs(in20s, now, { waits: 2, waitedMs: 40_001 }, 0)).toBeNull()
    expect(nextWaitMs(in20s, now, { waits: 3, waitedMs: 0 }, 0)).toBeNull()
    expect(
      nextWaitMs(new Date(now.getTime() + 61_000), now, { waits: 0, waitedMs: 0 }, 0),
    ).toBeNull()
  })
})
