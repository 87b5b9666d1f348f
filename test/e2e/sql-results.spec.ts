import { expect } from './support/fixtures'
import { resultGrid, resultMeta, setEditorText, sqlEditor, test } from './support/sql'

/*
 * Issue 22 in Chromium against web mode and a sandbox's PostgreSQL: every result of Run all
 * (a failure stops the rest unless "Continue after errors" is on), and pin and compare (the
 * comparison computed in main's SQL worker). The first statement starts the database's engine,
 * hence the longer timeouts.
 */

test.setTimeout(180_000)

test('Run all: each statement in its own tab; a failure stops the rest unless told to go on', async ({
  page,
  sqlConsole,
}) => {
  const results = await sqlConsole.runAll(
    'select 1 as one;\nselect * from no_such_table;\nselect 3',
  )
  await expect(results.getByRole('tab', { name: /^Result 1 · 1 row · [\d,]+ ms$/ })).toBeVisible({
    timeout: 60_000,
  })
  await expect(results.getByRole('tab', { name: 'Result 2 · failed' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(
    page.getByText('Statement 2 failed; the statement after it was not run.'),
  ).toBeVisible()
  // One error, one box: PostgreSQL's message and SQLSTATE inside the banner that announces them.
  const refused = page.getByRole('alert').filter({ hasText: 'PostgreSQL refused the statement' })
  await expect(refused).toHaveCount(1)
  await expect(refused).toContainText('no_such_table')
  await expect(refused).toContainText('SQLSTATE 42P01')
  await results.getByRole('tab', { name: 'Result 3 · not run' }).click()
  await expect(page.getByText(/^Not run: a statement before it failed/)).toBeVisible()
  await expect(resultGrid(page)).toHaveCount(0)

  // With the option on, the third runs after the second fails.
  await page.getByLabel('Continue after errors').check()
  await page.getByRole('button', { name: 'Run all' }).click()
  const third = results.getByRole('tab', { name: /^Result 3 · 1 row · [\d,]+ ms$/ })
  await expect(third).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 })
  await expect(results.getByRole('tab', { name: 'Result 2 · failed' })).toBeVisible()
  await expect(results.getByRole('tab', { name: /^Result 1 · 1 row/ })).toBeVisible()
  await expect(page.getByText('Statement 2 failed; the run went on')).toBeVisible()
  await expect(resultGrid(page).getByRole('gridcell').first()).toHaveText('3')
})

test('pin a result, change the data and run again: compare shows exactly the changed rows', async ({
  page,
  sqlConsole,
}) => {
  const results = await sqlConsole.runAll(
    "create table compare_rows (id int primary key, label text, qty int);\ninsert into compare_rows values (1, 'a', 10), (2, 'b', 20), (3, 'c', 30), (4, 'd', 40)",
  )
  await expect(results.getByRole('tab', { name: /^Result 2 · 4 affected/ })).toBeVisible({
    timeout: 60_000,
  })

  const select = 'select id, label, qty from compare_rows order by 1'
  await sqlConsole.run(select)
  await expect(resultMeta(page)).toContainText('4 rows')
  await page.getByRole('button', { name: 'Pin', exact: true }).click()
  const pinned = page.getByRole('region', { name: 'Pinned result' })
  await expect(pinned.getByRole('grid', { name: 'Pinned rows' })).toBeVisible()

  await sqlConsole.runAll(
    "update compare_rows set qty = 21 where id = 2;\ndelete from compare_rows where id = 3;\ninsert into compare_rows values (5, 'e', 50)",
  )
  await expect(results.getByRole('tab', { name: /^Result 3 · 1 affected/ })).toBeVisible({
    timeout: 60_000,
  })
  // The pinned result stays beside the new run's.
  await expect(pinned.getByRole('grid', { name: 'Pinned rows' }).getByRole('row')).toHaveCount(5)

  await sqlConsole.run(select)
  await expect(resultMeta(page)).toContainText('4 rows')
  await expect(pinned.getByLabel('Key column')).toHaveValue('0')
  await pinned.getByRole('button', { name: 'Compare' }).click()

  const comparison = page.getByRole('region', { name: 'Comparison' })
  await expect(comparison.getByTestId('sql-compare-meta')).toContainText(
    'Compared with the pinned result by id · 1 added · 1 removed · 1 changed · 2 unchanged',
  )
  const rows = comparison.getByRole('grid', { name: 'Compared rows' }).getByRole('row')
  // Header + exactly the three rows that differ.
  await expect(rows).toHaveCount(4)
  const texts = async (index: number) => rows.nth(index).getByRole('gridcell').allTextContents()
  await expect(rows.nth(1)).toHaveAttribute('data-diff', 'changed')
  // Before → after on the screen, read as "was …, now …" (not only in a tooltip).
  expect(await texts(1)).toEqual(['2', 'b', '20 → 21'])
  const changedCells = rows.nth(1).locator('.sql-diff-cell-changed')
  await expect(changedCells).toHaveCount(1)
  await expect(changedCells).toHaveAccessibleName('was 20, now 21')
  await expect(changedCells.locator('del')).toBeVisible()
  await expect(changedCells.locator('ins')).toBeVisible()
  await expect(rows.nth(2)).toHaveAttribute('data-diff', 'added')
  expect(await texts(2)).toEqual(['5', 'e', '50'])
  await expect(rows.nth(3)).toHaveAttribute('data-diff', 'removed')
  expect(await texts(3)).toEqual(['3', 'c', '30'])

  // Closing the comparison shows the pinned and new results side by side again.
  await comparison.getByRole('button', { name: 'Close comparison' }).click()
  await expect(pinned).toBeVisible()
  await pinned.getByRole('button', { name: 'Unpin' }).click()
  await expect(page.getByRole('region', { name: 'Pinned result' })).toHaveCount(0)
  await expect(resultGrid(page).getByRole('row')).toHaveCount(5)
})

test('completion knows the aliases of the statement; Shift+Alt+F formats the text', async ({
  page,
  sqlConsole: _onTheSmallDatabase,
}) => {
  const tree = page
    .getByRole('complementary', { name: 'Schema browser' })
    .getByRole('tree', { name: 'Schemas' })
  await expect(tree.getByText('customers', { exact: true })).toBeVisible({ timeout: 60_000 })

  // An UPDATE's alias: lang-sql's own completion reads aliases after FROM only.
  await setEditorText(page, 'update customers cu set name = cu.')
  await page.keyboard.press('Control+Space')
  const options = page.locator('.cm-tooltip-autocomplete [role="option"]')
  await expect(options.filter({ hasText: /^email$/ })).toHaveCount(1)
  await expect(options.filter({ hasText: /^country$/ })).toHaveCount(1)
  await page.keyboard.press('Escape')

  await setEditorText(page, 'select id,name from customers where id=1')
  await page.keyboard.press('Shift+Alt+F')
  await expect(sqlEditor(page).locator('.cm-line')).toHaveText([
    'select',
    '  id,',
    '  name',
    'from',
    '  customers',
    'where',
    '  id = 1',
  ])
  // One change: undo brings the text back as it was.
  await page.keyboard.press('ControlOrMeta+z')
  await expect(sqlEditor(page).locator('.cm-line')).toHaveText([
    'select id,name from customers where id=1',
  ])
})
