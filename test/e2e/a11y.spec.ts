import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { ROUTES } from '../../src/renderer/src/app/routes'
import { connectStagingToSandbox, expect, test } from './support/fixtures'
import { openScreen } from './support/screens'

/*
 * axe-core over every screen of the route registry (and the first-run screen, the palette and
 * the migration dialog), in the light and the dark theme: no serious or critical violation.
 */

const BLOCKING = new Set(['serious', 'critical'])

async function blockingViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map(
      (violation) =>
        `${where}: ${violation.impact} ${violation.id} — ${violation.help} — ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    )
}

test('every screen, in both themes, has no serious or critical axe violation', async ({
  page,
  startApp,
  startSandbox,
}) => {
  test.setTimeout(300_000)
  const [sandbox, app] = await Promise.all([startSandbox(), startApp()])
  const found: string[] = []

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    if (theme === 'light') {
      await page.goto(app.url)
      await expect(page.getByRole('button', { name: 'Explore the local sandbox' })).toBeVisible()
      found.push(...(await blockingViolations(page, `welcome (${theme})`)))
      await connectStagingToSandbox(page, sandbox)
    }
    for (const route of ROUTES) {
      await openScreen(page, route)
      found.push(...(await blockingViolations(page, `${route} (${theme})`)))
    }

    await page.keyboard.press('Control+K')
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible()
    found.push(...(await blockingViolations(page, `palette (${theme})`)))
    await page.keyboard.press('Escape')

    await openScreen(page, 'migrations')
    await page.getByRole('button', { name: 'Resolve a migration…' }).click()
    await expect(page.getByRole('dialog', { name: 'Resolve a migration' })).toBeVisible()
    found.push(...(await blockingViolations(page, `resolve dialog (${theme})`)))
    await page.keyboard.press('Escape')
  }

  expect(found, found.join('\n')).toEqual([])
})
