import { expect, profileSwitcher, test } from './support/fixtures'

test('a 401 asks for a new token over the current screen, without losing the place', async ({
  page,
  staging: { sandbox },
}) => {
  await page.getByRole('link', { name: /Inference models/ }).click()
  await expect(page.getByRole('table', { name: 'Inference models' })).toBeVisible()
  await page.getByRole('searchbox', { name: 'Search models by ID' }).fill('instruct')

  // Someone ends the session elsewhere: the service revokes the token (op 2, outside the app).
  const revoked = await fetch(`${sandbox.url}/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  expect(revoked.status).toBe(200)

  await page.getByRole('button', { name: 'Refresh' }).click()
  const dialog = page.getByRole('dialog', { name: 'Sign in to Staging' })
  await expect(dialog).toBeVisible()
  await expect(profileSwitcher(page)).toContainText('Signed out')

  // A wrong token keeps the dialog open and says why.
  await dialog.getByLabel('New access token').fill(sandbox.tokens.admin)
  await dialog.getByRole('button', { name: 'Sign in' }).click()
  await expect(dialog.getByRole('alert')).toContainText('UNAUTHORIZED')

  await dialog.getByLabel('New access token').fill(sandbox.tokens.viewer)
  await dialog.getByRole('button', { name: 'Sign in' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(profileSwitcher(page)).toContainText('Signed in')
  // Same screen, same search, fresh data.
  await expect(page.getByRole('heading', { name: 'Inference models' })).toBeVisible()
  await expect(page.getByRole('searchbox', { name: 'Search models by ID' })).toHaveValue('instruct')
  await expect(page.getByRole('table', { name: 'Inference models' })).toContainText('instruct')
})
