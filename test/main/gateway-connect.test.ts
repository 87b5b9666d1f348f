import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createServiceClient, ServiceError } from '../../src/main/api'
import type { RateLimitWait } from '../../src/main/api/client'
import type { Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { call, GATEWAY_ARGS, sandboxForThisFile } from '../support/sandbox-process'
import { armRateLimit } from '../support/rate-limit'

/*
 * Connect with a real deployment's API tokens (the sandbox's gateway flavour): the token check
 * tells 401 (refuse) from 403 (accept, and say what the token may not do); sessions, logout and
 * the inference catalog, kept for browser sessions, are said plainly and do not make the profile
 * look offline or signed out; reads wait out the rate limit, writes never retry.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS] })

const BROWSER_ONLY_SESSIONS =
  'This service keeps browser sessions for the web console: an API token cannot list or end them.'

type Added = Profile & { tokenLimitation: string | null }

let desk: TestDesk
const profileIds: string[] = []

beforeEach(async () => {
  desk = await openTestDesk('gateway-connect')
})

afterEach(async () => {
  await desk.close(profileIds.splice(0))
})

function addWith(token: string, name = 'Gateway') {
  return desk.call('profiles.add', {
    name,
    baseUrl: sandbox.url,
    color: '#16a34a',
    protected: false,
    token,
  })
}

async function added(token: string, name?: string): Promise<Added> {
  const result = await addWith(token, name)
  if (!result.ok) throw new Error(`profiles.add failed: ${JSON.stringify(result.error)}`)
  const profile = result.value as Added
  profileIds.push(profile.id)
  return profile
}

describe('connect with an API token', () => {
  it('accepts the admin gw_ token although the sessions endpoint answers it 403, and says why', async () => {
    const profile = await added(sandbox.tokens.admin)
    expect(profile.signedIn).toBe(true)
    expect(profile.tokenLimitation).toContain(BROWSER_ONLY_SESSIONS)
    // The service's own words are kept beside the app's.
    expect(profile.tokenLimitation).toContain(
      'HTTP 403 HTTP_ERROR: This endpoint requires browser session authentication.',
    )
  })

  it('accepts the viewer token (narrow scopes are a normal case)', async () => {
    const profile = await added(sandbox.tokens.viewer, 'Viewer')
    expect(profile.signedIn).toBe(true)
  })

  it('refuses a token that does not authenticate (401), on the token field, saving nothing', async () => {
    const result = await addWith('gw_nobody')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 })
    expect(result.error.message).toMatch(/does not authenticate/)
    expect(result.error.details).toEqual([
      { path: ['token'], message: 'The service refused this token' },
    ])
    const { profiles } = await desk.value<{ profiles: Profile[] }>('profiles.list')
    expect(profiles).toEqual([])
  })

  it('signs in again with a gw_ token (profiles.signIn), the same check', async () => {
    const profile = await added(sandbox.tokens.admin)
    const again = await desk.value<Added>('profiles.signIn', {
      id: profile.id,
      token: sandbox.tokens.viewer,
    })
    expect(again.signedIn).toBe(true)
    expect(again.tokenLimitation).toContain(BROWSER_ONLY_SESSIONS)
    const refused = await desk.failure('profiles.signIn', { id: profile.id, token: 'gw_nobody' })
    expect(refused.code).toBe('UNAUTHORIZED')
  })
})

describe('endpoints kept for browser sessions', () => {
  it('sessions: a plain BROWSER_SESSION_ONLY, the profile neither offline nor signed out', async () => {
    const profile = await added(sandbox.tokens.admin)
    const refused = await desk.failure('sessions.fetch', {
      profileId: profile.id,
      offset: 0,
      limit: 100,
      sort: null,
      query: '',
    })
    expect(refused).toMatchObject({ code: 'BROWSER_SESSION_ONLY', status: 403 })
    expect(refused.message).toContain(BROWSER_ONLY_SESSIONS)
    expect((refused as { serviceCode?: string }).serviceCode).toBe('HTTP_ERROR')

    const { profiles } = await desk.value<{ profiles: Profile[] }>('profiles.list')
    expect(profiles.find((each) => each.id === profile.id)?.signedIn).toBe(true)
    const kinds = desk.events.map((event) => event.event)
    expect(kinds).not.toContain('auth.required')
    const offline = desk.events.filter(
      (event) =>
        event.event === 'connectivity.changed' &&
        (event.payload as { online: boolean }).online === false,
    )
    expect(offline).toEqual([])
  })

  it('the inference catalog: BROWSER_SESSION_ONLY in its own words', async () => {
    const profile = await added(sandbox.tokens.admin)
    const refused = await desk.failure('inference.list', { profileId: profile.id })
    expect(refused.code).toBe('BROWSER_SESSION_ONLY')
    expect(refused.message).toContain('inference catalog to browser sessions only')
  })

  it('logout signs the profile out here and says the token stays valid on the service', async () => {
    const profile = await added(sandbox.tokens.admin)
    const outcome = await desk.value<{ endedOnService: boolean; message: string }>(
      'sessions.logout',
      { profileId: profile.id },
    )
    expect(outcome.endedOnService).toBe(false)
    expect(outcome.message).toContain(BROWSER_ONLY_SESSIONS)
    expect(outcome.message).toContain('stays valid on the service')
    const { profiles } = await desk.value<{ profiles: Profile[] }>('profiles.list')
    expect(profiles.find((each) => each.id === profile.id)?.signedIn).toBe(false)
  })

  it('another screen works with the same token (certificates)', async () => {
    const profile = await added(sandbox.tokens.admin)
    const certificates = await desk.value<{ rows: unknown[]; error: unknown }>(
      'certificates.refresh',
      { profileId: profile.id },
    )
    expect(certificates.error).toBeNull()
    expect(certificates.rows.length).toBeGreaterThan(0)
  })
})

describe('the rate limit', () => {
  function client(onRateLimitWait?: (wait: RateLimitWait) => void) {
    return createServiceClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
      ...(onRateLimitWait === undefined ? {} : { onRateLimitWait }),
    })
  }

  it('a read meeting 429 twice waits as Retry-After says, each wait told, then succeeds', async () => {
    await armRateLimit(sandbox, 2, 1)
    const waits: RateLimitWait[] = []
    const preview = await client((wait) => waits.push(wait)).call('getStatusPagePreview')
    expect(preview.data).toBeDefined()
    expect(waits).toEqual([
      { operation: 'getStatusPagePreview', waitMs: 1000, attempt: 1 },
      { operation: 'getStatusPagePreview', waitMs: 1000, attempt: 2 },
    ])
  })

  it('the desk tells the renderer while a read waits (service.waiting)', async () => {
    const profile = await added(sandbox.tokens.admin)
    await armRateLimit(sandbox, 1, 1)
    await desk.value('statusPage.refresh', { profileId: profile.id })
    const waiting = desk.events.filter((event) => event.event === 'service.waiting')
    expect(waiting.map((event) => event.payload)).toEqual([
      {
        profileId: profile.id,
        operation: 'getStatusPagePreview',
        retryInMs: 1000,
        attempt: 1,
        maxAttempts: 3,
      },
    ])
  })

  it('a read is not left waiting past the budget: RATE_LIMITED at once, naming when', async () => {
    await armRateLimit(sandbox, 1, 600)
    const waits: RateLimitWait[] = []
    const error = await client((wait) => waits.push(wait))
      .call('getStatusPagePreview')
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect((error as ServiceError).message).toMatch(/try again in 600 s \(at \d\d:\d\d:\d\d UTC\)/)
    expect(waits).toEqual([])
  })

  it('a write meeting 429 is never retried and fails with a clear message', async () => {
    await armRateLimit(sandbox, 2, 1)
    const waits: RateLimitWait[] = []
    const incident = sandbox.seed.incidents.open[0] as string
    const error = await client((wait) => waits.push(wait))
      .call('resolveIncident', { params: { id: incident } })
      .catch((caught: unknown) => caught)
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429 })
    expect((error as ServiceError).message).toContain("The service's rate limit was reached")
    expect(waits).toEqual([])
    // Exactly one attempt was made: the second refusal armed is still there for the next call.
    const next = await call(sandbox, { path: '/api/status-page/preview' })
    expect(next.status).toBe(429)
  })
})

describe('Explore the local sandbox, gateway flavour', () => {
  it('signs in to the embedded gateway sandbox with its gw_ token and lists certificates', async () => {
    const explorer = await openTestDesk('gateway-explore', { sandboxFlavor: 'gateway' })
    try {
      const profile = await explorer.value<Profile>('sandbox.explore')
      expect(profile).toMatchObject({ kind: 'sandbox', signedIn: true })
      const sessions = await explorer.failure('sessions.fetch', { profileId: profile.id })
      expect(sessions.code).toBe('BROWSER_SESSION_ONLY')
      const certificates = await explorer.value<{ rows: unknown[]; error: unknown }>(
        'certificates.refresh',
        { profileId: profile.id },
      )
      expect(certificates.error).toBeNull()
      expect(certificates.rows.length).toBeGreaterThan(0)
    } finally {
      await explorer.close()
    }
  })
})
