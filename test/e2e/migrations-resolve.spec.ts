import { connectStagingToSandbox, expect, test } from './support/fixtures'
import { sandboxSeed } from './support/seed'

test('resolve a migration that needs attention: status changed on the service, logged', async ({
  page,
  startApp,
  startSandbox,
  sandboxVariant,
}, testInfo) => {
  // The status after a resolve is the service's choice (docs/SERVICE.md): the app shows it.
  const newStatus = sandboxVariant ? 'cleanup_pending' : 'completed'
  const newStatusWords = sandboxVariant ? 'Cleanup pending' : 'Completed'
  const [sandbox, app] = await Promise.all([startSandbox(), startApp()])
  await page.goto(app.url)
  await connectStagingToSandbox(page, sandbox)
  const before = await sandboxSeed(sandbox)
  const id = before.migrations['needs_attention']?.[0]
  if (!id) throw new Error('the sandbox seeds migrations that need attention')

  await page.getByRole('link', { name: /Migrations/ }).click()
  await page.getByRole('button', { name: 'Resolve a migration…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
  // What resolving does is said before anything is sent, in the spec's terms.
  const effects = dialog.getByRole('list', { name: 'What resolving does' })
  await expect(effects).toContainText('becomes authoritative')
  await expect(effects).toContainText('lock and the maintenance mode')
  await expect(effects).toContainText('restores the restart policy')
  await expect(effects).toContainText('No container is started or removed')

  await dialog.getByLabel('Migration id').fill(id)
  await dialog.getByRole('radio', { name: /Target node/ }).check()
  const resolve = dialog.getByRole('button', { name: 'Resolve migration' })
  await expect(resolve).toBeDisabled()
  await dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' }).check()
  // Infradesk has seen nothing of this migration: resolving it asks for a second tick.
  await expect(resolve).toBeDisabled()
  await dialog
    .getByRole('checkbox', { name: /checked this migration in the service’s console/ })
    .check()
  await resolve.click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByRole('status').filter({ hasText: `Migration ${id}` })).toContainText(
    `resolved: ${newStatusWords.toLowerCase()}`,
  )

  // The answer, whole: status, fields, progress and verification as tables, local times.
  const result = page.getByRole('article', { name: `Resolved migration ${id}` })
  const details = result.getByRole('table', { name: /^Migration / }).first()
  // In words, the value as sent beside them; a yes/no field reads Yes or No.
  const statusRow = details.getByRole('row', { name: /^Status / })
  await expect(statusRow).toContainText(newStatusWords)
  await expect(statusRow.locator('code')).toHaveText(newStatus)
  await expect(details.getByRole('row', { name: /^Phase / })).toContainText(
    'Resolved: the target node is authoritative',
  )
  await expect(details.getByRole('row', { name: /^Keep source / }).getByRole('cell')).toHaveText(
    /^(Yes|No)$/,
  )
  await expect(result.getByRole('table', { name: 'Progress', exact: true })).toContainText(
    'totalSteps',
  )
  await expect(result.getByRole('table', { name: 'Verification', exact: true })).toContainText(
    'authoritativeSide',
  )
  await expect(details.getByRole('row', { name: /^Id / })).toContainText(id)
  await expect(details.getByRole('row', { name: /^Completed / })).toContainText(/UTC[+-]\d\d:\d\d/)
  await expect(result.getByRole('table', { name: 'Other fields', exact: true })).toContainText(
    'resolution',
  )

  await page.screenshot({ path: testInfo.outputPath('resolved.png'), fullPage: true })

  // A later call sees the new status: the sandbox now lists it under it.
  const after = await sandboxSeed(sandbox)
  expect(after.migrations[newStatus]).toContain(id)
  expect(after.migrations['needs_attention']).not.toContain(id)

  // And the write is in the activity log, with the side chosen and the answer.
  await page.getByRole('link', { name: /Activity/ }).click()
  const row = page
    .getByRole('table', { name: 'Activity' })
    .getByRole('row')
    .filter({ hasText: 'resolveMigration' })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText(id)
  await expect(row).toContainText('Success')
  await expect(row).toContainText(`target made authoritative; status ${newStatus}`)
})
