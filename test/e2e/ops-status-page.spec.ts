import { z } from 'zod'
import { bridgeCall } from './support/bridge'
import { expect } from './support/fixtures'
import {
  expectActivityLine,
  openScreen,
  sandboxCall,
  statusPagePreviewSchema,
  test,
} from './support/ops'

/** The variant's preview (docs/SERVICE.md): one `incidents` list, each with its `state`. */
const variantPreviewSchema = z.object({
  data: z.looseObject({
    incidents: z.array(z.looseObject({ id: z.string(), state: z.string() })),
  }),
})

test('status page: rendered as a page; resolving an open incident removes it from the open ones, logged', async ({
  page,
  sandboxVariant,
  ops: { sandbox, seed },
}) => {
  await openScreen(page, 'Status page')

  const preview = page.getByRole('region', { name: 'Status page preview' })
  await expect(preview.getByRole('heading', { name: 'Northwind Status' })).toBeVisible()
  await expect(preview.getByRole('status', { name: 'Overall state' })).toHaveText('Partial outage')
  await expect(preview.getByRole('region', { name: 'Customer facing' })).toContainText('Storefront')
  // A page, never JSON.
  await expect(preview).not.toContainText('"openIncidents"')
  await expect(preview).not.toContainText('{')

  const open = page.getByRole('heading', { name: /^Open incidents \(\d+\)$/ })
  await expect(open).toHaveText(`Open incidents (${seed.incidents.open.length})`)
  const incident = preview.getByRole('article', { name: 'Incident: Delayed webhook deliveries' })
  await expect(incident).toContainText('Affects: Webhooks')
  await incident
    .getByRole('button', { name: 'Resolve incident Delayed webhook deliveries' })
    .click()

  const dialog = page.getByRole('dialog', { name: 'Resolve this incident?' })
  await expect(dialog).toContainText('Delayed webhook deliveries')
  await dialog.getByRole('button', { name: 'Resolve incident' }).click()
  await expect(page.getByText('Incident resolved: Delayed webhook deliveries')).toBeVisible()
  await expect(open).toHaveText(`Open incidents (${seed.incidents.open.length - 1})`)
  await expect(
    page
      .getByRole('region', { name: 'Status page preview' })
      .getByRole('article', { name: 'Incident: Delayed webhook deliveries' }),
  ).toContainText('resolved')

  // The later call: the service's preview no longer lists it as open.
  const { activeId } = await bridgeCall(page, 'profiles.list')
  const cached = await bridgeCall(page, 'statusPage.cached', { profileId: activeId })
  // The cache keeps the service's own names: `title` from the sandbox, `name` from the variant.
  const resolved = cached.items.find(
    (item) => (item.title ?? item['name']) === 'Delayed webhook deliveries',
  )
  if (!resolved) throw new Error('the incident is not in the cache')
  const answer = (await sandboxCall(sandbox, 'GET', '/api/status-page/preview')).json
  if (sandboxVariant) {
    const later = variantPreviewSchema.parse(answer)
    expect(later.data.incidents.find((item) => item.id === resolved.id)?.state).toBe('resolved')
  } else {
    const later = statusPagePreviewSchema.parse(answer)
    expect(later.data.openIncidents.map((item) => item.id)).not.toContain(resolved.id)
    expect(later.data.recentlyResolved.map((item) => item.id)).toContain(resolved.id)
  }

  await expectActivityLine(page, { operation: 'resolveIncident', target: resolved.id })
})

test('status page offline: the cached page and incidents are shown, Resolve is unavailable', async ({
  page,
  startApp,
  dataDir,
  ops: { sandbox, app },
}) => {
  await openScreen(page, 'Status page')
  await expect(page.getByRole('heading', { name: 'Northwind Status' })).toBeVisible()

  await page.goto('about:blank')
  await app.stop()
  await sandbox.stop()
  const second = await startApp(dataDir)
  await page.goto(second.url)
  await openScreen(page, 'Status page')
  await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible()
  const preview = page.getByRole('region', { name: 'Status page preview' })
  await expect(preview.getByRole('heading', { name: 'Northwind Status' })).toBeVisible()
  const resolve = preview.getByRole('button', {
    name: 'Resolve incident Delayed webhook deliveries',
  })
  await expect(resolve).toBeDisabled()
  await expect(resolve).toHaveAttribute('title', /cannot be reached/)
})
