import { createServer } from 'node:http'
import type { IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Request } from '@playwright/test'
import {
  launchSecretOf,
  MISSING_SECRET_MESSAGE,
  SECRET_HEADER,
  WEB_BRIDGE_PREFIX,
} from '../../src/shared/bridge/web-protocol'
import { bridgeCall } from './support/bridge'
import { expect, test } from './support/fixtures'

/*
 * Cookies are not separated by port: whatever cookie web mode set on 127.0.0.1, the browser
 * would send to every other server on 127.0.0.1 the user visits (a dev server, another tool),
 * and with it the whole bridge. Here a second local server records everything the same browser
 * sends it, after the app has been opened and used: nothing of the launch secret may be in it.
 * The app keeps working across a reload of its tab (the secret lives in sessionStorage), and
 * the bridge refuses whatever arrives without the secret's header.
 */

interface Recorded {
  method: string
  url: string
  headers: IncomingHttpHeaders
}

/** Another local server, on another port of 127.0.0.1, that writes down every request. */
async function startRecordingServer() {
  const requests: Recorded[] = []
  const server = createServer((request, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    })
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end('<!doctype html><title>Another local server</title><p>Another local server</p>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { origin, requests, close }
}

// Page-side scripts as strings: this file is type-checked for Node (no DOM library).
const CREDENTIALED_FETCH = (url: string) =>
  `fetch(${JSON.stringify(url)}, { credentials: 'include' }).then((response) => response.status)`
const NAVIGATE = (url: string) => `location.href = ${JSON.stringify(url)}`
const UNAUTHENTICATED_CALL = `fetch(${JSON.stringify(`${WEB_BRIDGE_PREFIX}/invoke/app.info`)}, {
  method: 'POST',
  credentials: 'include',
  headers: { 'content-type': 'application/json' },
  body: '{}',
}).then((response) => response.status)`

test('the launch secret reaches no other local server, and the bridge wants its header', async ({
  page,
  startApp,
}) => {
  const app = await startApp()
  const secret = launchSecretOf(app.url)
  expect(secret.length).toBeGreaterThan(20)
  const appOrigin = new URL(app.url).origin
  const other = await startRecordingServer()

  // Every request the browser makes, to any server: the secret is never in an address, and in
  // a header only as the bridge's own, sent to the app's own origin.
  const sent: Promise<{ url: string; headers: Record<string, string> }>[] = []
  page.context().on('request', (request: Request) => {
    // Read at once: a closed page's requests can no longer be asked.
    sent.push(request.allHeaders().then((headers) => ({ url: request.url(), headers })))
  })

  try {
    await page.goto(app.url)
    const welcome = page.getByRole('heading', { name: 'Welcome to Infradesk' })
    await expect(welcome).toBeVisible()
    expect(page.url().includes(secret), 'the secret left in the address bar').toBe(false)

    // The same browser visits the other server: by following a link from the app's page (the
    // browser chooses what to send), by an address typed in, and by a credentialed fetch from
    // a page of that server (same site as the app: another port of 127.0.0.1).
    await page.evaluate(NAVIGATE(`${other.origin}/from-the-app`))
    await page.waitForURL(`${other.origin}/from-the-app`)
    await page.goto(`${other.origin}/typed`)
    expect(await page.evaluate<number>(CREDENTIALED_FETCH(`${other.origin}/fetched`))).toBe(200)

    const paths = other.requests.map((request) => request.url)
    expect(paths).toEqual(expect.arrayContaining(['/from-the-app', '/typed', '/fetched']))
    for (const request of other.requests) {
      expect(request.headers.cookie, `a cookie sent to ${request.url}`).toBeUndefined()
      expect(
        JSON.stringify(request).includes(secret),
        `the secret sent to another server: ${request.method} ${request.url}`,
      ).toBe(false)
    }
    // There is no cookie to send: web mode never sets one.
    expect(await page.context().cookies()).toEqual([])

    // Back in the app's tab, by its plain address: sessionStorage still holds the secret.
    await page.goto(`${appOrigin}/`)
    await expect(welcome).toBeVisible()
    expect(await bridgeCall(page, 'profiles.list')).toMatchObject({ profiles: [] })
    // And a reload of the tab.
    await page.reload()
    await expect(welcome).toBeVisible()
    expect(await bridgeCall(page, 'profiles.list')).toMatchObject({ profiles: [] })

    // Without the header the bridge refuses, whatever else the browser sends on its own.
    expect(await page.evaluate<number>(UNAUTHENTICATED_CALL)).toBe(401)
    const viaContext = await page.request.post(`${appOrigin}${WEB_BRIDGE_PREFIX}/invoke/app.info`, {
      data: {},
    })
    expect(viaContext.status()).toBe(401)
    const events = await page.request.get(`${appOrigin}${WEB_BRIDGE_PREFIX}/events`)
    expect(events.status()).toBe(401)

    // A tab opened at the plain address (no secret in it, none in its own sessionStorage) says
    // what to do instead of failing somewhere unseen.
    const fresh = await page.context().newPage()
    await fresh.goto(`${appOrigin}/`)
    await expect(fresh.getByRole('alert').filter({ hasText: MISSING_SECRET_MESSAGE })).toBeVisible()
    await fresh.close()

    const requests = await Promise.all(sent)
    expect(requests.length).toBeGreaterThan(10)
    for (const { url, headers } of requests) {
      expect(url.includes(secret), `the secret in a request address`).toBe(false)
      const carrying = Object.entries(headers).filter(([, value]) => value.includes(secret))
      if (carrying.length === 0) continue
      expect(carrying.map(([name]) => name)).toEqual([SECRET_HEADER])
      const target = new URL(url)
      expect(target.origin).toBe(appOrigin)
      expect(target.pathname.startsWith(`${WEB_BRIDGE_PREFIX}/`)).toBe(true)
    }
  } finally {
    await other.close()
  }
})
