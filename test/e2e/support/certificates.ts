import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import type { ExportFormat } from '../../../src/shared/api'
import { EXPORT_FORMAT_INFO } from '../../../src/shared/bridge'
import { sha256Hex } from '../../support/tools'
import { expect } from './fixtures'

/*
 * Steps the certificate specs share: open the screen, find a row, export through the dialog.
 */

export function certificateGrid(page: Page) {
  return page.getByRole('grid', { name: 'Certificates' })
}

/** The row whose name cell reads exactly `name`. */
export function certificateRow(page: Page, name: string) {
  return certificateGrid(page)
    .getByRole('row')
    .filter({ has: page.getByText(name, { exact: true }) })
}

export async function openCertificates(page: Page): Promise<void> {
  await page.getByRole('link', { name: /^Certificates/ }).click()
  await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible()
  await expect(certificateGrid(page)).toBeVisible()
}

/** Narrows the list by the search box and selects the one certificate named `name`. */
export async function selectCertificate(page: Page, name: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search' }).fill(name)
  const row = certificateRow(page, name)
  await expect(row).toHaveCount(1)
  await row.click()
  await expect(row).toHaveAttribute('aria-selected', 'true')
}

/** A format's choice in the Export dialog (its name starts with the format's label). */
export function exportFormatRadio(dialog: Locator, format: ExportFormat) {
  const label = EXPORT_FORMAT_INFO[format].label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return dialog.getByRole('radio', { name: new RegExp(`^${label} `) })
}

/**
 * Exports the selected certificate `name` in `format` through the Export dialog (the format's
 * description shown, the passphrase typed twice where it takes one) into the downloads folder
 * `downloadsDir`: the file is there and hashes to the SHA-256 the dialog reported, and the
 * dialog is closed. The saved file's path.
 */
export async function exportThroughDialog(
  page: Page,
  { name, format, passphrase, downloadsDir }: ExportRequest,
): Promise<string> {
  const info = EXPORT_FORMAT_INFO[format]
  await page.getByRole('button', { name: 'Export…' }).click()
  const dialog = page.getByRole('dialog', { name: `Export “${name}”` })
  // Every format says what its file holds.
  await expect(dialog.getByText(info.description)).toBeVisible()
  await exportFormatRadio(dialog, format).check()
  if (info.passphrase !== 'none') {
    await dialog.getByLabel(/^Passphrase( \(optional\))?$/).fill(passphrase)
    await dialog.getByLabel('Passphrase again').fill(passphrase)
  }
  await dialog.getByRole('button', { name: 'Save to downloads' }).click()
  const status = dialog.getByRole('status', { name: 'Saved' })
  await expect(status).toBeVisible()
  const file = (await status.locator('code').textContent()) ?? ''
  expect(path.dirname(file)).toBe(downloadsDir)
  // The reported hash is the hash of the bytes on disk.
  await expect(status).toContainText(`SHA-256 ${sha256Hex(await readFile(file))}`)
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click()
  await expect(dialog).toBeHidden()
  return file
}

export interface ExportRequest {
  /** The selected certificate's name, which the dialog names. */
  name: string
  format: ExportFormat
  /** Typed where the format takes a passphrase. */
  passphrase: string
  downloadsDir: string
}
