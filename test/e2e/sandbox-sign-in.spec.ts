import { expect, openLocalSandbox, profileSwitcher, sessionsTable, test } from './support/fixtures'

test('log out of the local sandbox, then sign in to it again without typing a token', async ({
  page,
  startApp,
}) => {
  await openLocalSandbox(page, startApp)
  const table = sessionsTable(page)

  await page.getByRole('button', { name: 'Log out' }).click()
  await page
    .getByRole('dialog', { name: 'Log out of Local sandbox?' })
    .getByRole('button', { name: 'Log out' })
    .click()
  const loggedOut = page.getByRole('status').filter({ hasText: 'Logged out of Local sandbox' })
  await expect(loggedOut).toBeVisible()
  // The sandbox names a browser sign-out page; with no desktop here it is shown, not opened.
  await expect(loggedOut).toContainText('https://')
  await expect(profileSwitcher(page)).toContainText('Signed out')

  await page.getByRole('button', { name: 'Sign in…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Sign in to Local sandbox' })
  await dialog.getByRole('button', { name: 'Sign in to the sandbox' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(profileSwitcher(page)).toContainText('Signed in')
  await expect(table.getByText('This session', { exact: true })).toHaveCount(1)
  await expect(page.getByText('Signed out of Local sandbox')).toHaveCount(0)
})
