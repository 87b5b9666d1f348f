import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { expect } from './support/fixtures'
import { resultMeta, setEditorText, sqlEditor, test } from './support/sql'

/*
 * Saved queries and parameters in Chromium against web mode and a sandbox's
 * PostgreSQL: a query with two parameters is saved as a plain .sql file, found again in the
 * Library after a restart, run with a value holding a quote and a NULL, and history keeps the
 * statement as it was sent, literals in.
 */

test.setTimeout(150_000)

const QUERY = [
  '-- title: Customers by label',
  '-- description: Two parameters, one of them may be NULL.',
  '-- param :label text',
  '-- param :country text',
  'select id, :label as label from customers',
  'where country = :country or :country is null',
  'order by id limit 2',
].join('\n')

const SENT = [
  "select id, 'O''Brien'::text as label from customers",
  'where country = NULL::text or NULL::text is null',
  'order by id limit 2',
].join('\n')

test('a saved query with parameters survives a restart and runs with a quote and a NULL', async ({
  page,
  dataDir,
  sqlConsole,
}) => {
  await setEditorText(page, QUERY)

  await page.getByRole('button', { name: 'Save', exact: true }).click()
  const saveAs = page.getByRole('dialog', { name: 'Save query as' })
  // The suggested name is selected: typing replaces it (it was appended to).
  const fileName = saveAs.getByLabel('File in the library')
  await expect(fileName).toBeFocused()
  await expect(fileName).not.toHaveValue('')
  await page.keyboard.type('people/customers-by-label.sql')
  await expect(fileName).toHaveValue('people/customers-by-label.sql')
  await saveAs.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(saveAs).toBeHidden()
  await expect(page.getByRole('tab', { name: 'Customers by label' })).toBeVisible()
  // The file is plain SQL, the header its leading comments, in <data folder>/queries.
  expect(
    await readFile(path.join(dataDir, 'queries', 'people', 'customers-by-label.sql'), 'utf8'),
  ).toBe(QUERY)

  // Only the file keeps the text now: a new tab (on the same database), and the saved one closed.
  await page.getByRole('button', { name: 'New tab' }).click()
  await expect(page.getByRole('tab', { name: 'Query 1' })).toHaveAttribute('aria-selected', 'true')
  await page.getByRole('tab', { name: 'Customers by label' }).press('Delete')
  await expect(page.getByRole('tab', { name: 'Customers by label' })).toHaveCount(0)

  await sqlConsole.restartApp()

  await page.getByRole('button', { name: 'Library' }).click()
  const library = page.getByRole('complementary', { name: 'Saved queries' })
  await library.getByLabel('Search saved queries').fill('country is null')
  await library.getByRole('button', { name: 'Customers by label' }).click()
  await expect(page.getByRole('tab', { name: 'Customers by label' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(sqlEditor(page)).toContainText('-- param :country text')
  await expect(page.getByLabel('Database id')).toHaveValue(sqlConsole.databaseId)

  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const form = page.getByRole('dialog', { name: 'Parameters' })
  // Types come from the file's header.
  await expect(form.getByLabel('Type of :label')).toHaveValue('text')
  await expect(form.getByLabel('Type of :country')).toHaveValue('text')
  await form.getByLabel('Value of :label').fill("O'Brien")
  await form.getByLabel(':country is NULL').check()
  await form.getByRole('button', { name: 'Run with these values' }).click()
  await expect(form).toBeHidden()
  await expect(resultMeta(page)).toContainText(/(SELECT|Done) · 2 rows/, { timeout: 60_000 })

  await page.getByRole('tab', { name: 'History' }).click()
  const history = page.getByRole('region', { name: 'Query history' })
  await expect(history.getByText(SENT)).toBeVisible()
})
