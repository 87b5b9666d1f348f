import type { Page } from '@playwright/test'
import { bridgeCall } from './support/bridge'
import { connectViewerToSandbox, expect, test } from './support/fixtures'
import { sandboxSeed } from './support/seed'

const CHECKED_IN_CONSOLE = /checked this migration in the service’s console/

async function openResolveDialog(page: Page, id: string) {
  await page.getByRole('link', { name: /Migrations/ }).click()
  await page.getByRole('button', { name: 'Resolve a migration…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
  await dialog.getByLabel('Migration id').fill(id)
  return dialog
}

test('the migration dialog cannot send without the reconciliation tick', async ({
  page,
  staging: { sandbox },
}) => {
  const id = (await sandboxSeed(sandbox)).migrations['needs_attention']?.[0]
  if (!id) throw new Error('no migration needs attention')

  // The route a desktop deep link (infradesk://migrations/<id>/resolve) opens: id prefilled.
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#/migrations?id=${id}`)}`)
  const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
  await expect(dialog.getByLabel('Migration id')).toHaveValue(id)
  const resolve = dialog.getByRole('button', { name: 'Resolve migration' })
  const tick = dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' })
  await dialog.getByRole('radio', { name: /Source node/ }).check()
  await expect(resolve).toBeDisabled()
  // Infradesk knows nothing of it: the operator confirms checking it in the console as well.
  await dialog.getByRole('checkbox', { name: CHECKED_IN_CONSOLE }).check()
  await expect(resolve).toBeDisabled()
  await tick.check()
  await expect(resolve).toBeEnabled()
  await tick.uncheck()
  await expect(resolve).toBeDisabled()
  // Without a side, or with an empty id, the tick alone is not enough either.
  await tick.check()
  await dialog.getByLabel('Migration id').fill('')
  await expect(dialog.getByText('Required')).toBeVisible()
  await expect(resolve).toBeDisabled()

  // The dialog traps the focus: Tab cycles through its controls, never the page behind it.
  for (let step = 0; step < 12; step += 1) {
    await page.keyboard.press('Tab')
    expect(await dialog.evaluate((element) => element.matches(':focus-within'))).toBe(true)
  }

  // Esc closes the dialog; nothing was sent.
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  const seed = await sandboxSeed(sandbox)
  expect(seed.migrations['needs_attention']).toContain(id)
  const activity = await bridgeCall(page, 'activity.list', {})
  expect(activity.filter((entry) => entry.operation === 'resolveMigration')).toEqual([])
})

test('a migration that does not need attention shows the 409 explained; a protected profile asks once more', async ({
  page,
  staging: { sandbox },
}) => {
  const seed = await sandboxSeed(sandbox)
  const completed = seed.migrations['completed']?.[0]
  if (!completed) throw new Error('no completed migration in the seed')

  // Make the profile protected: the resolution then asks once more, naming the migration.
  const { profiles } = await bridgeCall(page, 'profiles.list')
  await bridgeCall(page, 'profiles.update', { id: profiles[0]?.id, protected: true })

  const dialog = await openResolveDialog(page, completed)
  await dialog.getByRole('radio', { name: /Target node/ }).check()
  await dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' }).check()
  await dialog.getByRole('checkbox', { name: CHECKED_IN_CONSOLE }).check()
  await dialog.getByRole('button', { name: 'Resolve migration' }).click()
  const confirm = page.getByRole('dialog', { name: `Resolve migration ${completed}?` })
  await expect(confirm).toContainText('protected profile')
  await expect(confirm).toContainText('target node')
  await confirm.getByRole('button', { name: 'Resolve migration' }).click()
  await expect(confirm).toHaveCount(0)

  await expect(dialog.getByText('This migration does not need attention')).toBeVisible()
  await expect(dialog).toContainText(`Migration ${completed} is completed (completed)`)
  await expect(dialog).toContainText('Nothing was changed')
  await expect(dialog.getByRole('alert')).toContainText('CONFLICT')
  expect((await sandboxSeed(sandbox)).migrations['completed']).toContain(completed)

  const activity = await bridgeCall(page, 'activity.list', {})
  expect(activity.find((entry) => entry.operation === 'resolveMigration')).toMatchObject({
    targetId: completed,
    outcome: 'error',
    errorCode: 'CONFLICT',
  })
})

test('resolving as a viewer shows the 403 clearly and changes nothing', async ({
  page,
  welcome: { sandbox },
}) => {
  await connectViewerToSandbox(page, sandbox)
  const id = (await sandboxSeed(sandbox)).migrations['needs_attention']?.[0]
  if (!id) throw new Error('no migration needs attention')

  const dialog = await openResolveDialog(page, id)
  await dialog.getByRole('radio', { name: /Target node/ }).check()
  await dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' }).check()
  await dialog.getByRole('checkbox', { name: CHECKED_IN_CONSOLE }).check()
  await dialog.getByRole('button', { name: 'Resolve migration' }).click()

  await expect(dialog.getByText('The token of "Viewer" may not resolve migrations')).toBeVisible()
  await expect(dialog).toContainText('lacks the write permission')
  const banner = dialog.getByRole('alert')
  await expect(banner).toContainText('FORBIDDEN')
  await expect(banner).toContainText('(403)')
  await expect(banner).toContainText('Missing permission')
  expect((await sandboxSeed(sandbox)).migrations['needs_attention']).toContain(id)
})

test('a migration Infradesk knows nothing of is not resolved blind; one it has seen shows what was seen', async ({
  page,
  staging: { sandbox },
}) => {
  const [seenId, unseenId] = (await sandboxSeed(sandbox)).migrations['needs_attention'] ?? []
  if (!seenId || !unseenId) throw new Error('the seed has too few migrations that need attention')
  const { profiles } = await bridgeCall(page, 'profiles.list')
  // An answer of the service carries one of them (it is resolved, so no longer needs attention).
  const seen = await bridgeCall(page, 'migrations.resolve', {
    profileId: profiles[0]?.id,
    id: seenId,
    authoritativeSide: 'target',
  })

  const dialog = await openResolveDialog(page, unseenId)
  const note = dialog.getByRole('note', { name: 'What Infradesk knows' })
  await expect(note).toContainText('Infradesk knows nothing of this migration yet')
  await expect(note).toContainText('its status or why it stopped')
  const resolve = dialog.getByRole('button', { name: 'Resolve migration' })
  const reconciled = dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' })
  const checked = dialog.getByRole('checkbox', { name: CHECKED_IN_CONSOLE })
  await dialog.getByRole('radio', { name: /Source node/ }).check()
  await reconciled.check()
  // The reconciliation tick alone no longer sends a decision about an unseen migration.
  await expect(resolve).toBeDisabled()
  await expect(dialog.getByText('Resolve is enabled once you tick both boxes')).toBeVisible()
  await checked.check()
  await expect(resolve).toBeEnabled()

  // A migration an answer carried: what it carried is shown, and no console tick is asked for.
  await dialog.getByLabel('Migration id').fill(seenId)
  const known = dialog.getByRole('table', { name: 'Known migration' })
  await expect(known.getByRole('row', { name: /^Last known status / })).toContainText(seen.status)
  await expect(known.getByRole('row', { name: /^Resource / })).toContainText(seen.resourceName)
  await expect(known.getByRole('row', { name: /^Phase / })).toContainText('Resolved: the target')
  // Why it stopped, as that answer said it (the seed's migrations that need attention say it).
  const reason = known.getByRole('row', { name: /^Reason / })
  expect(seen.errorCode).toBeTruthy()
  await expect(reason).toContainText(seen.errorCode ?? '')
  await expect(reason).toContainText(seen.errorMessage ?? '')
  await expect(note).toContainText('it may not need resolving any more')
  await expect(checked).toHaveCount(0)
  await expect(resolve).toBeEnabled()
  // Back to the unseen one: the confirmation was for the id checked, so it is asked again.
  await dialog.getByLabel('Migration id').fill(unseenId)
  await expect(dialog.getByRole('checkbox', { name: CHECKED_IN_CONSOLE })).not.toBeChecked()
  await expect(resolve).toBeDisabled()
  await page.keyboard.press('Escape')
  expect((await sandboxSeed(sandbox)).migrations['needs_attention']).toContain(unseenId)
})

test('a name two known migrations share is refused in the dialog, never sent', async ({
  page,
  staging: { sandbox },
}) => {
  // The seed moves two containers of one name: each answer that resolves one names it, so
  // both are known by that name.
  const waiting = (await sandboxSeed(sandbox)).migrations['needs_attention'] ?? []
  const { profiles } = await bridgeCall(page, 'profiles.list')
  const resolve = (id: string) =>
    bridgeCall(page, 'migrations.resolve', {
      profileId: profiles[0]?.id,
      id,
      authoritativeSide: 'target',
    })
  const resolved: Awaited<ReturnType<typeof resolve>>[] = []
  for (const id of waiting) resolved.push(await resolve(id))
  const seen = resolved.find(
    (one) => resolved.filter((other) => other.resourceName === one.resourceName).length === 2,
  )
  if (seen === undefined)
    throw new Error('no two seeded migrations that need attention share a name')

  const dialog = await openResolveDialog(page, seen.resourceName)
  const field = dialog.getByLabel('Migration id')
  await expect(dialog).toContainText(`“${seen.resourceName}” is the name of 2 objects`)
  await dialog.getByRole('radio', { name: /Source node/ }).check()
  await dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' }).check()
  await dialog.getByRole('checkbox', { name: CHECKED_IN_CONSOLE }).check()
  await dialog.getByRole('button', { name: 'Resolve migration' }).click()
  // Refused where the name is: the focus goes to the field, and nothing reaches the service.
  await expect(field).toBeFocused()
  await expect(field).toHaveValue(seen.resourceName)
  const resolves = await bridgeCall(page, 'activity.list', { operation: 'resolveMigration' })
  expect(resolves.map((entry) => entry.targetId).sort()).toEqual([...waiting].sort())
})
