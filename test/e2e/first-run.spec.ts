import { bridgeCall } from './support/bridge'
import {
  expect,
  exploreLocalSandbox,
  profileSwitcher,
  sessionsTable,
  test,
} from './support/fixtures'

test('first run → explore the local sandbox → sessions listed, exactly one marked current', async ({
  page,
  startApp,
}) => {
  const app = await startApp()
  await page.goto(app.url)

  await expect(page.getByRole('heading', { name: 'Welcome to Infradesk' })).toBeVisible()
  await exploreLocalSandbox(page)

  const table = sessionsTable(page)
  await expect(page.getByRole('link', { name: /Sessions/ })).toHaveAttribute('aria-current', 'page')
  await expect(profileSwitcher(page)).toContainText('Signed in')

  // Every field of the session object is on screen (id, method and current share "Session",
  // IP address and user agent share "Client").
  for (const header of ['Session', 'Created', 'Last seen', 'Expires', 'MFA satisfied', 'Client']) {
    await expect(table.getByRole('columnheader', { name: header, exact: true })).toBeVisible()
  }

  // The table shows exactly what the main process cached from the service, current one marked.
  const { profiles, activeId } = await bridgeCall(page, 'profiles.list')
  expect(profiles).toHaveLength(1)
  expect(profiles[0]?.kind).toBe('sandbox')
  const cached = await bridgeCall(page, 'sessions.cached', { profileId: activeId })
  expect(cached.items.length).toBeGreaterThan(0)
  expect(cached.items.filter((session) => session.isCurrent)).toHaveLength(1)
  await expect(table.getByRole('row')).toHaveCount(cached.items.length + 1)
  for (const session of cached.items) {
    const row = table.getByRole('row').filter({ hasText: session.id })
    await expect(row).toHaveCount(1)
    await expect(row.getByText('This session', { exact: true })).toHaveCount(
      session.isCurrent ? 1 : 0,
    )
  }
  // Times read both ways: a local date and a relative phrase.
  await expect(table.getByRole('row').nth(1)).toContainText(/ ago|in \d|just now/)
  await expect(page.getByText(/^Updated /)).toBeVisible()
})
