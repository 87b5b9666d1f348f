import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect } from './support/fixtures'
import { openCertificates, selectCertificate } from './support/certificates'
import { clipboardText, linesOf } from './support/page-reads'
import { volumeArchiveLabel } from '../../src/shared/volume-archive-label'
import {
  announced,
  finishedExports,
  lastFinishedExport,
  seededVolume,
  sha256OfFile,
  startExport,
  test,
} from './support/volumes'

/*
 * What a transfer row offers: web mode's "Download to this browser" (the host serves
 * the file once, as an attachment), a one-line hash with Copy, a row whose file was removed
 * says so, and a volume download that failed offers Retry.
 */

async function openTransfers(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Transfers/ })
    .click()
  return page.getByRole('table', { name: 'Transfers' })
}

test('a finished export downloads to this browser once; a removed file is said to be gone', async ({
  page,
  staging: { sandbox },
  downloads,
}) => {
  const volume = await seededVolume(sandbox, 'backups-nightly')
  const expected = await announced(sandbox, volume)
  await startExport(page, volume)
  await expect(finishedExports(page).getByRole('article').first()).toHaveAttribute(
    'data-state',
    'completed',
  )

  const table = await openTransfers(page)
  const row = table.getByRole('row').filter({ hasText: volume.name })
  await expect(row).toHaveCount(1)
  // The hash on one line, whole in its tooltip and on the clipboard.
  const hash = row.getByTestId('transfer-sha256')
  await expect(hash).toHaveAttribute('title', expected.sha256)
  expect(await linesOf(hash)).toBe(1)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  await row
    .getByRole('button', { name: `Copy the SHA-256 of ${volumeArchiveLabel(volume)}` })
    .click()
  await expect(row.getByRole('status')).toHaveText('SHA-256 copied')
  const copied = await clipboardText(page)
  expect(copied).toBe(expected.sha256)

  // Served by the host to the browser, as a download: the same bytes.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row
      .getByRole('button', { name: `Download ${volumeArchiveLabel(volume)} to this browser` })
      .click(),
  ])
  expect(download.suggestedFilename()).toBe(`${volume.name}.tar.gz`)
  const saved = test.info().outputPath('downloaded.tar.gz')
  await download.saveAs(saved)
  expect(await sha256OfFile(saved)).toBe(expected.sha256)
  // The address it came from was good once.
  const again = await page.request.get(download.url())
  expect(again.status()).toBe(410)

  // The file removed from the host's disk: the row says so and offers nothing to fetch.
  await rm(path.join(downloads.dir, `${volume.name}.tar.gz`))
  await page.reload()
  const reloaded = (await openTransfers(page)).getByRole('row').filter({ hasText: volume.name })
  await expect(reloaded.getByTestId('transfer-missing')).toHaveText(/no longer on disk/)
  await expect(reloaded.getByRole('button', { name: /to this browser/ })).toHaveCount(0)
})

test('a failed volume download offers Retry, which exports it again', async ({
  page,
  staging: { sandbox },
  downloads,
}) => {
  const volume = await seededVolume(sandbox, 'grafana-data')
  // The folder is gone when the export starts: it fails; back in place, Retry succeeds.
  await rm(downloads.dir, { recursive: true, force: true })
  await startExport(page, volume)
  const failed = lastFinishedExport(page)
  await expect(failed).toHaveAttribute('data-state', 'failed')
  await mkdir(downloads.dir)

  const table = await openTransfers(page)
  const rows = table.getByRole('row').filter({ hasText: volume.name })
  await expect(rows).toHaveCount(1)
  await rows.getByRole('button', { name: `Retry ${volumeArchiveLabel(volume)}` }).click()
  await expect(rows).toHaveCount(2)
  const retried = rows.first()
  await expect(retried).toContainText('Completed')
  await expect(rows.nth(1)).toContainText('Failed')
  expect(await sha256OfFile(path.join(downloads.dir, `${volume.name}.tar.gz`))).toBe(
    (await announced(sandbox, volume)).sha256,
  )
})

test('every file an export writes offers the same: download to this browser, copy its path, a row in Transfers', async ({
  page,
  downloads,
}) => {
  /**
   * `where` offers "Copy the path of <what>" and "Download <what> to this browser"; the download's
   * bytes are those of `file`.
   */
  async function offersCopyAndDownload(where: Locator, what: string, file: string) {
    await expect(where.getByRole('button', { name: `Copy the path of ${what}` })).toBeVisible()
    const button = where.getByRole('button', { name: `Download ${what} to this browser` })
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()])
    expect(download.suggestedFilename()).toBe(path.basename(file))
    const copy = test.info().outputPath(`browser-${path.basename(file)}`)
    await download.saveAs(copy)
    expect(await sha256OfFile(copy)).toBe(await sha256OfFile(file))
  }

  // The certificate Export dialog: the file's hash said as such, and the same actions.
  await openCertificates(page)
  await selectCertificate(page, 'www-northwind')
  await page.getByRole('button', { name: 'Export…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Export “www-northwind”' })
  await dialog.getByRole('button', { name: 'Save to downloads' }).click()
  const saved = dialog.getByRole('status', { name: 'Saved' })
  const certificateFile = (await saved.locator('code').textContent()) ?? ''
  await expect(saved).toContainText(`File SHA-256 ${await sha256OfFile(certificateFile)}`)
  await offersCopyAndDownload(saved, 'www-northwind (pem)', certificateFile)
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click()

  // The Expiring list's CSV, likewise.
  await page.keyboard.press('Alt+0')
  await page.getByRole('link', { name: /All expiring certificates/ }).click()
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const exported = page.getByRole('status', { name: 'Export saved' })
  await expect(exported).toContainText('File SHA-256')
  const csvFile = /to (.+\.csv) \(/.exec((await exported.textContent()) ?? '')?.[1] ?? ''
  expect(path.dirname(csvFile)).toBe(downloads.dir)
  await offersCopyAndDownload(exported, 'the Expiring CSV', csvFile)

  // Both are rows of the Transfers log.
  const table = await openTransfers(page)
  await expect(table.getByRole('row').filter({ hasText: 'www-northwind (pem)' })).toHaveCount(1)
  await expect(
    table.getByRole('row').filter({ hasText: 'Expiring certificates (CSV' }),
  ).toHaveCount(1)
})
