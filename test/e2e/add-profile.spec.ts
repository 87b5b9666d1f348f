import { randomUUID } from 'node:crypto'
import { createServer, type AddressInfo } from 'node:net'
import { bridgeCall } from './support/bridge'
import {
  connectFromWelcome,
  expect,
  fillProfileForm,
  profileSwitcher,
  sessionsTable,
  test,
} from './support/fixtures'

test('adding a profile with a wrong token names the problem and saves nothing', async ({
  page,
  welcome: { sandbox },
}) => {
  // Client-side validation first: the field that is wrong says so, nothing is sent.
  await page.getByRole('button', { name: 'Connect to your service' }).click()
  await fillProfileForm(page, { name: 'Staging', baseUrl: 'ftp://nowhere', token: 'x' })
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(page.getByLabel('Base URL')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByText('Enter an http:// or https:// URL')).toBeVisible()

  // A reachable service that refuses the token.
  await page.getByLabel('Base URL').fill(sandbox.url)
  await page.getByLabel('Access token').fill('not-the-right-token')
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  const refusal = page.getByRole('alert').filter({ hasText: 'UNAUTHORIZED' })
  await expect(refusal).toContainText('UNAUTHORIZED — the service refused the token (401)')
  await expect(refusal).toContainText('Nothing was saved')
  expect((await bridgeCall(page, 'profiles.list')).profiles).toEqual([])
  // Still on the first-run screen: no profile, no switcher.
  await expect(page.getByRole('heading', { name: 'Connect to your service' })).toBeVisible()
  await expect(profileSwitcher(page)).toHaveCount(0)

  // With a profile in place, the switcher's "Add profile" says the same and adds nothing.
  await page.getByLabel('Access token').fill(sandbox.tokens.admin)
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
  await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1)

  await profileSwitcher(page).click()
  await page.getByRole('menuitem', { name: 'Add profile…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add a profile' })
  // A second profile starts in a colour the first does not wear (both blue looked the same in
  // the switcher, the Overview and its chart).
  const [staging] = (await bridgeCall(page, 'profiles.list')).profiles
  const startingColour = dialog.getByRole('radio', { checked: true })
  await expect(startingColour).toHaveCount(1)
  expect(await startingColour.getAttribute('value')).not.toBe(staging?.color)
  await fillProfileForm(page, {
    name: 'Wrong token',
    baseUrl: sandbox.url,
    token: `${sandbox.tokens.admin}-but-not-quite`,
  })
  await dialog.getByRole('button', { name: 'Add profile' }).click()
  await expect(dialog.getByRole('alert')).toContainText(
    'UNAUTHORIZED — the service refused the token (401)',
  )
  await page.screenshot({ path: test.info().outputPath('add-profile-refused.png') })
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  await profileSwitcher(page).click()
  const menu = page.getByRole('menu', { name: 'Profiles' })
  await expect(menu.getByRole('menuitemradio')).toHaveCount(1)
  await expect(menu.getByRole('menuitemradio', { name: /Staging/ })).toHaveCount(1)
  await expect(menu.getByRole('menuitemradio', { name: /Wrong token/ })).toHaveCount(0)
  await page.keyboard.press('Escape')

  const { profiles } = await bridgeCall(page, 'profiles.list')
  expect(profiles.map((profile) => profile.name)).toEqual(['Staging'])
})

test('an unreachable service is named as such', async ({ page, startApp }) => {
  const app = await startApp()
  await page.goto(app.url)
  // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
  await connectFromWelcome(page, { name: 'Nowhere', baseUrl: 'http://127.0.0.1:9', token: 't' })
  await expect(page.getByRole('alert').filter({ hasText: 'OFFLINE' })).toContainText(
    'OFFLINE — the service could not be reached',
  )
  expect((await bridgeCall(page, 'profiles.list')).profiles).toEqual([])
})

test('a service that is down: "Save anyway, check later" keeps the profile unverified until a call reaches it', async ({
  page,
  startApp,
  startSandbox,
}) => {
  // A loopback port nothing listens on yet; the service comes up there later.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo
      probe.close(() => resolve(free))
    })
  })
  const token = `later-${randomUUID()}`
  const app = await startApp()
  await page.goto(app.url)
  await connectFromWelcome(page, { name: 'Later', baseUrl: `http://127.0.0.1:${port}`, token })
  await expect(page.getByRole('alert').filter({ hasText: 'OFFLINE' })).toBeVisible()
  await page.getByRole('button', { name: 'Save anyway, check later' }).click()

  // Saved, its token in the keychain, and said to be unchecked wherever its state is shown.
  await expect(profileSwitcher(page)).toContainText('Not verified yet')
  const { profiles } = await bridgeCall(page, 'profiles.list')
  expect(profiles).toEqual([
    expect.objectContaining({ name: 'Later', signedIn: true, unverified: true }),
  ])
  await page.keyboard.press('Alt+0')
  const row = page.getByRole('table', { name: 'Profiles' }).locator('tr[data-profile="Later"]')
  await expect(row).toContainText('Not verified yet')

  // Connect while the service is still down: it says why, nothing changes.
  await profileSwitcher(page).click()
  await page.getByRole('menuitem', { name: 'Connect to Later' }).click()
  await expect(page.getByText(/Could not connect to Later: OFFLINE/)).toBeVisible()
  await expect(row).toContainText('Not verified yet')

  // The service comes up with that token: Read again connects the profile, which is verified.
  await startSandbox(['--port', String(port), '--admin-token', token])
  await page.getByRole('button', { name: 'Read again' }).click()
  await expect(row).toContainText(/Online · checked/)
  await expect(profileSwitcher(page)).toContainText('Signed in')
  const after = await bridgeCall(page, 'profiles.list')
  expect(after.profiles[0]?.unverified).toBeUndefined()
})
