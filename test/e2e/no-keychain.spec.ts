import { bridgeCall } from './support/bridge'
import { expect, fillProfileForm, profileSwitcher, sessionsTable, test } from './support/fixtures'

test('without a keychain the app says so and offers "keep for this session only"', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const sandbox = await startSandbox()
  // A session bus that does not exist: no Secret Service, as on a bare Linux server.
  const app = await startApp(undefined, { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' })
  await page.goto(app.url)
  await page.getByRole('button', { name: 'Connect to your service' }).click()

  // Said up front, with the way out ticked.
  await expect(page.getByText('The system keychain cannot be used')).toBeVisible()
  const sessionOnly = page.getByLabel('Keep the token for this session only')
  await expect(sessionOnly).toBeChecked()

  // Asking for the keychain anyway fails with KEYCHAIN_UNAVAILABLE, and the retry is offered.
  await sessionOnly.uncheck()
  await fillProfileForm(page, {
    name: 'Staging',
    baseUrl: sandbox.url,
    token: sandbox.tokens.admin,
  })
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  const problem = page.getByRole('alert').filter({ hasText: 'The system keychain cannot be used' })
  await expect(problem).toBeVisible()
  await problem.scrollIntoViewIfNeeded()
  await page.screenshot({ path: test.info().outputPath('keychain-unavailable.png') })
  expect((await bridgeCall(page, 'profiles.list')).profiles).toEqual([])

  await problem.getByRole('button', { name: 'Keep for this session only' }).click()
  await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1)
  await expect(profileSwitcher(page)).toContainText('Signed in · this session only')
  const { profiles } = await bridgeCall(page, 'profiles.list')
  expect(profiles).toMatchObject([{ name: 'Staging', signedIn: true, tokenStorage: 'session' }])
})
