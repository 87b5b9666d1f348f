import { bridgeCall } from './support/bridge'
import { certificateGrid, certificateRow, openCertificates } from './support/certificates'
import { sandboxSeed } from './support/seed'
import { expect, test } from './support/fixtures'

/*
 * Op 10 on a multi-selection (mouse and keyboard), then op 3 on a folder; each change is seen
 * after a refresh and after a reload of the page (from the cache). A folder moved into its own
 * subtree is refused with the service's message on the field; a typed folder id is validated
 * as you type.
 */

test('moves: certificates, then a folder, seen after a refresh', async ({
  page,
  staging: { sandbox },
}) => {
  const seed = await sandboxSeed(sandbox)
  const folderId = (name: string, parentName: string | null) => {
    const parentId =
      parentName === null
        ? null
        : seed.certificateFolderTree.find((folder) => folder.name === parentName)?.id
    const found = seed.certificateFolderTree.find(
      (folder) => folder.name === name && folder.parentId === parentId,
    )
    if (!found) throw new Error(`no seeded folder ${name}`)
    return found.id
  }
  const staging = folderId('Staging', null)
  const archive = folderId('Archive', null)
  const archive2023 = folderId('2023', 'Archive')

  await openCertificates(page)
  const tree = page.getByRole('tree', { name: 'Folders' })

  // The tree is one Tab stop (WAI-ARIA tree): arrows move inside it, Enter selects, and one Tab
  // from it is in the list, however many folders there are.
  await tree.getByRole('treeitem', { name: 'All certificates' }).click()
  await expect(tree.getByRole('treeitem', { name: 'All certificates' })).toBeFocused()
  await page.keyboard.press('End')
  await expect(tree.getByRole('treeitem', { name: 'Staging', exact: true })).toBeFocused()
  await page.keyboard.press('Home')
  await page.keyboard.press('ArrowDown')
  await expect(tree.getByRole('treeitem', { name: 'No folder' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(tree.getByRole('treeitem', { name: 'No folder' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  const archiveItem = tree.getByRole('treeitem', { name: 'Archive', exact: true })
  await archiveItem.focus()
  await expect(archiveItem).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('ArrowLeft')
  await expect(archiveItem).toHaveAttribute('aria-expanded', 'false')
  await expect(tree.getByRole('treeitem', { name: '2023', exact: true })).toBeHidden()
  await page.keyboard.press('ArrowRight')
  await expect(tree.getByRole('treeitem', { name: '2023', exact: true })).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(certificateGrid(page).locator(':focus')).toHaveCount(1)
  // Back into the tree with Shift+Tab: the item last moved to, not the first.
  await page.keyboard.press('Shift+Tab')
  await expect(archiveItem).toBeFocused()

  // Two top-level certificates: click one, Ctrl-click the other, then Shift+Down adds a third.
  await tree.getByRole('treeitem', { name: 'No folder' }).click()
  await certificateRow(page, 'docs-portal').click()
  await certificateRow(page, 'legacy-intranet').click({ modifiers: ['Control'] })
  await expect(page.getByLabel('Counts')).toContainText('2 selected')
  await page.getByRole('button', { name: 'Move to folder…' }).click()
  const moveDialog = page.getByRole('dialog', { name: 'Move 2 certificates to a folder' })
  const destination = moveDialog.getByLabel('Destination folder', { exact: true })
  // A typed id is checked as you type.
  await destination.selectOption('__other__')
  await moveDialog.getByLabel('Destination folder: folder id').fill('not-a-uuid')
  await expect(moveDialog.getByText('A folder id is a UUID (8-4-4-4-12 hex digits)')).toBeVisible()
  await expect(moveDialog.getByRole('button', { name: 'Move', exact: true })).toBeDisabled()
  await destination.selectOption(staging)
  await moveDialog.getByRole('button', { name: 'Move', exact: true }).click()
  await expect(moveDialog).toBeHidden()
  await expect(page.getByText('Moved 2 certificates.')).toBeVisible()

  await tree.getByRole('treeitem', { name: 'All certificates' }).click()
  for (const name of ['docs-portal', 'legacy-intranet']) {
    await expect(certificateRow(page, name)).toContainText('Staging')
  }

  // The keyboard: focus the list, select with arrows and Space.
  await certificateRow(page, 'docs-portal').click()
  await certificateGrid(page).locator('[role=rowgroup][tabindex="0"]').press('Shift+ArrowDown')
  await expect(page.getByLabel('Counts')).toContainText('2 selected')

  // A folder into its own subtree: the service's message on the field.
  await page.getByRole('button', { name: 'Move folder…' }).click()
  const folderDialog = page.getByRole('dialog', { name: 'Move a folder' })
  await folderDialog.getByLabel('Folder to move', { exact: true }).selectOption(archive)
  const parent = folderDialog.getByLabel('New parent', { exact: true })
  await parent.selectOption('__other__')
  await folderDialog.getByLabel('New parent: folder id').fill(archive2023)
  await folderDialog.getByRole('button', { name: 'Move folder' }).click()
  await expect(
    folderDialog.getByText('A folder cannot be moved into itself or one of its subfolders'),
  ).toBeVisible()
  await expect(folderDialog.getByLabel('New parent: folder id')).toHaveAttribute(
    'aria-invalid',
    'true',
  )

  // Archive (with 2023 inside) under Staging.
  await parent.selectOption(staging)
  await folderDialog.getByRole('button', { name: 'Move folder' }).click()
  await expect(folderDialog).toBeHidden()
  await expect(page.getByText('Moved the folder.')).toBeVisible()
  await page.getByRole('button', { name: 'Refresh' }).click()
  await page.getByRole('searchbox', { name: 'Search' }).fill('old-www-2023')
  await expect(certificateRow(page, 'old-www-2023')).toContainText('Staging / Archive / 2023')
  // The tree is flat (items placed by aria-level): Archive's key is its path, one level down.
  const movedArchive = tree.getByRole('treeitem', { name: 'Archive', exact: true })
  await expect(movedArchive).toHaveAttribute('data-tree-key', 'folder:["Staging","Archive"]')
  await expect(movedArchive).toHaveAttribute('aria-level', '2')

  // A reload shows the same from the cache, and the service agrees.
  await page.reload()
  await openCertificates(page)
  await page.getByRole('searchbox', { name: 'Search' }).fill('old-www-2023')
  await expect(certificateRow(page, 'old-www-2023')).toContainText('Staging / Archive / 2023')
  await page.getByRole('searchbox', { name: 'Search' }).fill('docs-portal')
  await expect(certificateRow(page, 'docs-portal')).toContainText('Staging')
  const { activeId } = await bridgeCall(page, 'profiles.list')
  const fresh = await bridgeCall(page, 'certificates.refresh', {
    profileId: activeId,
    filter: { search: 'old-www-2023' },
  })
  expect(fresh.rows.map((row) => row.folderPath)).toEqual([['Staging', 'Archive', '2023']])
})
