import { describe, expect, it } from 'vitest'
import { AUTH_METHODS } from '../../../src/shared/api'
import { callOperation, PERSONALITIES, sandboxForThisFile } from '../../support/sandbox-process'
import { expectError, expectSuccess, expectValidationError } from '../../support/answers'
import { parseTimestamp } from '../../../src/shared/time'

/* Operations 1 (list sessions) and 2 (log out), and what a logout does to a token. */

const sandbox = sandboxForThisFile({ resetBeforeEach: true })

describe('op 1: GET /auth/me/sessions', () => {
  it('is a bare array of sessions, several per token, exactly one of them current', async () => {
    for (const token of [sandbox.tokens.admin, sandbox.tokens.viewer]) {
      const sessions = expectSuccess(
        'listSessions',
        await callOperation(sandbox, 'listSessions', { token }),
      )
      expect(sessions.length).toBeGreaterThanOrEqual(2)
      expect(sessions.filter((session) => session.isCurrent)).toHaveLength(1)
      expect(new Set(sessions.map((session) => session.id)).size).toBe(sessions.length)
    }
  })

  it("lists the caller's own sessions: the admin's and the viewer's are different", async () => {
    const admin = expectSuccess('listSessions', await callOperation(sandbox, 'listSessions'))
    const viewer = expectSuccess(
      'listSessions',
      await callOperation(sandbox, 'listSessions', { token: sandbox.tokens.viewer }),
    )
    const adminIds = new Set(admin.map((session) => session.id))
    expect(viewer.some((session) => adminIds.has(session.id))).toBe(false)
  })

  it('refuses a query parameter the contract does not know, naming it', async () => {
    const response = await callOperation(sandbox, 'listSessions', { query: { page: '2' } })
    expectValidationError(response, ['page'])
  })
})

describe('op 2: POST /auth/logout', () => {
  it('answers the logout response and ends the session: the token then gets 401', async () => {
    const response = await callOperation(sandbox, 'logout')
    const body = expectSuccess('logout', response)
    expect(body.message.length).toBeGreaterThan(0)
    // The spec makes logoutUrl optional; this sandbox always names an identity provider's page.
    expect(body.logoutUrl).toEqual(expect.any(String))
    expect(() => new URL(body.logoutUrl as string)).not.toThrow()

    expectError(await callOperation(sandbox, 'listSessions'), 'UNAUTHORIZED')
    expectError(await callOperation(sandbox, 'logout'), 'UNAUTHORIZED')
  })

  it("ends only the caller's session: the other token keeps working", async () => {
    expectSuccess(
      'logout',
      await callOperation(sandbox, 'logout', { token: sandbox.tokens.viewer }),
    )
    expectError(
      await callOperation(sandbox, 'listSessions', { token: sandbox.tokens.viewer }),
      'UNAUTHORIZED',
    )
    expectSuccess('listSessions', await callOperation(sandbox, 'listSessions'))
  })

  it('POST /__sandbox/reset brings the logged-out token back', async () => {
    expectSuccess('logout', await callOperation(sandbox, 'logout'))
    expectError(await callOperation(sandbox, 'listSessions'), 'UNAUTHORIZED')
    // The test endpoints answer the configured admin token even after its session ended:
    // otherwise nothing could restore the seed.
    await sandbox.reset()
    expectSuccess('listSessions', await callOperation(sandbox, 'listSessions'))
  })
})

describe.each(PERSONALITIES)('op 1: session timestamps ($personality)', ({ variant, args }) => {
  // The default personality shares the file's sandbox; the variant gets its own process.
  const on = variant ? sandboxForThisFile({ resetBeforeEach: false, args }) : sandbox

  it('writes the documented fields: auth methods of the spec, integer timestamps', async () => {
    const sessions = expectSuccess('listSessions', await callOperation(on, 'listSessions'))
    const now = Date.now()
    for (const session of sessions) {
      expect(AUTH_METHODS).toContain(session.authMethod)
      // The unit is not shown: the default sends epoch milliseconds (above 10^12), the variant
      // epoch seconds (below). Either reads as a time near now through the app's one reader.
      const times = [session.createdAt, session.lastSeenAt, session.expiresAt]
      if (session.mfaSatisfiedAt !== null) times.push(session.mfaSatisfiedAt)
      for (const time of times) {
        expect(Number.isInteger(time)).toBe(true)
        if (variant) expect(time).toBeLessThan(1e12)
        else expect(time).toBeGreaterThan(1e12)
        const at = parseTimestamp(time) ?? Number.NaN
        expect(Math.abs(at - now)).toBeLessThan(5 * 365 * 86_400_000)
      }
      expect(session.lastSeenAt).toBeGreaterThanOrEqual(session.createdAt)
      expect(session.expiresAt).toBeGreaterThan(session.createdAt)
    }
    // The seed shows every kind the screen must render: nulls and each auth method somewhere.
    const all = [
      ...sessions,
      ...expectSuccess(
        'listSessions',
        await callOperation(on, 'listSessions', { token: on.tokens.viewer }),
      ),
    ]
    expect(new Set(all.map((session) => session.authMethod))).toEqual(new Set(AUTH_METHODS))
    expect(all.some((session) => session.mfaSatisfiedAt === null)).toBe(true)
    expect(all.some((session) => session.ipAddress === null || session.userAgent === null)).toBe(
      true,
    )
  })
})
