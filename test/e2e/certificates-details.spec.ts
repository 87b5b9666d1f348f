import type { Locator } from '@playwright/test'
import { certificateRow, openCertificates, selectCertificate } from './support/certificates'
import { expect, test } from './support/fixtures'
import { clipboardText, linesOf } from './support/page-reads'
import { sandboxSeed } from './support/seed'

/*
 * The certificate details pane (issue 20): dates on one line, serial and SHA-256 whole with
 * Copy, no fact shown twice (service fields that repeat the certificate folded away), and the
 * folder read again after a move.
 */

/** True when the element shows all of its text (nothing cut off at its edges). */
async function showsWhole(locator: Locator): Promise<boolean> {
  return locator.evaluate(
    (element) =>
      element.scrollWidth <= element.clientWidth + 1 &&
      element.scrollHeight <= element.clientHeight + 1,
  )
}

/** The value cell of the service field `key` among the fields in view. */
function serviceField(details: Locator, key: string) {
  return details
    .getByTestId('cert-service-fields')
    .first()
    .locator('div')
    .filter({ has: details.page().getByText(key, { exact: true }) })
    .locator('dd')
}

test('details: whole values with Copy, dates on one line, each fact once, folder after a move', async ({
  page,
  staging: { sandbox },
}) => {
  const seed = await sandboxSeed(sandbox)
  const staging = seed.certificateFolderTree.find(
    (folder) => folder.name === 'Staging' && folder.parentId === null,
  )
  if (!staging) throw new Error('no seeded Staging folder')
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await openCertificates(page)
  await selectCertificate(page, 'docs-portal')
  const details = page.getByRole('complementary', { name: 'Certificate details' })
  await expect(details.getByRole('heading', { name: 'docs-portal' })).toBeVisible()

  // Serial and fingerprint: whole, and copied whole.
  const serial = details.getByTestId('cert-serial')
  const fingerprint = details.getByTestId('cert-fingerprint')
  await expect(fingerprint).toHaveText(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/)
  expect(await showsWhole(serial)).toBe(true)
  expect(await showsWhole(fingerprint)).toBe(true)
  await details.getByRole('button', { name: 'Copy the serial of docs-portal' }).click()
  expect(await clipboardText(page)).toBe((await serial.textContent())?.trim())
  await details.getByRole('button', { name: 'Copy the SHA-256 fingerprint of docs-portal' }).click()
  expect(await clipboardText(page)).toBe((await fingerprint.textContent())?.trim())

  // Dates are never broken mid-string.
  const dates = details.locator('time')
  expect(await dates.count()).toBeGreaterThanOrEqual(2)
  for (const date of await dates.all()) {
    if (await date.isVisible()) expect(await linesOf(date), await date.innerText()).toBe(1)
  }

  // Each fact once: the service's copies of certificate facts are folded away, not in view.
  const inView = details.getByTestId('cert-service-fields').first()
  for (const repeated of ['serialNumber', 'fingerprintSha256', 'notAfter', 'subject', 'issuer']) {
    await expect(inView.getByText(repeated, { exact: true })).toBeHidden()
  }
  const folded = details.locator('details.cert-repeated')
  await expect(folded).not.toHaveAttribute('open')
  await folded.locator('summary').click()
  await expect(folded.getByText('fingerprintSha256', { exact: true })).toBeVisible()

  // The folder after a move: read again, not the old "—".
  await expect(serviceField(details, 'folderId')).toHaveText('—')
  await page.getByRole('button', { name: 'Move to folder…' }).click()
  const moveDialog = page.getByRole('dialog', { name: 'Move 1 certificate to a folder' })
  await moveDialog.getByLabel('Destination folder', { exact: true }).selectOption(staging.id)
  await moveDialog.getByRole('button', { name: 'Move', exact: true }).click()
  await expect(moveDialog).toBeHidden()
  // Still selected: the pane reads the moved certificate by itself.
  await expect(certificateRow(page, 'docs-portal')).toHaveAttribute('aria-selected', 'true')
  await expect(serviceField(details, 'folderId')).toHaveText(staging.id)
  await expect(serviceField(details, 'folderPath')).toHaveText('Staging')
})
