import { z } from 'zod'
import { startTsxChild } from './support/child'
import { certificateGrid, openCertificates } from './support/certificates'
import { connectStagingToSandbox, expect, test } from './support/fixtures'

/*
 * The list at scale: a sandbox started with `--certificates 3000`. The grid announces every row
 * (aria-rowcount) but keeps only the visible ones in the DOM; the keyboard reaches the last row
 * and selects them all. (How smooth it feels is a figure for `npm run bench`, not a test.)
 */

const COUNT = 3000

test('3,000 certificates: virtualised rows, keyboard to the end, select all', async ({
  page,
  startApp,
}) => {
  test.setTimeout(180_000)
  const sandbox = await startTsxChild({
    script: 'src/sandbox/cli.ts',
    args: ['--port', '0', '--certificates', String(COUNT)],
    readyPrefix: 'SANDBOX_READY',
    readySchema: z.looseObject({
      url: z.url(),
      tokens: z.object({ admin: z.string(), viewer: z.string() }),
    }),
  })
  try {
    const app = await startApp()
    await page.goto(app.url)
    await connectStagingToSandbox(page, {
      url: sandbox.ready.url.replace(/\/+$/, ''),
      tokens: sandbox.ready.tokens,
    })
    await openCertificates(page)
    await page.getByRole('checkbox', { name: 'Show system certificates' }).check()
    const grid = certificateGrid(page)
    await expect(grid).toHaveAttribute('aria-rowcount', String(COUNT + 1), { timeout: 90_000 })
    await expect(page.getByLabel('Counts')).toContainText(`${COUNT} certificates`)
    const rendered = await grid.locator('[role=row][aria-rowindex]').count()
    expect(rendered).toBeGreaterThan(5)
    expect(rendered).toBeLessThan(80)

    // Keyboard: first row, End to the last (rendered once scrolled to), Ctrl+A selects all.
    const body = grid.locator('[role=rowgroup][tabindex="0"]')
    await grid.locator('[role=row][aria-rowindex="2"]').click()
    await body.press('End')
    const last = grid.locator(`[role=row][aria-rowindex="${COUNT + 1}"]`)
    await expect(last).toHaveAttribute('aria-selected', 'true')
    await expect(last).toBeInViewport()
    await body.press('Shift+Home')
    await expect(page.getByLabel('Counts')).toContainText(`${COUNT} selected`)
    await body.press('Escape')
    await expect(page.getByLabel('Counts')).not.toContainText('selected')
    await body.press('Control+a')
    await expect(page.getByLabel('Counts')).toContainText(`${COUNT} selected`)
    expect(await grid.locator('[role=row][aria-rowindex]').count()).toBeLessThan(80)

    // Sorting by expiry puts the longest-expired first.
    await grid.getByRole('button', { name: 'Expires' }).click()
    await expect(grid.getByRole('columnheader', { name: 'Expires' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    )
    await expect(grid.locator('[role=row][aria-rowindex="2"] .cert-expiry')).toHaveText(/^Expired/)

    // Opened on this screen, the app asks for the active profile's first screenful with its
    // first calls: 100 rows in the default order, with how many the list holds. Then
    // the whole list replaces them, the same rows first.
    await page.goto(new URL('/#/certificates', app.url).href)
    const firstScreenful = page.waitForResponse((response) =>
      response.url().endsWith('/certificates.firstScreenful'),
    )
    await page.reload()
    const early = (await (await firstScreenful).json()) as {
      ok: boolean
      value: { list: { rows: { name: string }[]; firstOf?: number } | null }
    }
    expect(early.ok).toBe(true)
    const screenful = early.value.list
    expect(screenful?.rows).toHaveLength(100)
    const listed = screenful?.firstOf ?? 0
    expect(listed).toBeGreaterThan(COUNT / 2)
    await expect(grid).toHaveAttribute('aria-rowcount', String(listed + 1), { timeout: 90_000 })
    await expect(page.getByLabel('Counts')).toContainText(`${listed} certificates`)
    await expect(page.getByLabel('Counts')).toContainText('expired')
    await expect(grid.locator('[role=row][aria-rowindex="2"] .cert-name')).toHaveText(
      screenful?.rows[0]?.name ?? '',
    )
  } finally {
    await sandbox.stop()
  }
})
