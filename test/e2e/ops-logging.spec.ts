import { z } from 'zod'
import { expect, test } from './support/fixtures'
import { expectActivityLine, openOps, openScreen, sandboxCall } from './support/ops'
import { dragWithMouse, moveWithKeyboard, orderOf } from './support/sortable'

const environmentsSchema = z.object({
  data: z.array(z.looseObject({ id: z.string(), folderId: z.string(), name: z.string() })),
})

/** `name` as a pattern that matches it literally (names hold parentheses). */
function escape(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

test('logging schema by slug: its fields as a table', async ({ page, staging }) => {
  await openOps(staging)
  await openScreen(page, 'Logging')
  await page.getByLabel('Schema slug').fill('nginx-access')
  await page.getByRole('button', { name: 'Look up' }).click()
  const fields = page.getByRole('table', { name: 'Fields of nginx-access' })
  await expect(fields.getByRole('row').filter({ hasText: 'remote_addr' })).toContainText('ip')
  await expect(fields.getByRole('row').filter({ hasText: 'request_time' })).toContainText('no')
  await expect(page.getByRole('table', { name: 'Schema details' })).toContainText(
    'Nginx access log',
  )

  await page.getByLabel('Schema slug').fill('no-such-schema')
  await page.getByRole('button', { name: 'Look up' }).click()
  await expect(page.getByRole('alert')).toContainText('NOT_FOUND')
})

test('reorder a folder’s environments by keyboard and by drag and drop; the service has the new order, logged', async ({
  page,
  staging,
}) => {
  const { sandbox, seed } = await openOps(staging)
  const folder = seed.loggingEnvironmentFolders.find((entry) => entry.environmentIds.length >= 3)
  if (!folder) throw new Error('the seed has no folder with three environments')
  const [a, b, c] = folder.environmentIds as [string, string, string]

  await openScreen(page, 'Logging')
  await page.getByLabel('Folder ID').fill(folder.id)
  // This service is not the embedded sandbox: the app knows no environments yet, so add them.
  const adding = page.getByLabel('Add an environment ID')
  // "Add to the list" sits beside the field it adds from, not down by the field's long hint.
  const [field, button] = [
    await adding.boundingBox(),
    await page.getByRole('button', { name: 'Add to the list' }).boundingBox(),
  ]
  if (!field || !button) throw new Error('the field or its button is not laid out')
  expect(Math.abs(button.y + button.height / 2 - (field.y + field.height / 2))).toBeLessThan(3)
  for (const id of [a, b, c]) {
    await adding.fill(id)
    await adding.press('Enter')
  }
  const list = page.getByRole('list', { name: 'Environments in their new order' })
  await expect.poll(() => orderOf(list, [a, b, c])).toEqual([a, b, c])

  await moveWithKeyboard(page, list, 0, 2)
  await expect.poll(() => orderOf(list, [a, b, c])).toEqual([b, c, a])
  await dragWithMouse(page, list, 2, 0)
  await expect.poll(() => orderOf(list, [a, b, c])).toEqual([a, b, c])
  await page.getByRole('button', { name: `Move ${c} up` }).click()
  await expect.poll(() => orderOf(list, [a, b, c])).toEqual([a, c, b])

  await page.getByRole('button', { name: 'Save order' }).click()
  await expect(page.getByText('New order saved')).toBeVisible()

  // The later call: the service lists the folder's environments in the order saved.
  const later = environmentsSchema
    .parse(
      (
        await sandboxCall(sandbox, 'PUT', '/api/logging/environment-folders/reorder-environments', {
          items: [{ id: a, sortOrder: 1 }],
        })
      ).json,
    )
    .data.filter((environment) => environment.folderId === folder.id)
  expect(later.map((environment) => environment.id)).toEqual([a, c, b])
  // The answer's names now label the rows.
  const names = later.map((environment) => environment.name)
  await expect(list.getByRole('listitem')).toHaveText(names.map((name) => new RegExp(escape(name))))

  await expectActivityLine(page, {
    operation: 'reorderLoggingEnvironments',
    target: folder.id,
    text: new RegExp(escape(names.join(', '))),
  })
})
