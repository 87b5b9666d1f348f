import { bridgeCall } from './support/bridge'
import { certificateGrid, openCertificates } from './support/certificates'
import {
  connectFromWelcome,
  expect,
  profileSwitcher,
  sessionsBrowserOnlyNotice,
  test,
} from './support/fixtures'

/*
 * A first Connect as a new user of a real deployment meets it (the `gateway` project: the
 * sandbox's gateway flavour): an API token `gw_…` is accepted although the sessions endpoint is
 * for browser sessions only; the sessions and inference screens say so plainly (a status, no
 * red error, not offline, not signed out); the rest of the app works with the same token; a
 * token that does not authenticate is refused; a read that meets the rate limit
 * says it waits, then shows its answer.
 */

test('first Connect with the gw_ admin token: sessions say browser-only plainly, certificates work', async ({
  page,
  staging,
}) => {
  expect(staging.sandbox.tokens.admin).toMatch(/^gw_/)
  // `staging` waited for the notice; it says what, and the service's own words stay.
  const notice = sessionsBrowserOnlyNotice(page)
  await expect(notice).toContainText('Sessions are kept for the web console')
  await expect(notice).toContainText('This endpoint requires browser session authentication.')
  await expect(page.getByRole('alert')).toHaveCount(0)
  await expect(page.getByRole('status', { name: 'Offline' })).toHaveCount(0)
  await expect(profileSwitcher(page)).toContainText('Signed in')

  await openCertificates(page)
  await expect(certificateGrid(page).getByRole('row').nth(1)).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)

  await page.getByRole('link', { name: /Inference models/ }).click()
  await expect(
    page.getByRole('status').filter({ hasText: 'inference catalog to browser sessions only' }),
  ).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)

  // Log out: the dialog says what it can and cannot do; the profile is signed out here.
  await page.getByRole('link', { name: /Sessions/ }).click()
  await page.getByRole('button', { name: 'Log out' }).click()
  const confirm = page.getByRole('dialog', { name: 'Log out of Staging?' })
  await expect(confirm).toContainText('an API token has none to end')
  await confirm.getByRole('button', { name: 'Log out' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(
    page.getByRole('status').filter({ hasText: 'stays valid on the service' }),
  ).toBeVisible()
  await expect(profileSwitcher(page)).toContainText('Signed out')
  await expect(page.getByRole('alert')).toHaveCount(0)
})

test('Connect with the viewer token (narrow scopes) succeeds; an unknown token is refused (401)', async ({
  page,
  welcome: { sandbox },
}) => {
  await connectFromWelcome(page, { name: 'Nobody', baseUrl: sandbox.url, token: 'gw_nobody' })
  // 401: the token does not authenticate; the service's own code is kept beside the app's.
  const refusal = page.getByRole('alert').filter({ hasText: 'UNAUTHORIZED' })
  await expect(refusal).toContainText('UNAUTHORIZED — the service refused the token (401)')
  await expect(refusal).toContainText('it does not authenticate with this service')
  await expect(refusal).toContainText('Invalid or expired bearer token (HTTP 401, HTTP_ERROR)')
  expect((await bridgeCall(page, 'profiles.list')).profiles).toEqual([])

  await page.getByLabel('Name', { exact: true }).fill('Viewer')
  await page.getByLabel('Access token').fill(sandbox.tokens.viewer)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(sessionsBrowserOnlyNotice(page)).toBeVisible()
  await expect(profileSwitcher(page)).toContainText('Signed in')
})

test('a read that meets the rate limit says it waits, then shows its answer', async ({
  page,
  staging: { sandbox },
}) => {
  await openCertificates(page)
  const armed = await fetch(`${sandbox.url}/__sandbox/rate-limit`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${sandbox.tokens.admin}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ count: 1, retryAfterSeconds: 5 }),
  })
  expect(armed.status).toBe(200)
  await page.getByRole('button', { name: 'Refresh', exact: true }).click()
  const waiting = page
    .getByRole('status')
    .filter({ hasText: "Waiting for the service's rate limit" })
  // Five seconds, so a page slowed by a loaded machine still shows the notice while it holds.
  await expect(waiting).toContainText(/retrying in [1-5] s/)
  // The notice goes once the wait is over; the list is there, no error.
  await expect(waiting).toHaveCount(0)
  await expect(certificateGrid(page).getByRole('row').nth(1)).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
})
