import { bridgeCall } from './support/bridge'
import { connectFromWelcome, expect, sessionsTable, test } from './support/fixtures'
import { expectActivityLine, openScreen } from './support/ops'
import { failedRoute, sandboxSeed } from './support/seed'

test('a protected profile always asks, naming itself; typed ids are remembered per profile on success', async ({
  page,
  welcome: { sandbox },
}) => {
  await connectFromWelcome(
    page,
    { name: 'Production', baseUrl: sandbox.url, token: sandbox.tokens.admin },
    ['Protected environment (production)'],
  )
  await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1)

  const seed = await sandboxSeed(sandbox)
  const { host, route } = failedRoute(seed)

  // A retry harms nothing and sends at once elsewhere; on a protected profile it asks.
  await openScreen(page, 'Proxy routes')
  await page.getByLabel('Proxy host ID').fill(host.id)
  await page.getByLabel('Route ID').fill(route.id)
  await page.getByRole('button', { name: 'Retry route' }).click()
  const dialog = page.getByRole('dialog', { name: 'Retry this route?' })
  await expect(dialog).toContainText('Production is a protected environment')
  // Cancelling sends nothing.
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  expect(
    (await sandboxSeed(sandbox)).proxyHosts
      .find((candidate) => candidate.id === host.id)
      ?.routes.find((candidate) => candidate.id === route.id)?.status,
  ).toBe('failed')

  await page.getByRole('button', { name: 'Retry route' }).click()
  await dialog.getByRole('button', { name: 'Retry route' }).click()
  await expect(page.getByLabel('Route state: pending')).toBeVisible()

  // The ids that worked are offered back on this profile, newest first.
  const { activeId } = await bridgeCall(page, 'profiles.list')
  expect(
    await bridgeCall(page, 'recents.list', { profileId: activeId, kind: 'proxy-host' }),
  ).toEqual([host.id])
  expect(
    await bridgeCall(page, 'recents.list', { profileId: activeId, kind: 'proxy-route' }),
  ).toEqual([route.id])
  const offered = page.locator('datalist option')
  await page.reload()
  await openScreen(page, 'Proxy routes')
  await expect(offered.first()).toHaveAttribute('value', host.id)
  await expectActivityLine(page, { operation: 'retryProxyRoute', target: host.id })
})
