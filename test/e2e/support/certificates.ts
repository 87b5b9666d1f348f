import type { Page } from '@playwright/test'
import { expect } from './fixtures'

/*
 * Steps the certificate specs share: open the screen, find a row.
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
