import { describe, expect, it } from 'vitest'
import {
  call,
  callOperation,
  GATEWAY_ARGS,
  sandboxForThisFile,
  UNKNOWN_UUID,
} from '../../support/sandbox-process'

/*
 * The gateway flavour's ways in and its errors (src/sandbox/gateway.ts): what a real deployment
 * answers an API token, a browser session, a missing scope, a bad field and a flood of calls.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS] })

describe('gateway flavour: credentials', () => {
  it('hands out API tokens with the gw_ prefix', () => {
    expect(sandbox.tokens.admin).toMatch(/^gw_/)
    expect(sandbox.tokens.viewer).toMatch(/^gw_/)
  })

  it('answers no credential and an unknown token with 401 HTTP_ERROR', async () => {
    const none = await callOperation(sandbox, 'getStatusPagePreview', { token: null })
    expect(none.status).toBe(401)
    expect(none.json).toEqual({ code: 'HTTP_ERROR', message: 'Authentication required' })
    const unknown = await callOperation(sandbox, 'getStatusPagePreview', { token: 'gw_nobody' })
    expect(unknown.status).toBe(401)
    expect(unknown.json).toEqual({ code: 'HTTP_ERROR', message: 'Invalid or expired bearer token' })
    // A bearer credential without the prefix is no credential at all.
    const bare = await callOperation(sandbox, 'getStatusPagePreview', { token: 'not-a-gw-token' })
    expect(bare.status).toBe(401)
  })

  it('keeps sessions, logout and the inference catalog for browser sessions: 403 to a token', async () => {
    for (const name of ['listSessions', 'logout', 'listInferenceModels'] as const) {
      const response = await callOperation(sandbox, name)
      expect(response.status, name).toBe(403)
      expect(response.json, name).toEqual({
        code: 'HTTP_ERROR',
        message: 'This endpoint requires browser session authentication.',
      })
    }
  })

  it('answers the same endpoints to a browser session (its cookie)', async () => {
    const response = await call(sandbox, {
      path: '/auth/me/sessions',
      token: null,
      headers: { cookie: `gateway_session=${sandbox.tokens.admin}` },
    })
    expect(response.status).toBe(200)
    expect(Array.isArray(response.json)).toBe(true)
  })

  it('names the missing scope in a 403 HTTP_ERROR', async () => {
    const response = await callOperation(sandbox, 'cancelCopyJob', {
      token: sandbox.tokens.viewer,
      params: { id: UNKNOWN_UUID },
    })
    expect(response.status).toBe(403)
    expect(response.json).toEqual({
      code: 'HTTP_ERROR',
      message: 'Missing required scope: storage:copy-jobs:edit',
    })
  })
})

describe('gateway flavour: errors', () => {
  it('gives validation paths as dotted strings', async () => {
    const response = await callOperation(sandbox, 'reorderNginxTemplateFolders', {
      body: { items: [{ id: UNKNOWN_UUID, sortOrder: 'first' }] },
    })
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Request validation failed',
      details: [{ path: 'items.0.sortOrder', message: expect.any(String) }],
    })
  })

  it('refuses a certificate page larger than 100, naming `limit`', async () => {
    const response = await callOperation(sandbox, 'listCertificates', { query: { limit: '500' } })
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({ details: [{ path: 'limit' }] })
  })

  it('names the kind of resource that was not found in the code', async () => {
    const response = await callOperation(sandbox, 'cancelCopyJob', { params: { id: UNKNOWN_UUID } })
    expect(response.status).toBe(404)
    expect(response.json).toEqual({ code: 'COPY_JOB_NOT_FOUND', message: 'Copy job not found' })
  })
})

describe('gateway flavour: rate limit', () => {
  it('sends X-RateLimit-* on every answer, and 429 with Retry-After past the limit', async () => {
    const fine = await callOperation(sandbox, 'getStatusPagePreview')
    expect(fine.status).toBe(200)
    expect(Number(fine.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0)
    expect(fine.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/)
    expect(fine.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/)

    const armed = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/rate-limit',
      body: { count: 2, retryAfterSeconds: 3 },
    })
    expect(armed.status).toBe(200)
    for (let index = 0; index < 2; index++) {
      const refused = await callOperation(sandbox, 'getStatusPagePreview')
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('3')
      expect(refused.json).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
    }
    expect((await callOperation(sandbox, 'getStatusPagePreview')).status).toBe(200)
  })
})
