import type { Locator, Page } from '@playwright/test'
import { certificateGrid, openCertificates, selectCertificate } from './support/certificates'
import { expect, test } from './support/fixtures'
import { openScreen } from './support/screens'

/*
 * Layout at the window sizes people use (issue 20), checked by geometry: the sidebar shows every
 * link at 900 px of height, fields side by side line up whatever hints they carry, the Volume
 * export button starts where its fields do, and at 1280×720 the certificate list shows well
 * over ten rows.
 */

async function box(locator: Locator) {
  const found = await locator.boundingBox()
  if (found === null) throw new Error('not rendered')
  return found
}

/** The two inputs labelled `first` and `second` have the same top, to the pixel. */
async function expectInputsAligned(page: Page, first: string, second: string) {
  const [a, b] = [
    await box(page.getByLabel(first, { exact: true })),
    await box(page.getByLabel(second, { exact: true })),
  ]
  expect(Math.abs(a.y - b.y), `${first} at ${a.y}, ${second} at ${b.y}`).toBeLessThanOrEqual(1)
  expect(Math.abs(a.height - b.height)).toBeLessThanOrEqual(1)
}

test('the sidebar shows every link, Settings last, in a window 900 px high', async ({
  page,
  staging: _staging,
}) => {
  const nav = page.getByRole('navigation', { name: 'Main' })
  // 900 px of page, and the ~800 px a 900 px browser window leaves to the page.
  for (const height of [900, 800]) {
    await page.setViewportSize({ width: 1280, height })
    await expect(nav.getByRole('link', { name: /^Settings/ })).toBeInViewport({ ratio: 1 })
    await expect(page.getByText(/^(Web mode|Desktop) · v/)).toBeInViewport({ ratio: 1 })
    // Every link in view without scrolling the navigation.
    expect(
      await nav.evaluate((element) => element.scrollHeight <= element.clientHeight),
      `at ${height} px`,
    ).toBe(true)
  }
})

test.describe('at 1280×900', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test('fields side by side line up, and Export volume starts where its fields do', async ({
    page,
    staging: _staging,
  }) => {
    await openScreen(page, 'proxy-routes')
    await expectInputsAligned(page, 'Proxy host ID', 'Route ID')
    await openScreen(page, 'apps')
    await expectInputsAligned(page, 'App ID', 'Environment ID (optional)')

    await openScreen(page, 'volumes')
    const button = await box(page.getByRole('button', { name: 'Export volume' }))
    const field = await box(page.getByLabel('Node id', { exact: true }))
    expect(
      Math.abs(button.x - field.x),
      `button at ${button.x}, field at ${field.x}`,
    ).toBeLessThanOrEqual(1)
    // One line of text: the note beside it does not stretch it.
    expect(button.height).toBeLessThanOrEqual(40)

    await openCertificates(page)
    await selectCertificate(page, 'www-northwind')
    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Export “www-northwind”' })
    await dialog.getByRole('radio', { name: /^Java keystore / }).check()
    await expectInputsAligned(page, 'Passphrase', 'Passphrase again')
  })
})

test.describe('at 1280×720', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test('the certificate list shows well over ten rows', async ({ page, staging: _staging }) => {
    await openCertificates(page)
    const grid = certificateGrid(page)
    await expect(grid.getByRole('row').nth(14)).toBeAttached()
    const body = await box(page.locator('.cert-grid-body'))
    const bottom = Math.min(body.y + body.height, 720)
    let whole = 0
    for (const row of await grid.getByRole('row').all()) {
      const rowBox = await row.boundingBox()
      // Header row excluded: it sits above the scrolling body.
      if (rowBox !== null && rowBox.y >= body.y && rowBox.y + rowBox.height <= bottom + 0.5) {
        whole += 1
      }
    }
    expect(whole).toBeGreaterThanOrEqual(13)
  })
})
