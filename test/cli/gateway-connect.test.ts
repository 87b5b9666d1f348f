import { describe, expect, it } from 'vitest'
import { call, GATEWAY_ARGS, sandboxForThisFile } from '../support/sandbox-process'
import { jsonOf, useCliHome } from './support'

/*
 * `infradesk` against a real deployment's rules (the sandbox's gateway flavour): a gw_ API token
 * is added although the sessions endpoint is for browser sessions only, a token that does not
 * authenticate is refused (exit 3), `sessions list` says browser-only plainly (exit 0, nothing
 * on stdout, no "error:"), and a write meeting the rate limit exits 8 naming when to retry.
 * Run under scripts/with-keyring.mjs (`profiles add` keeps its token in the keychain).
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: false, args: [...GATEWAY_ARGS] })
const { cli } = useCliHome('cli-gateway', {
  secrets: () => [sandbox.tokens.admin, sandbox.tokens.viewer],
})

const BROWSER_ONLY =
  'This service keeps browser sessions for the web console: an API token cannot list or end them.'

describe('infradesk with a gateway API token', () => {
  it('profiles add: the admin and viewer gw_ tokens are added, each with the note of what it may not do', async () => {
    const admin = await cli(['profiles', 'add', 'Gateway', '--url', sandbox.url], {
      input: `${sandbox.tokens.admin}\n`,
    })
    expect(admin.code, admin.stderr).toBe(0)
    expect(admin.stderr).toContain('Added "Gateway"')
    expect(admin.stderr).toContain(`Note: ${BROWSER_ONLY}`)
    expect(admin.stderr).not.toMatch(/error:/)

    const viewer = await cli(['profiles', 'add', 'Viewer', '--url', sandbox.url, '--json'], {
      input: `${sandbox.tokens.viewer}\n`,
    })
    expect(viewer.code, viewer.stderr).toBe(0)
    expect(jsonOf<{ signedIn: boolean; tokenLimitation: string }>(viewer)).toMatchObject({
      signedIn: true,
      tokenLimitation: expect.stringContaining(BROWSER_ONLY),
    })
  })

  it('profiles add: a token that does not authenticate is refused with exit 3', async () => {
    const refused = await cli(['profiles', 'add', 'Nobody', '--url', sandbox.url], {
      input: 'gw_nobody\n',
    })
    expect(refused.code).toBe(3)
    expect(refused.stderr).toMatch(
      /^error: UNAUTHORIZED: The service refused the token \(401\): it does not authenticate/,
    )
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('sessions list says plainly that an API token cannot list sessions: exit 0, no stack', async () => {
    for (const args of [
      ['sessions', 'list', '--profile', 'Gateway'],
      ['sessions', 'list', '--profile', 'Gateway', '--json'],
    ]) {
      const listed = await cli(args)
      expect(listed.code, listed.stderr).toBe(0)
      expect(listed.stdout).toBe('')
      expect(listed.stderr).toContain(BROWSER_ONLY)
      expect(listed.stderr).not.toMatch(/error:|\n\s+at /)
      expect(listed.stderr.trim().split('\n')).toHaveLength(1)
    }
  })

  it('with --url and INFRADESK_TOKEN too (the throwaway profile is verified the same way)', async () => {
    const listed = await cli(['sessions', 'list', '--url', sandbox.url], {
      env: { INFRADESK_TOKEN: sandbox.tokens.admin },
    })
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stderr).toContain(BROWSER_ONLY)
  })

  it('a write meeting the rate limit exits 8 and says when to retry; it is not retried', async () => {
    const armed = await call(sandbox, {
      method: 'POST',
      path: '/__sandbox/rate-limit',
      body: { count: 2, retryAfterSeconds: 30 },
    })
    expect(armed.status).toBe(200)
    const incident = sandbox.seed.incidents.open[0] as string
    const limited = await cli([
      ...['call', 'resolveIncident', '--profile', 'Gateway'],
      ...['--param', `id=${incident}`],
    ])
    expect(limited.code, limited.stderr).toBe(8)
    expect(limited.stderr).toMatch(
      /RATE_LIMITED: The service's rate limit was reached: try again in \d+ s/,
    )
    // One attempt only: the second refusal armed is still there.
    const next = await call(sandbox, { path: '/api/status-page/preview' })
    expect(next.status).toBe(429)
  })
})
