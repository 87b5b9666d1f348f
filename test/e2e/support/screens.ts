import type { Page } from '@playwright/test'
import { ROUTE_INFO, type Route } from '../../../src/renderer/src/app/routes'
import { expect } from './fixtures'

/**
 * Goes to a screen the way a bookmark or the palette does (the hash), and waits until it shows
 * its title and has nothing left loading.
 */
export async function openScreen(page: Page, route: Route): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#/${route}`)}`)
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible()
  await expect(
    page.getByRole('link', { name: new RegExp(ROUTE_INFO[route].label) }),
  ).toHaveAttribute('aria-current', 'page')
  await expect(main.getByRole('status').filter({ hasText: /Loading|…$/ })).toHaveCount(0)
}
