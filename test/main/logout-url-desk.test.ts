import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDesk } from '../../src/main/desk'
import type { Desk } from '../../src/main/desk'
import { createVault } from '../../src/main/vault'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The logout URL through the desk, as the renderer meets it: a service (a small local server
 * standing for one at http://localhost) answers op 2 with a logoutUrl, and the desk opens it
 * only when it is https on the profile's own site, handing the browser the parsed URL. Anything
 * else comes back with logoutUrlTrusted false, to be shown as text (logout-url.test.ts has the
 * decision case by case).
 */

describe('sessions.logout through the desk', () => {
  let temp: TempDir
  let desk: Desk
  let server: Server
  let baseUrl: string
  let profile: Profile
  /** What op 2 answers next. */
  let logoutUrl = ''
  const opened: string[] = []

  beforeAll(async () => {
    temp = await makeTempDir('infradesk-logout-url')
    server = createServer((request, response) => {
      const body =
        request.url === '/auth/logout' ? JSON.stringify({ message: 'Logged out', logoutUrl }) : '[]'
      response.writeHead(200, { 'content-type': 'application/json' }).end(body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    // `localhost`: a host name, so a same-host https logout page can be told from a foreign one.
    baseUrl = `http://localhost:${port}`
    desk = await createDesk({
      dataDir: path.join(temp.dir, 'data'),
      mode: 'web',
      openExternal: async (url) => {
        opened.push(url)
      },
      vault: createVault({ service: `Infradesk-logout-url-test-${process.pid}` }),
      version: '0.0.0-test',
      restoreSandbox: false,
    })
    const added = await desk.dispatch('profiles.add', {
      name: 'Local',
      baseUrl,
      color: '#2563eb',
      protected: false,
      token: 'secret-token',
      sessionOnly: true,
    })
    if (!added.ok) throw new Error(JSON.stringify(added.error))
    profile = added.value as Profile
  })

  afterAll(async () => {
    await desk?.close()
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
    await temp?.remove()
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
