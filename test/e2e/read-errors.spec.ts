import { expect, test } from './support/fixtures'
import { openScreen } from './support/ops'

/*
 * A screen whose first read fails says so where the read was meant to show: the
 * app's host is stopped under a loaded page, so every read of a screen opened afterwards fails
 * for real, and each screen must show that instead of an empty list that looks like "nothing".
 * Each screen is opened once before, while the host runs: its code is loaded on first use.
 */

const SCREENS = ['Database certificates', 'Nginx templates', 'Logging']

test('a failed read is shown on the screen that asked, not swallowed', async ({
  page,
  staging,
}) => {
  for (const screen of SCREENS) {
    await openScreen(page, screen)
    await expect(page.getByRole('heading', { level: 1, name: screen })).toBeVisible()
  }
  await openScreen(page, 'Sessions')
  await staging.app.stop()

  await openScreen(page, 'Database certificates')
  const rotations = page.getByRole('alert').filter({ hasText: 'Could not read the rotations' })
  await expect(rotations).toBeVisible()
  await expect(rotations).toContainText('did not answer')

  await openScreen(page, 'Nginx templates')
  await expect(
    page.getByRole('alert').filter({ hasText: 'Could not read the template folders' }),
  ).toBeVisible()

  await openScreen(page, 'Logging')
  await expect(
    page.getByRole('alert').filter({ hasText: 'Could not read the environments the app kept' }),
  ).toBeVisible()
})
