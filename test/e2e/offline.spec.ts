import { bridgeCall } from './support/bridge'
import { expect, sessionsTable, test } from './support/fixtures'
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
  // The app opens on the Overview (issue 21); the sessions are a screen away.
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
