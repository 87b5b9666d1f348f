import { severeContentViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { openOps, openScreen } from './support/ops'

/*
 * The status page as a real deployment sends it (the `gateway` project): services by group with
 * a service whose state is unknown, each service's health history drawn as a strip (one bar per
 * 5-minute check, coloured by status, slow ones marked), reachable by the keyboard with a
 * tooltip per check, its numbers as text; incidents with their message and updates; fields the
 * app has no name for still shown. axe finds nothing serious in either theme.
 */

test('services, the unknown one, health strips and incidents with updates', async ({
  page,
  staging,
}, testInfo) => {
  await openOps(staging)
  await openScreen(page, 'Status page')
  const preview = page.getByRole('region', { name: 'Status page preview' })
  await expect(preview.getByRole('heading', { name: 'Northwind Status' })).toBeVisible()
  await expect(preview).toContainText('Live status of Northwind services')
  // A real deployment's overall words: one service is in outage.
  await expect(preview.getByRole('status', { name: 'Overall state' })).toHaveText('Major outage')
  await expect(preview.getByRole('region', { name: 'Customer facing' })).toContainText('Storefront')
  // The service without a group, whose state the page does not know.
  const ungrouped = preview.getByRole('region', { name: 'Ungrouped' })
  await expect(ungrouped).toContainText('SMS relay')
  await expect(ungrouped).toContainText('Unknown (no data)')
  // A field the app has no name for is still shown.
  await expect(preview.getByLabel('More fields of the page')).toContainText('hideExternalBranding')

  // The strip: one bar per check, each named; the numbers as text.
  const strip = preview.getByRole('group', { name: /^Health history of Storefront: 192 checks/ })
  await expect(strip).toBeVisible()
  const bars = strip.getByRole('img')
  await expect(bars).toHaveCount(192)
  const counts = preview.getByLabel('Counts for Storefront')
  await expect(counts).toContainText(/\d+ operational/)
  await expect(counts).toContainText(/\d+ slow/)
  const countsText = (await counts.textContent()) ?? ''
  const counted = [...countsText.matchAll(/(\d+) (?!slow)[a-z]/g)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  )
  expect(counted).toBe(192)

  // One Tab stop: the newest check; arrows move, a tooltip says when and what.
  const newest = bars.last()
  await newest.focus()
  await expect(newest).toBeFocused()
  const tooltip = preview.getByRole('tooltip')
  await expect(tooltip).toBeVisible()
  const newestLabel = (await newest.getAttribute('aria-label')) ?? ''
  await expect(tooltip).toHaveText(newestLabel)
  await page.keyboard.press('ArrowLeft')
  await expect(bars.nth(190)).toBeFocused()
  await expect(tooltip).toHaveText((await bars.nth(190).getAttribute('aria-label')) ?? '')
  await page.keyboard.press('Home')
  await expect(bars.first()).toBeFocused()
  await expect(bars.first()).toHaveAttribute('tabindex', '0')
  await expect(bars.nth(1)).toHaveAttribute('tabindex', '-1')
  // Every check as text, in a table.
  await preview.getByText('Each check of Storefront as text').click()
  const table = preview.getByRole('table', { name: 'Health checks of Storefront' })
  await expect(table.getByRole('row')).toHaveCount(193)
  // Search had an incident of outage: some of its checks say so, and one of the slow marks.
  await expect(
    preview.getByRole('group', { name: /^Health history of Search/ }).getByRole('img', {
      name: /Outage$/,
    }),
  ).not.toHaveCount(0)
  await expect(preview.getByRole('img', { name: /, slow$/ }).first()).toBeAttached()

  // Incidents: their message, severity, and updates with time, status and message.
  const incident = preview.getByRole('article', { name: 'Incident: Elevated error rate on search' })
  await expect(incident).toContainText('Some catalogue searches fail with a timeout.')
  await expect(incident).toContainText(/Affects: .*Search/)
  const updates = incident.getByRole('list', { name: 'Updates' })
  await expect(updates.getByRole('listitem')).toHaveCount(2)
  await expect(updates.getByRole('listitem').first()).toContainText('identified')
  await expect(updates.getByRole('listitem').first()).toContainText(
    'A reindex overloaded one search shard',
  )
  await expect(updates.getByRole('listitem').first()).toContainText(/UTC[+-]\d\d:\d\d/)
  await page.screenshot({ path: testInfo.outputPath('status-page.png'), fullPage: true })
})

for (const scheme of ['light', 'dark'] as const) {
  test(`the status page with its strips passes axe in the ${scheme} scheme`, async ({
    page,
    staging,
  }, testInfo) => {
    // axe reads every bar of seven strips (1,345 named elements) on shared cores.
    test.setTimeout(240_000)
    await page.emulateMedia({ colorScheme: scheme })
    await openOps(staging)
    await openScreen(page, 'Status page')
    const preview = page.getByRole('region', { name: 'Status page preview' })
    await expect(preview.getByRole('group', { name: /^Health history of / }).first()).toBeVisible()
    // A tooltip open, as a keyboard user sees it.
    await preview
      .getByRole('group', { name: /^Health history of Storefront/ })
      .getByRole('img')
      .last()
      .focus()
    await expect(preview.getByRole('tooltip')).toBeVisible()
    expect(await severeContentViolations(page, `Status page (${scheme})`)).toEqual([])
    await page.screenshot({
      path: testInfo.outputPath(`status-page-${scheme}.png`),
      fullPage: true,
    })
  })
}
