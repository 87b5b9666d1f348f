import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Desk } from '../../src/main/desk'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * The logout URL through the desk, as the renderer meets it: a service (a small local server
 * standing for one at http://localhost) answers op 2 with a logoutUrl, and the desk opens it
 * only when it is https on the profile's own site, handing the browser the parsed URL. Anything
 * else comes back with logoutUrlTrusted false, to be shown as text (logout-url.test.ts has the
 * decision case by case).
 */

describe('sessions.logout through the desk', () => {
  let harness: TestDesk
  let desk: Desk
  let server: Server
  let baseUrl: string
  let profile: Profile
  /** What op 2 answers next. */
  let logoutUrl = ''
  const opened: string[] = []

  beforeAll(async () => {
    server = createServer((request, response) => {
      const body =
        request.url === '/auth/logout' ? JSON.stringify({ message: 'Logged out', logoutUrl }) : '[]'
      response.writeHead(200, { 'content-type': 'application/json' }).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    // `localhost`: a host name, so a same-host https logout page can be told from a foreign one.
    baseUrl = `http://localhost:${port}`
    harness = await openTestDesk('logout-url', {
      openExternal: async (url) => {
        opened.push(url)
      },
    })
    desk = harness.desk
    profile = await harness.addProfile(
      { url: baseUrl, tokens: { admin: 'secret-token' } },
      { name: 'Local', color: '#2563eb', sessionOnly: true },
    )
  })

  afterAll(async () => {
    await harness?.close()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  })

  async function logOut(answerUrl: string): Promise<ChannelOutput<'sessions.logout'>> {
    const signedIn = await desk.dispatch('profiles.signIn', {
      id: profile.id,
      token: 'secret-token',
      sessionOnly: true,
    })
    if (!signedIn.ok) throw new Error(JSON.stringify(signedIn.error))
    logoutUrl = answerUrl
    opened.length = 0
    const result = await desk.dispatch('sessions.logout', { profileId: profile.id })
    if (!result.ok) throw new Error(JSON.stringify(result.error))
    return result.value as ChannelOutput<'sessions.logout'>
  }

  it.each([
    'https://evil.test/logout',
    'https://localhost.evil.test/logout',
    'https://login.example.com/oidc/logout',
    'http://localhost/logout',
  ])('does not open a foreign logoutUrl (%s): it comes back to be shown as text', async (url) => {
    const answer = await logOut(url)
    expect(opened).toEqual([])
    expect(answer).toMatchObject({
      logoutUrl: url,
      logoutUrlTrusted: false,
      openedLogoutUrl: false,
    })
  })

  it("opens one on the profile's own host, as parsed", async () => {
    const answer = await logOut('https://LOCALHOST/sign out')
    expect(opened).toEqual(['https://localhost/sign%20out'])
    expect(answer).toMatchObject({
      logoutUrl: 'https://localhost/sign%20out',
      logoutUrlTrusted: true,
      openedLogoutUrl: true,
    })
  })

  it('shell.openExternal hands the browser the parsed URL, not the string', async () => {
    opened.length = 0
    const result = await desk.dispatch('shell.openExternal', { url: 'https://Example.com/a b' })
    expect(result).toEqual({ ok: true, value: { opened: true } })
    expect(opened).toEqual(['https://example.com/a%20b'])
  })
})
