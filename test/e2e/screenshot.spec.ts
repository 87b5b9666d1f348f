import path from 'node:path'
import { repoRoot } from './support/child'
import { expect, exploreLocalSandbox, test } from './support/fixtures'

test.use({ viewport: { width: 1280, height: 800 } })

test('docs/sessions.png: the sessions screen', async ({ page, startApp }) => {
  const app = await startApp()
  await page.goto(app.url)
  await exploreLocalSandbox(page)
  await expect(page.getByText(/^Updated /)).toBeVisible()
  // Park the pointer away from the table so no row shows its hover colour.
  await page.mouse.move(1270, 790)
  await page.screenshot({ path: path.join(repoRoot, 'docs', 'sessions.png') })
})
