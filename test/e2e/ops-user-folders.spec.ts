import { expect, test } from './support/fixtures'
import { expectActivityLine, openOps, openScreen } from './support/ops'
import { sandboxSeed } from './support/seed'

test('move a user folder to the top level and into another folder; a move into its own subtree lands on the field', async ({
  page,
  staging,
}) => {
  const { sandbox, seed } = await openOps(staging)
  const byName = (name: string) => {
    const folder = seed.userFolderTree.find((candidate) => candidate.name === name)
    if (!folder) throw new Error(`no seeded folder ${name}`)
    return folder
  }
  const frontend = byName('Frontend')
  const contractors = byName('Contractors')
  const operations = byName('Operations')
  const engineering = byName('Engineering')
  const sre = byName('SRE')
  expect(frontend.parentId).not.toBeNull()

  await openScreen(page, 'User folders')
  // To the top level (parentId null).
  await page.getByLabel('Folder ID', { exact: true }).fill(frontend.id)
  await page.getByRole('radio', { name: 'The top level' }).check()
  await page.getByRole('button', { name: 'Move folder…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Move this user folder?' })
  await expect(dialog).toContainText('to the top level')
  await dialog.getByRole('button', { name: 'Move folder' }).click()
  await expect(page.getByText('Frontend moved to the top level')).toBeVisible()

  // Into another folder.
  await page.getByLabel('Folder ID', { exact: true }).fill(contractors.id)
  await page.getByRole('radio', { name: 'Inside another folder' }).check()
  await page.getByLabel('New parent folder ID').fill(operations.id)
  await page.getByRole('button', { name: 'Move folder…' }).click()
  await dialog.getByRole('button', { name: 'Move folder' }).click()
  await expect(page.getByText(`Contractors moved into ${operations.id}`)).toBeVisible()

  // The later look: the sandbox's tree has both moves.
  const tree = (await sandboxSeed(sandbox)).userFolderTree
  expect(tree.find((folder) => folder.id === frontend.id)?.parentId).toBeNull()
  expect(tree.find((folder) => folder.id === contractors.id)?.parentId).toBe(operations.id)

  // Into its own subfolder: the service's answer names parentId, and the field shows it.
  await page.getByLabel('Folder ID', { exact: true }).fill(engineering.id)
  await page.getByLabel('New parent folder ID').fill(sre.id)
  await page.getByRole('button', { name: 'Move folder…' }).click()
  await dialog.getByRole('button', { name: 'Move folder' }).click()
  const parentField = page.getByLabel('New parent folder ID')
  await expect(parentField).toHaveAttribute('aria-invalid', 'true')
  await expect(
    page.getByText('A folder cannot be moved into itself or one of its subfolders'),
  ).toBeVisible()

  await expectActivityLine(page, { operation: 'moveUserFolder', target: frontend.id })
  await expectActivityLine(page, { operation: 'moveUserFolder', target: contractors.id })
  await expectActivityLine(page, {
    operation: 'moveUserFolder',
    target: engineering.id,
    outcome: 'Error',
  })
})
