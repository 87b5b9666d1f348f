import type { Page } from '@playwright/test'
import { certificateGrid } from './support/certificates'
import { expect, sessionsTable, test } from './support/fixtures'

/*
 * A deep link wins over the first screen: the Overview is where the app opens only
 * when the address names no screen. Opened at a screen's address (a bookmark in web mode, a
 * second window), the app lands there and stays; a screen asked for while the app is still
 * starting (nothing on the page yet to follow the address) is where it lands too.
 */

/** The app's address with a route after the launch secret (`#secret=…#/sessions`). */
function at(appUrl: string, route: string): string {
  return `${appUrl}#/${route}`
}

async function expectOn(page: Page, label: RegExp, hash: string): Promise<void> {
  await expect(page.getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toHaveCount(0)
  expect(new URL(page.url()).hash).toBe(hash)
}

test('a second window opened at a screen lands there and stays, with its parameters', async ({
  page,
  staging,
}) => {
  const sessions = await page.context().newPage()
  await sessions.goto(at(staging.app.url, 'sessions'))
  await expect(sessions.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible()
  // The screen has read its rows: whatever the app does once started is behind us.
  await expect(sessionsTable(sessions).getByText('This session', { exact: true })).toHaveCount(1)
  await expectOn(sessions, /^Sessions/, '#/sessions')
  await sessions.close()

  // A screen with parameters: the Certificates filtered to the expired ones (an Overview figure).
  const certificates = await page.context().newPage()
  await certificates.goto(at(staging.app.url, 'certificates?expiry=expired'))
  await expect(certificates.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible()
  await expect(certificateGrid(certificates)).toBeVisible()
  await expect(certificates.getByRole('status', { name: 'Expiry filter' })).toContainText('Expired')
  await expectOn(certificates, /^Certificates/, '#/certificates?expiry=expired')
  await certificates.close()
})

test('a screen asked for while the app is still starting is where it lands', async ({
  page,
  staging,
}) => {
  const other = await page.context().newPage()
  // The profile list held back: the app stays on its splash, with no screen chosen yet.
  let release: () => void = () => undefined
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  await other.route('**/__bridge/invoke/profiles.list', async (route) => {
    await held
    await route.continue()
  })
  await other.goto(staging.app.url)
  await expect(other.getByRole('status').filter({ hasText: 'Starting Infradesk' })).toBeVisible()

  await other.evaluate(`window.location.hash = '#/sessions'`)
  release()
  await expect(other.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible()
  await expect(sessionsTable(other).getByText('This session', { exact: true })).toHaveCount(1)
  await expectOn(other, /^Sessions/, '#/sessions')
  await other.close()
})
