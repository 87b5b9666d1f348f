import { bridgeCall } from './support/bridge'
import { expect, profileSwitcher, test } from './support/fixtures'
import { keychainSecret } from './support/keychain'

test('log out → confirmation → token gone from the keychain, profile signed out', async ({
  page,
  staging: { sandbox },
}) => {
  const before = await bridgeCall(page, 'profiles.list')
  const profile = before.profiles[0]
  expect(profile).toMatchObject({ name: 'Staging', signedIn: true, tokenStorage: 'keychain' })
  if (!profile) throw new Error('no profile')
  // The token is in the OS keychain under service "Infradesk", account = profile id.
  expect(keychainSecret(profile.id)).toBe(sandbox.tokens.admin)

  // Log out asks first; cancelling changes nothing.
  await page.getByRole('button', { name: 'Log out' }).click()
  const confirm = page.getByRole('dialog', { name: 'Log out of Staging?' })
  await expect(confirm).toContainText('deletes the access token')
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  expect(keychainSecret(profile.id)).toBe(sandbox.tokens.admin)

  await page.getByRole('button', { name: 'Log out' }).click()
  await confirm.getByRole('button', { name: 'Log out' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: 'Logged out' })).toBeVisible()
  await expect(profileSwitcher(page)).toContainText('Signed out')
  await expect(page.getByText('Signed out of Staging')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Log out' })).toBeDisabled()

  const after = await bridgeCall(page, 'profiles.list')
  expect(after.profiles[0]).toMatchObject({ id: profile.id, signedIn: false, tokenStorage: null })
  expect(keychainSecret(profile.id)).toBeNull()

  // The change is in the activity log.
  await page.getByRole('link', { name: /Activity/ }).click()
  const activity = page.getByRole('table', { name: 'Activity' })
  const row = activity.getByRole('row').filter({ hasText: 'logout' })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('Staging')
  await expect(row).toContainText('Success')
})
