import type { Page } from '@playwright/test'
import { isRoute, ROUTE_INFO, ROUTES, type Route } from '../../../src/renderer/src/app/routes'
import { expect } from './fixtures'

/**
 * Goes to a screen the way a bookmark or the palette does (the hash), and waits until it shows
 * its title and has nothing left loading. `screen` is the route or its label in the navigation
 * ("Deployments", "App members").
 */
export async function openScreen(page: Page, screen: Route | string): Promise<void> {
  const route = routeOf(screen)
  // Once is enough: the app follows the address from the moment it loads, also before it has
  // painted its first screen (src/renderer/src/app/store.ts; e2e deep-links.spec).
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#/${route}`)}`)
  await expect(
    page.getByRole('link', { name: new RegExp(ROUTE_INFO[route].label) }),
  ).toHaveAttribute('aria-current', 'page')
  const main = page.getByRole('main')
  await expect(main.getByRole('heading', { level: 1 }).first()).toBeVisible()
  await expect(main.getByRole('status').filter({ hasText: /Loading|…$/ })).toHaveCount(0)
}

function routeOf(screen: string): Route {
  if (isRoute(screen)) return screen
  const route = ROUTES.find((candidate) => ROUTE_INFO[candidate].label === screen)
  if (route === undefined) throw new Error(`no screen is labelled "${screen}"`)
  return route
}
