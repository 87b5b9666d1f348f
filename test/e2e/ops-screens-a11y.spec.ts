import { severeContentViolations } from './support/axe'
import { expect, test } from './support/fixtures'
import { openOps, openScreen } from './support/ops'

/*
 * The operation screens: no serious or critical axe violation in their own
 * content, in the light and the dark colour scheme, with a screenshot of each (kept with the
 * test's output). The sidebar, the profile switcher and the shared badge palette are the app
 * shell's and the theme's (a11y.spec.ts scans every screen whole); they are left out here.
 */

const SCREENS = [
  'Status page',
  'Deployments',
  'Proxy routes',
  'Storage jobs',
  'Logging',
  'Nginx templates',
  'User folders',
  'Database certificates',
  'App members',
] as const

for (const scheme of ['light', 'dark'] as const) {
  test(`operation screens pass axe in the ${scheme} scheme`, async ({ page, staging }) => {
    // Nine screens, each scanned and photographed: more than one screen's default budget.
    test.setTimeout(240_000)
    await page.emulateMedia({ colorScheme: scheme })
    await openOps(staging)
    for (const screen of SCREENS) {
      await openScreen(page, screen)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      if (screen === 'Status page') {
        await expect(page.getByRole('region', { name: 'Status page preview' })).toBeVisible()
      }
      expect(await severeContentViolations(page, screen)).toEqual([])
      await page.screenshot({
        path: test.info().outputPath(`${screen.toLowerCase().replace(/\s+/g, '-')}-${scheme}.png`),
        fullPage: true,
      })
    }
  })
}
