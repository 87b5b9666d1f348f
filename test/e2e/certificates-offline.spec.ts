import { bridgeCall } from './support/bridge'
import { certificateGrid, certificateRow, openCertificates } from './support/certificates'
import { expect, test } from './support/fixtures'

/*
 * The certificate list from the SQLite cache with the service gone: a restart of the app with
 * the sandbox stopped shows the cached rows under the offline banner, the filters work on the
 * cache, and actions that need the service say so.
 */

test('offline: with the sandbox stopped, the cached certificate list is shown', async ({
  page,
  startApp,
  dataDir,
  staging: { sandbox, app: first },
}) => {
  await openCertificates(page)
  // Sorted by name, the first row; the list is virtualised, so later rows are not in the DOM.
  await expect(certificateRow(page, 'api-gateway')).toHaveCount(1)
  const { activeId } = await bridgeCall(page, 'profiles.list')
  const cached = await bridgeCall(page, 'certificates.cached', { profileId: activeId })
  expect(cached.fetchedAt).not.toBeNull()
  expect(cached.rows.length).toBeGreaterThan(30)

  await page.goto('about:blank')
  await first.stop()
  await sandbox.stop()

  const second = await startApp(dataDir)
  await page.goto(second.url)
  await openCertificates(page)
  await expect(page.getByRole('status', { name: 'Offline' })).toContainText(
    /Offline — showing data from/,
  )
  await expect(page.getByLabel('Counts')).toContainText(`${cached.rows.length} certificates`)
  await expect(certificateRow(page, 'api-gateway')).toHaveCount(1)

  // Filters apply to the cache: search, then status.
  await page.getByRole('searchbox', { name: 'Search' }).fill('www.northwind')
  await expect(certificateRow(page, 'legacy-intranet')).toHaveCount(0)
  await expect(certificateRow(page, 'www-northwind')).toHaveCount(1)
  await expect(page.getByLabel('Counts')).toContainText('2 certificates')
  await page.getByRole('searchbox', { name: 'Search' }).fill('')
  await page.getByLabel('Status').selectOption('expired')
  await expect(certificateRow(page, 'ci-runners')).toHaveCount(1)
  await expect(certificateRow(page, 'www-northwind')).toHaveCount(0)
  await expect(certificateGrid(page).locator('.cert-expiry-ok')).toHaveCount(0)

  // The details pane shows the cached fields; actions that need the service are unavailable.
  await certificateRow(page, 'ci-runners').click()
  const details = page.getByRole('complementary', { name: 'Certificate details' })
  await expect(details).toContainText('ci.internal.northwind')
  await expect(details).toContainText('Offline: the certificate itself cannot be read now.')
  for (const name of ['Upload…', 'Export…', 'Move to folder…', 'Move folder…']) {
    await expect(page.getByRole('button', { name })).toBeDisabled()
  }
  await page.screenshot({ path: test.info().outputPath('certificates-offline.png') })
})
