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

  // Into another folder: one the app has not seen named stays an id.
  await page.getByLabel('Folder ID', { exact: true }).fill(contractors.id)
  await page.getByRole('radio', { name: 'Inside another folder' }).check()
  await page.getByLabel('New parent folder ID').fill(operations.id)
  await page.getByRole('button', { name: 'Move folder…' }).click()
  await dialog.getByRole('button', { name: 'Move folder' }).click()
  const moved = page.getByRole('status').filter({ hasText: /^Contractors moved into/ })
  await expect(moved.locator('.banner-title')).toHaveText(`Contractors moved into ${operations.id}`)

  // Into a folder whose name the app saw (Frontend's move answered it): named, its id beside,
  // in the confirmation and in what the move did.
  await page.getByLabel('New parent folder ID').fill(frontend.id)
  await page.getByRole('button', { name: 'Move folder…' }).click()
  await expect(dialog).toContainText(`into folder Frontend · ${frontend.id}`)
  await dialog.getByRole('button', { name: 'Move folder' }).click()
  await expect(moved.locator('.banner-title')).toHaveText(
    `Contractors moved into Frontend · ${frontend.id}`,
  )

  // The later look: the sandbox's tree has both moves.
  const tree = (await sandboxSeed(sandbox)).userFolderTree
  expect(tree.find((folder) => folder.id === frontend.id)?.parentId).toBeNull()
  expect(tree.find((folder) => folder.id === contractors.id)?.parentId).toBe(frontend.id)

  // Into its own subfolder: the service's answer names parentId, and the field shows it.
  await page.getByLabel('Folder ID', { exact: true }).fill(engineering.id)
  await page.getByLabel('New parent folder ID').fill(sre.id)
  await page.getByRole('button', { name: 'Move folder…' }).click()
  await dialog.getByRole('button', { name: 'Move folder' }).click()
  const parentField = page.getByLabel('New parent folder ID')
  await expect(parentField).toHaveAttribute('aria-invalid', 'true')
  // The field the service named has the focus: the keyboard user is where the fix goes.
  await expect(parentField).toBeFocused()
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

test('a refused move keeps the keyboard where it was: the first empty field, the dialog’s button; a long id stays inside the dialog', async ({
  page,
  staging,
}) => {
  await openOps(staging)
  await openScreen(page, 'User folders')
  const folderField = page.getByLabel('Folder ID', { exact: true })

  // Sent empty: the field to fill has the focus, not the submit button.
  await page.getByRole('button', { name: 'Move folder…' }).click()
  await expect(folderField).toHaveAttribute('aria-invalid', 'true')
  await expect(folderField).toBeFocused()

  // An id the service does not know, too long to fit: the dialog wraps it, and after the
  // refusal its button still has the focus (a busy button is disabled, which dropped it).
  await folderField.fill('f'.repeat(300))
  await page.getByRole('radio', { name: 'The top level' }).check()
  await page.getByRole('button', { name: 'Move folder…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Move this user folder?' })
  const confirm = dialog.getByRole('button', { name: 'Move folder' })
  await confirm.focus()
  await page.keyboard.press('Enter')
  await expect(dialog.getByRole('alert')).toContainText('does not exist')
  await expect(confirm).toBeFocused()
  const sideways = await dialog.evaluate((element) =>
    [element, ...element.querySelectorAll('*')]
      .filter((inner) => inner.scrollWidth > inner.clientWidth + 1 && inner.clientWidth > 0)
      .map((inner) => `${inner.className} ${inner.scrollWidth}>${inner.clientWidth}`),
  )
  expect(sideways).toEqual([])
  const [body, banner] = [
    await dialog.locator('.dialog-body').boundingBox(),
    await dialog.getByRole('alert').boundingBox(),
  ]
  expect(banner && body && banner.x + banner.width <= body.x + body.width).toBe(true)
})
