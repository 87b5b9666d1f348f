import { expect, test } from './support/fixtures'
import {
  addTemplateFolders,
  expectActivityLine,
  namedItemsSchema,
  openOps,
  openScreen,
  sandboxCall,
} from './support/ops'
import { dragWithMouse, moveWithKeyboard, orderOf } from './support/sortable'

test('reorder nginx template folders by drag and drop and by keyboard; the service has the new order, logged', async ({
  page,
  staging,
}) => {
  const { sandbox, seed } = await openOps(staging)
  const ids = seed.nginxTemplateFolders
  expect(ids.length).toBeGreaterThanOrEqual(4)

  await openScreen(page, 'Nginx templates')
  const adding = page.getByLabel('Add a template folder ID')
  await adding.fill('not-a-uuid')
  await page.getByRole('button', { name: 'Add to the list' }).click()
  await expect(page.getByText('Enter a UUID (8-4-4-4-12 hexadecimal digits)')).toBeVisible()
  const list = await addTemplateFolders(page, ids)

  const expected = [...ids]
  await dragWithMouse(page, list, ids.length - 1, 0)
  expected.unshift(...expected.splice(ids.length - 1, 1))
  await expect.poll(() => orderOf(list, ids)).toEqual(expected)
  await moveWithKeyboard(page, list, 1, 1)
  expected.splice(2, 0, ...expected.splice(1, 1))
  await expect.poll(() => orderOf(list, ids)).toEqual(expected)

  await page.getByRole('button', { name: 'Save order' }).click()
  await expect(page.getByText('New order saved')).toBeVisible()

  // The later call: op 9 with no items changes nothing and answers every folder in order.
  const later = namedItemsSchema.parse(
    (await sandboxCall(sandbox, 'PUT', '/api/nginx-templates/folders/reorder', { items: [] })).json,
  ).data
  expect(later.map((folder) => folder.id)).toEqual(expected)
  await expect(list.getByRole('listitem')).toHaveText(
    later.map((folder) => new RegExp(folder.name)),
  )

  // The order the app kept is where the screen starts next time.
  await page.reload()
  await openScreen(page, 'Nginx templates')
  await expect.poll(() => orderOf(list, ids)).toEqual(expected)

  await expectActivityLine(page, {
    operation: 'reorderNginxTemplateFolders',
    text: new RegExp(later.map((folder) => folder.name).join(', ')),
  })
})
