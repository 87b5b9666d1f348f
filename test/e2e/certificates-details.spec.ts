import type { Locator } from '@playwright/test'
import { certificateRow, openCertificates, selectCertificate } from './support/certificates'
import { bridgeCall } from './support/bridge'
import { addProfileFromSwitcher, expect, profileSwitcher, test } from './support/fixtures'
import { clipboardText, linesOf } from './support/page-reads'
import { openScreen } from './support/screens'
import { sandboxSeed } from './support/seed'

/*
 * The certificate details pane: dates on one line, serial and SHA-256 whole with
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

/** A pattern matching exactly `text`. */
function wholeText(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
}

/** The value cell of the service field labelled `label` among the fields in view. */
function serviceField(details: Locator, label: string) {
  return details
    .getByTestId('cert-service-fields')
    .first()
    .locator('div')
    .filter({ has: details.page().locator('dt', { hasText: wholeText(label) }) })
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
  for (const repeated of ['Serial', 'SHA-256 fingerprint', 'Valid until', 'Subject', 'Issuer']) {
    await expect(inView.getByText(repeated, { exact: true })).toBeHidden()
  }
  const folded = details.locator('details.cert-repeated')
  await expect(folded).not.toHaveAttribute('open')
  await folded.locator('summary').click()
  await expect(folded.getByText('SHA-256 fingerprint', { exact: true })).toBeVisible()

  // The service's fields in words, its own key in the tooltip; no raw key in view.
  await expect(serviceField(details, 'System certificate')).toHaveText('No')
  await expect(serviceField(details, 'Private key held')).toHaveText('Yes')
  await expect(inView.locator('dt', { hasText: wholeText('Private key held') })).toHaveAttribute(
    'title',
    /hasPrivateKey/,
  )
  for (const raw of ['folderId', 'isSystem', 'hasPrivateKey', 'folderPath']) {
    await expect(inView.getByText(raw, { exact: true })).toHaveCount(0)
  }

  // The folder after a move: read again, not the old "—".
  await expect(serviceField(details, 'Folder id')).toHaveText('—')
  await page.getByRole('button', { name: 'Move to folder…' }).click()
  const moveDialog = page.getByRole('dialog', { name: 'Move 1 certificate to a folder' })
  await moveDialog.getByLabel('Destination folder', { exact: true }).selectOption(staging.id)
  await moveDialog.getByRole('button', { name: 'Move', exact: true }).click()
  await expect(moveDialog).toBeHidden()
  // Still selected: the pane reads the moved certificate by itself.
  await expect(certificateRow(page, 'docs-portal')).toHaveAttribute('aria-selected', 'true')
  await expect(serviceField(details, 'Folder id')).toHaveText(staging.id)
  await expect(serviceField(details, 'Folder')).toHaveText('Staging')
})

test('each profile keeps its own search; a link opens with its own filter; hidden system certificates are counted', async ({
  page,
  staging: { sandbox },
}) => {
  // A second profile on the same service: the same certificates, a filter of its own.
  await addProfileFromSwitcher(page, {
    name: 'Second',
    baseUrl: sandbox.url,
    token: sandbox.tokens.admin,
  })
  await expect(profileSwitcher(page)).toContainText('Second')
  const { profiles } = await bridgeCall(page, 'profiles.list')
  for (const profile of profiles) {
    await bridgeCall(page, 'certificates.refresh', {
      profileId: profile.id,
      filter: { showSystem: true },
    })
  }
  const second = profiles.find((profile) => profile.name === 'Second')
  const every = await bridgeCall(page, 'certificates.cached', {
    profileId: second?.id ?? '',
    filter: { showSystem: true },
  })
  const system = every.rows.filter((row) => row.isSystem).length
  expect(system).toBeGreaterThan(0)

  // System certificates hidden by default, and said so: the two numbers add up to all cached.
  await openCertificates(page)
  const counts = page.getByLabel('Counts')
  await expect(counts).toContainText(
    `${every.rows.length - system} certificates shown${system} system hidden`,
  )
  await counts.getByRole('button', { name: 'Show' }).click()
  await expect(page.getByRole('checkbox', { name: 'Show system certificates' })).toBeChecked()
  await expect(counts).toContainText(`${every.rows.length} certificates`)
  await expect(counts).not.toContainText('hidden')

  // A search typed for Second stays with Second.
  const search = page.getByRole('searchbox', { name: 'Search' })
  await search.fill('northwind')
  await profileSwitcher(page).click()
  await page.getByRole('menuitemradio', { name: /Staging/ }).click()
  await expect(profileSwitcher(page)).toContainText('Staging')
  await expect(search).toHaveValue('')
  await expect(page.getByRole('checkbox', { name: 'Show system certificates' })).not.toBeChecked()
  await profileSwitcher(page).click()
  await page.getByRole('menuitemradio', { name: /Second/ }).click()
  await expect(profileSwitcher(page)).toContainText('Second')
  await expect(search).toHaveValue('northwind')

  // The Overview's link to Staging's certificates opens Staging's own filter, not Second's; a
  // figure opens with its own (every certificate that expired, no search).
  await openScreen(page, 'overview')
  const table = page.getByRole('table', { name: 'Profiles' })
  await table
    .locator('tr[data-profile="Staging"]')
    .getByRole('button', { name: 'Staging', exact: true })
    .click()
  await expect(profileSwitcher(page)).toContainText('Staging')
  await expect(search).toHaveValue('')
  await search.fill('docs')
  await openScreen(page, 'overview')
  await table
    .locator('tr[data-profile="Staging"]')
    .getByRole('button', { name: /expired$/ })
    .click()
  await expect(page.getByRole('status', { name: 'Expiry filter' })).toContainText('Expired')
  await expect(search).toHaveValue('')
})
