import path from 'node:path'
import { repoRoot } from './support/child'
import { expect, exploreLocalSandbox, test } from './support/fixtures'

test.use({ viewport: { width: 1280, height: 800 } })

// The README's screenshot. Every run writes it under test-results/ so it can be looked at;
// `INFRADESK_UPDATE_DOCS=1 npm run test:e2e` also refreshes docs/sessions.png, so that an
// ordinary test run never leaves the checkout modified.
test('docs/sessions.png: the sessions screen', async ({ page, startApp }) => {
  const app = await startApp()
  await page.goto(app.url)
  await exploreLocalSandbox(page)
  await expect(page.getByText(/^Updated /)).toBeVisible()
  // Park the pointer away from the table so no row shows its hover colour.
  await page.mouse.move(1270, 790)
  const target =
    process.env.INFRADESK_UPDATE_DOCS === '1'
      ? path.join(repoRoot, 'docs', 'sessions.png')
      : path.join(repoRoot, 'test-results', 'sessions.png')
  await page.screenshot({ path: target })
})
