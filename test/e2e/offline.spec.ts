import { bridgeCall } from './support/bridge'
import { expect, profileSwitcher, sessionsTable, test } from './support/fixtures'
import { openScreen } from './support/screens'

test('restart with the service stopped → cached sessions shown under the offline banner', async ({
  page,
  startApp,
  dataDir,
  staging: { sandbox, app: first },
}) => {
  const table = sessionsTable(page)
  const { activeId } = await bridgeCall(page, 'profiles.list')
  const { items } = await bridgeCall(page, 'sessions.cached', { profileId: activeId })
  expect(items.length).toBeGreaterThan(0)

  await page.goto('about:blank')
  await first.stop()
  await sandbox.stop()

  const second = await startApp(dataDir)
  await page.goto(second.url)
  // The Overview first: no call this run yet, so it does not claim "Online" (it did, with the
  // service gone); Read again asks, and the Overview and the switcher say Offline together.
  const row = page.getByRole('table', { name: 'Profiles' }).locator('tr[data-profile="Staging"]')
  await expect(row).toContainText('Not checked yet')
  await page.getByRole('button', { name: 'Read again' }).click()
  await expect(row).toContainText('Offline')
  await expect(profileSwitcher(page)).toContainText('Offline · showing saved data')
  // The app opens on the Overview; the sessions are a screen away.
  await openScreen(page, 'Sessions')
  // The cached rows, every one of them, under the banner that says they are old.
  await expect(page.getByRole('status', { name: 'Offline' })).toContainText(
    /Offline — showing data from .+; actions that need the service are unavailable/,
  )
  for (const session of items) {
    await expect(table.getByRole('row').filter({ hasText: session.id })).toHaveCount(1)
  }
  await expect(table.getByText('This session', { exact: true })).toHaveCount(1)
  await expect(page.getByRole('status', { name: 'Offline' })).toContainText('OFFLINE')
  // Actions that need the service say so instead of failing.
  const logout = page.getByRole('button', { name: 'Log out' })
  await expect(logout).toBeDisabled()
  await expect(logout).toHaveAttribute('title', /cannot be reached/)
  await page.screenshot({ path: test.info().outputPath('offline.png') })
})

test('Read again asks the service: the Overview and the switcher say Offline together, All expiring marks the old rows', async ({
  page,
  staging: { sandbox },
}) => {
  const { activeId } = await bridgeCall(page, 'profiles.list')
  // Every certificate in the cache, as a background refresh would leave it.
  await bridgeCall(page, 'certificates.refresh', {
    profileId: activeId,
    filter: { showSystem: true },
  })
  await openScreen(page, 'overview')
  const row = page.getByRole('table', { name: 'Profiles' }).locator('tr[data-profile="Staging"]')
  // The token check and the refresh reached the service: online, with when it was found so.
  await expect(row).toContainText(/Online · checked/)

  await sandbox.stop()
  // Nothing has called the service since: the Overview does not pretend to know more.
  await expect(row).toContainText('Online')
  await page.getByRole('button', { name: 'Read again' }).click()
  await expect(row).toContainText(/Offline · checked (just now|less than a minute ago)/)
  // One account: the switcher says so too, never "Signed in" beside an Offline row.
  await expect(profileSwitcher(page)).toContainText('Offline')
  await expect(profileSwitcher(page)).not.toContainText('Signed in')

  // All expiring: the rows of the unreachable profile say how old they are.
  await openScreen(page, 'expiring')
  const table = page.getByRole('table', { name: 'Expiring certificates' })
  await expect(
    table.getByText(/cached (less than a minute|\d+ min) ago, service unreachable/).first(),
  ).toBeVisible()
})
