import { OPERATION_NAMES, operations } from '../../src/shared/api'
import { ROUTE_INFO, ROUTES } from '../../src/renderer/src/app/routes'
import { expect, test } from './support/fixtures'
import { sandboxSeed } from './support/seed'

test('the command palette lists exactly the 22 operations and every screen, and opens them with ids', async ({
  page,
  staging: { sandbox },
}) => {
  await page.keyboard.press('Control+K')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const search = palette.getByRole('combobox', { name: 'Search screens and operations' })
  await expect(search).toBeFocused()
  const list = palette.getByRole('listbox', { name: 'Screens and operations' })

  // Compared with the contract: the 22 operations (by their summaries), and every route.
  const titlesIn = (group: string) =>
    list
      .getByRole('group', { name: group })
      .getByRole('option')
      .locator('.palette-option-title')
      .allTextContents()
  const operationTitles = await titlesIn('Operations')
  expect(operationTitles).toEqual(OPERATION_NAMES.map((name) => operations[name].summary))
  expect(operationTitles).toHaveLength(22)
  const screenTitles = await titlesIn('Screens')
  expect(screenTitles).toEqual(ROUTES.map((route) => ROUTE_INFO[route].label))
  await expect(list.getByRole('option')).toHaveCount(22 + ROUTES.length)

  // Searchable by name: a screen, opened with Enter; Esc-free, the palette closes itself.
  await search.fill('settings')
  await expect(list.getByRole('option')).toHaveCount(1)
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()

  // An operation with its id typed after the words: the dialog opens with the id prefilled.
  const id = (await sandboxSeed(sandbox)).migrations['needs_attention']?.[0]
  if (!id) throw new Error('no migration needs attention')
  await page.getByRole('button', { name: /Go to or run/ }).click()
  await search.fill(`resolve migration ${id}`)
  await expect(list.getByRole('option', { selected: true })).toContainText(
    'Resolve a migration that needs attention',
  )
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
  await expect(dialog.getByLabel('Migration id')).toHaveValue(id)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)

  // Arrow keys move the active option; Esc closes and gives the focus back.
  const opener = page.getByRole('button', { name: /Go to or run/ })
  await opener.focus()
  await page.keyboard.press('Control+K')
  await search.fill('copy job')
  const selected = list.getByRole('option', { selected: true })
  await expect(selected).toContainText('Cancel a storage copy job')
  await page.keyboard.press('ArrowUp')
  await expect(selected).toContainText('Storage jobs')
  await page.keyboard.press('ArrowDown')
  await expect(selected).toContainText('Cancel a storage copy job')
  await page.keyboard.press('Escape')
  await expect(palette).toHaveCount(0)
  await expect(opener).toBeFocused()

  await page.keyboard.press('Control+K')
  await search.fill('cancel copy job')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#\/storage\?op=cancelCopyJob$/)
})
