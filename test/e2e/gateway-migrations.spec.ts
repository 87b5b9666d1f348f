import { expect, test } from './support/fixtures'
import { openOps } from './support/ops'

/*
 * Resolving a migration against a real deployment's answer (the `gateway` project): the
 * migration object as its docker module shapes it, with its phase names and `progress` keys
 * (completedPhases, message). The screen says the phase and how far it got in words, the
 * phases passed, and still shows every key of progress as sent.
 */

test('resolve shows the phase and the progress readably', async ({ page, staging }) => {
  const { seed } = await openOps(staging)
  const id = seed.migrations['needs_attention']?.[0]
  if (!id) throw new Error('the sandbox seeds migrations that need attention')

  await page.getByRole('link', { name: /Migrations/ }).click()
  await page.getByRole('button', { name: 'Resolve a migration…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
  await dialog.getByLabel('Migration id').fill(id)
  await dialog.getByRole('radio', { name: /Target node/ }).check()
  await dialog.getByRole('checkbox', { name: 'I have reconciled both nodes' }).check()
  // Unseen by Infradesk: checked in the console, confirmed by a second tick.
  await dialog
    .getByRole('checkbox', { name: /checked this migration in the service’s console/ })
    .check()
  await dialog.getByRole('button', { name: 'Resolve migration' }).click()
  await expect(dialog).toHaveCount(0)

  const result = page.getByRole('article', { name: `Resolved migration ${id}` })
  const progress = result.getByRole('region', { name: 'Phase and progress' })
  await expect(progress).toContainText('Phase: Done')
  await expect(progress).toContainText('Resolved by an operator: the target node is authoritative')
  const phases = progress.getByRole('list', { name: 'Phases' })
  await expect(phases.getByRole('listitem')).toHaveCount(14)
  await expect(phases.getByRole('listitem').filter({ hasText: 'Locking' })).toContainText('passed')
  await expect(phases.getByRole('listitem').filter({ hasText: 'Done' })).toContainText('current')
  // Every key of progress as sent, beside the words.
  await expect(result.getByRole('table', { name: 'Progress', exact: true })).toContainText(
    'completedPhases',
  )
  const details = result.getByRole('table', { name: /^Migration / }).first()
  await expect(details.getByRole('row', { name: /^Status / })).toContainText('completed')
  await expect(details.getByRole('row', { name: /^Phase / })).toContainText('done')
})
