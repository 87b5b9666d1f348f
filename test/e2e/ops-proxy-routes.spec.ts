import { expect, test } from './support/fixtures'
import { expectActivityLine, openOps, openScreen } from './support/ops'
import { failedRoute, sandboxSeed } from './support/seed'

test('retry a failed route: its new state is shown and the service has it, logged', async ({
  page,
  staging,
}) => {
  const { sandbox, seed } = await openOps(staging)
  const { host, route } = failedRoute(seed)

  await openScreen(page, 'Proxy routes')
  await page.getByLabel('Proxy host ID').fill(host.id)
  await page.getByLabel('Route ID').fill(route.id)
  // Not a protected profile, and a retry harms nothing: no confirmation.
  await page.getByRole('button', { name: 'Retry route' }).click()
  await expect(page.getByLabel('Route state: pending')).toBeVisible()
  await expect(page.getByRole('table', { name: 'Retried route' })).toContainText(route.id)

  const after = await sandboxSeed(sandbox)
  const now = after.proxyHosts
    .find((candidate) => candidate.id === host.id)
    ?.routes.find((candidate) => candidate.id === route.id)
  expect(now?.status).toBe('pending')

  // A second retry is refused (409): explained, and logged as an error. The headline is this
  // operation's own sentence; the code and the service's words stay beneath.
  await page.getByRole('button', { name: 'Retry route' }).click()
  await expect(page.getByRole('alert').locator('.banner-title')).toHaveText(
    'This route has not failed, so there is nothing to retry.',
  )
  await expect(page.getByRole('alert')).toContainText('CONFLICT')
  await expect(page.getByRole('alert')).toContainText('Resource already exists')
  await expectActivityLine(page, {
    operation: 'retryProxyRoute',
    target: host.id,
    outcome: 'Error',
  })
  await expect(
    page
      .getByRole('table', { name: 'Activity' })
      .getByRole('row')
      .filter({ hasText: 'retryProxyRoute' })
      .filter({ hasText: 'Success' }),
  ).toHaveCount(1)
})
