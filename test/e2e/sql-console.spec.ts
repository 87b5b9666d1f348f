import { bridgeCall, pageSecret } from './support/bridge'
import { connectStagingToSandbox, expect } from './support/fixtures'
import { openScreen } from './support/screens'
import {
  openSqlConsole,
  resultGrid,
  resultMeta,
  runStatement,
  sandboxDatabases,
  setEditorText,
  sqlEditor,
  test,
} from './support/sql'

/*
 * The SQL console in Chromium against web mode and a sandbox's PostgreSQL (PGlite): the first
 * statement on a database starts its engine, which takes seconds, hence the longer timeouts.
 */

test.setTimeout(150_000)

test('runs a SELECT and reads the rows; NULL shows apart from the string NULL', async ({
  page,
  sqlConsole,
}) => {
  await sqlConsole.run(
    "select id, name, country, null::text as nothing, 'NULL' as word\nfrom customers\nwhere id <= 3\norder by id;",
  )
  // The variant's small database sends no command tag: the console says "Done".
  await expect(resultMeta(page)).toContainText(/(SELECT|Done) · 3 rows/, { timeout: 60_000 })
  const grid = resultGrid(page)
  const rows = grid.getByRole('row')
  // Header + 3 rows.
  await expect(rows).toHaveCount(4)
  await expect(rows.nth(1).getByRole('gridcell').nth(0)).toHaveText('1')
  await expect(rows.nth(1).getByRole('gridcell').nth(1)).toHaveText('Ada Hamilton')
  await expect(rows.nth(3).getByRole('gridcell').nth(2)).toHaveText('US')
  // NULL is marked as such; the string 'NULL' is plain text.
  await expect(rows.nth(1).getByRole('gridcell').nth(3).locator('.sql-null')).toHaveText('NULL')
  await expect(rows.nth(1).getByRole('gridcell').nth(4).locator('.sql-null')).toHaveCount(0)
  await expect(rows.nth(1).getByRole('gridcell').nth(4)).toHaveText('NULL')
})

test('a 100,000-row result scrolls to its last row', async ({ page, startApp, startSandbox }) => {
  // The large database's engine loads 100,000 rows on its first statement.
  test.setTimeout(300_000)
  // A real deployment answers at most 2,000 rows; this sandbox allows op 5 100,000.
  const sandbox = await startSandbox(['--wide-sql-limits'])
  const { large } = await sandboxDatabases(sandbox)
  const app = await startApp()
  await page.goto(app.url)
  await connectStagingToSandbox(page, sandbox)
  await openSqlConsole(page, large)
  await page.getByLabel('Max rows').fill('100000')

  await setEditorText(page, 'select * from events order by id')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(resultMeta(page)).toContainText('SELECT · 100,000 rows', { timeout: 200_000 })
  const grid = resultGrid(page)
  await expect(grid).toHaveAttribute('aria-rowcount', '100001')
  // Only a screenful of rows is in the page, whatever the result's size.
  expect(await grid.getByRole('row').count()).toBeLessThan(80)

  await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  const last = grid.locator('[role="row"][aria-rowindex="100001"]')
  await expect(last.getByRole('rowheader')).toHaveText('100000')
  await expect(last.getByRole('gridcell').first()).toHaveText('100000')
  await expect(last.getByRole('gridcell').nth(2)).toHaveText('login')
})

test("a service's row bound is learned from its refusal and said; the rows come within it", async ({
  page,
  sqlConsole: _onTheSmallDatabase,
}) => {
  await page.getByLabel('Max rows').fill('100000')

  await setEditorText(page, 'select generate_series(1, 5000) as n')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(resultMeta(page)).toContainText('2,000 rows', { timeout: 60_000 })
  await expect(
    page.getByText('This service returns at most 2,000 rows per statement', { exact: false }),
  ).toBeVisible()
  // No bare validation error on the screen.
  await expect(page.getByText('VALIDATION_ERROR')).toHaveCount(0)
})

test('a syntax error shows its SQLSTATE and puts the caret at its position', async ({
  page,
  sqlConsole,
}) => {
  // The second statement is run (cursor in it); its error is at "fromm", character 10 of it.
  await sqlConsole.run('select 1;\nselect * fromm customers;')
  // (The error banner's headline names the SQLSTATE too: the facts line's is the one checked.)
  await expect(page.getByTestId('sqlstate')).toHaveText('42601', { timeout: 60_000 })
  await expect(page.getByRole('alert').filter({ hasText: 'syntax error' })).toBeVisible()
  const caret = sqlEditor(page).getByRole('img', { name: 'Error position' })
  await expect(caret).toHaveCount(1)
  // The caret stands right before the character PostgreSQL named: the "f" of "fromm".
  const marked = sqlEditor(page).locator('.sql-error-char')
  await expect(marked).toHaveText('f')
  // ...on the second line, the statement that ran, and the caret sits against it.
  await expect(sqlEditor(page).locator('.cm-line').nth(1)).toHaveText('select * ▲fromm customers;')
  await expect(sqlEditor(page).locator('.cm-line').nth(1).locator('.sql-error-char')).toHaveCount(1)
  const caretBox = await caret.boundingBox()
  const markedBox = await marked.boundingBox()
  expect(caretBox && markedBox && Math.abs(caretBox.x + caretBox.width - markedBox.x)).toBeLessThan(
    4,
  )
})

test("Run all keeps a BEGIN ATOMIC body whole (PostgreSQL's parse): two results, the function called", async ({
  page,
  sqlConsole,
}) => {
  // The hand-written splitter cut the body at its inner ';': three statements, END as a COMMIT.
  const results = await sqlConsole.runAll(
    'create function e2e_atomic() returns int language sql\nbegin atomic select 41; select 42; end;\nselect e2e_atomic() as answer',
  )
  await expect(results.getByRole('tab', { name: /^Result 2 · 1 row/ })).toHaveAttribute(
    'aria-selected',
    'true',
    { timeout: 60_000 },
  )
  await expect(results.getByRole('tab', { name: /^Result / })).toHaveCount(2)
  await expect(resultGrid(page).getByRole('gridcell').first()).toHaveText('42')
})

test('the database field takes a name the app has seen: its id goes in', async ({
  page,
  sqlConsole: { databaseId: small },
}) => {
  // The schema panel reads the database's tables, and its name with them.
  const schema = page.getByRole('complementary', { name: 'Schema browser' })
  await expect(schema.getByRole('tree', { name: 'Schemas' })).toBeVisible({ timeout: 60_000 })
  const { activeId } = await bridgeCall(page, 'profiles.list')
  const [known] = await bridgeCall(page, 'knownObjects.search', {
    profileId: activeId,
    kind: 'database',
  })
  expect(known).toMatchObject({ id: small, name: expect.stringMatching(/\S/) })
  const name = known?.name ?? ''

  // Typed by name (it was refused as an id), the field says whose name it is, then takes the id.
  const field = page.getByLabel('Database id')
  await field.fill(name)
  await expect(page.getByRole('status').filter({ hasText: `“${name}” is ${small}` })).toBeVisible()
  await field.press('Enter')
  await expect(field).toHaveValue(small)
})

test('a database name the app has not seen: the schema panel and the run say where a right id comes from', async ({
  page,
  staging,
}) => {
  void staging
  await openSqlConsole(page, 'postgres')
  await page.getByLabel('Database id').press('Enter')
  const schema = page.getByRole('complementary', { name: 'Schema browser' })
  const refusal = schema.getByRole('alert')
  await expect(refusal).toContainText('web console')
  await expect(refusal).not.toContainText('NOT_FOUND')
  // Refused, not "Not read yet." beneath the refusal.
  await expect(schema).not.toContainText('Not read yet')

  // The run's own refusal, in the results: the schema panel above says the same (it may be
  // reading the database again while the run answers, so the page can hold one or two alerts).
  await runStatement(page, 'select 1;')
  const results = page.getByRole('region', { name: 'Results' })
  await expect(
    results.getByRole('alert').filter({ hasText: 'knows no database with this id' }),
  ).toContainText('paste its link')
})

test('on a protected profile, DELETE asks first; cancelling sends nothing', async ({
  page,
  staging: { sandbox },
}) => {
  const { small } = await sandboxDatabases(sandbox)
  const { activeId } = await bridgeCall(page, 'profiles.list')
  await bridgeCall(page, 'profiles.update', { id: activeId, protected: true })
  await openSqlConsole(page, small)
  await expect(page.getByRole('note')).toContainText('Protected profile')

  // A read runs without asking, and tells us how many rows the table holds.
  await setEditorText(page, 'select count(*) from products')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(resultGrid(page).getByRole('gridcell').first()).toHaveText('8', { timeout: 60_000 })
  const before = await bridgeCall(page, 'activity.list', { profileId: activeId })

  await setEditorText(page, '-- tidy up\nDELETE FROM products')
  await page.keyboard.press('ControlOrMeta+Enter')
  const dialog = page.getByRole('dialog', { name: /Run on protected profile "Staging"/ })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('DELETE FROM products')
  await expect(dialog).toContainText('DELETE changes data')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Not run: you cancelled. Nothing was sent.')).toBeVisible()

  // Nothing reached the service: the activity log did not grow, and the rows are all there.
  const after = await bridgeCall(page, 'activity.list', { profileId: activeId })
  expect(after).toEqual(before)
  await setEditorText(page, 'select count(*) from products')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(resultGrid(page).getByRole('gridcell').first()).toHaveText('8')
})

test('any profile asks before a DELETE without WHERE; the setting turns it off', async ({
  page,
  startApp,
  startSandbox,
}) => {
  // Two statements on a database whose engine starts on the first: give it the time.
  test.setTimeout(300_000)
  const sandbox = await startSandbox()
  const { small } = await sandboxDatabases(sandbox)
  const app = await startApp()
  await page.goto(app.url)
  await connectStagingToSandbox(page, sandbox)
  const { activeId } = await bridgeCall(page, 'profiles.list')
  await openSqlConsole(page, small)

  await setEditorText(page, 'select 1;\ndelete from products')
  await page.keyboard.press('ControlOrMeta+Enter')
  // The cursor is in the DELETE: only it runs, and it asks first although nothing is protected.
  const dialog = page.getByRole('dialog', { name: 'Run a destructive statement?' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('delete from products')
  await expect(dialog).toContainText('DELETE without WHERE removes every row of the table')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByText('Not run: you cancelled. Nothing was sent.')).toBeVisible()
  expect(await bridgeCall(page, 'activity.list', { profileId: activeId })).toEqual([])

  // Settings → SQL console: off, and the same statement runs unasked.
  await bridgeCall(page, 'settings.update', { confirmDestructive: false })
  await openScreen(page, 'settings')
  await expect(page.getByLabel(/Ask before destructive statements/)).not.toBeChecked()
  await page.getByLabel(/Ask before destructive statements/).check()
  await expect
    .poll(async () => (await bridgeCall(page, 'settings.get')).confirmDestructive)
    .toBe(true)
  await page.getByLabel(/Ask before destructive statements/).uncheck()
  await expect
    .poll(async () => (await bridgeCall(page, 'settings.get')).confirmDestructive)
    .toBe(false)
  await openSqlConsole(page, small)
  // Ends in a number: a word at the end would leave the completion popup open over the editor.
  await setEditorText(page, 'create table scratch_rows as select 1')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(resultMeta(page)).toContainText(/SELECT|Done/, { timeout: 60_000 })
  await setEditorText(page, 'delete from scratch_rows')
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(resultMeta(page)).toContainText(/(DELETE|Done) · 1 rows? affected/, {
    timeout: 60_000,
  })
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('a read-only tab refuses an UPDATE', async ({ page, sqlConsole }) => {
  const { activeId } = await bridgeCall(page, 'profiles.list')
  await page.getByLabel('Read-only tab').check()

  await sqlConsole.run("update products set name = 'free' /* where sku = 'x' */")
  await expect(
    page.getByText(/Refused: this tab is read-only.*UPDATE changes data.*Nothing was sent/),
  ).toBeVisible()
  expect(await bridgeCall(page, 'activity.list', { profileId: activeId })).toEqual([])
  // Main refuses it too, should a caller skip the screen.
  const refused = await page.evaluate(
    async ({ profileId, databaseId, secret }) => {
      const response = await fetch('/__bridge/invoke/sql.run', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-infradesk-secret': secret },
        body: JSON.stringify({
          profileId,
          databaseId,
          tabId: 'direct',
          runId: 'direct-run',
          readOnly: true,
          sql: "update products set name = 'free'",
          maxRows: 10,
        }),
      })
      return (await response.json()) as { ok: boolean; error?: { code: string } }
    },
    { profileId: activeId, databaseId: sqlConsole.databaseId, secret: await pageSecret(page) },
  )
  expect(refused).toMatchObject({ ok: false, error: { code: 'READ_ONLY_TAB' } })
  expect(await bridgeCall(page, 'activity.list', { profileId: activeId })).toEqual([])
})

test('history and a tab’s text survive a restart of web mode', async ({ page, sqlConsole }) => {
  const text = "select sku, price from products where sku like 'DB-%' order by sku"
  await sqlConsole.run(text)
  await expect(resultMeta(page)).toContainText(/(SELECT|Done) · 2 rows/, { timeout: 60_000 })
  // A second tab with its own text.
  await page.getByRole('button', { name: 'New tab' }).click()
  await expect(page.getByRole('tab', { name: 'Query 2' })).toHaveAttribute('aria-selected', 'true')
  await setEditorText(page, 'select 42 as answer')
  // Let the debounced save of the text land.
  await expect
    .poll(async () => {
      const { activeId } = await bridgeCall(page, 'profiles.list')
      const tabs = await bridgeCall(page, 'sql.tabs.list', { profileId: activeId ?? '' })
      return tabs.map((tab) => tab.text)
    })
    .toEqual([text, 'select 42 as answer'])

  await sqlConsole.restartApp()
  await expect(page.getByRole('tab', { name: 'Query 1' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Query 2' })).toBeVisible()
  await page.getByRole('tab', { name: 'Query 1' }).click()
  await expect(sqlEditor(page)).toHaveText(text)
  await expect(page.getByLabel('Database id')).toHaveValue(sqlConsole.databaseId)

  await page.getByRole('tab', { name: 'History' }).click()
  const history = page.getByRole('region', { name: 'Query history' })
  await expect(history.getByText(text)).toBeVisible()
  await expect(history).toContainText('2 rows')
  await history.getByLabel('Search history').fill('no such statement')
  await expect(history.getByText(text)).toBeHidden()
  await history.getByLabel('Search history').fill("like 'DB-%'")
  await history.getByRole('button', { name: 'Open in new tab' }).click()
  await expect(page.getByRole('tab', { name: 'Query 3' })).toHaveAttribute('aria-selected', 'true')
  await expect(sqlEditor(page)).toHaveText(text)
})

test('the schema panel lists the seeded tables; Explain shows a plan tree', async ({
  page,
  sqlConsole: _onTheSmallDatabase,
}) => {
  const schema = page.getByRole('complementary', { name: 'Schema browser' })
  const tree = schema.getByRole('tree', { name: 'Schemas' })
  await expect(tree).toBeVisible({ timeout: 60_000 })
  for (const table of ['customers', 'orders', 'products', 'customer_order_totals']) {
    await expect(tree.getByText(table, { exact: true })).toBeVisible()
  }
  await tree.getByText('customers', { exact: true }).click()
  await expect(tree.getByRole('treeitem', { name: 'email text not null' })).toBeVisible()
  await expect(tree.getByRole('treeitem', { name: 'customer_order_totals (view)' })).toBeVisible()

  await setEditorText(
    page,
    'select c.name, o.total from orders o join customers c on c.id = o.customer_id where o.total > 100',
  )
  await page.getByRole('button', { name: 'Explain' }).click()
  const plan = page.getByRole('tree', { name: 'Query plan' })
  await expect(plan).toBeVisible({ timeout: 60_000 })
  await expect(plan.getByRole('treeitem').first()).toContainText(/Join|Loop/)
  expect(await plan.getByRole('treeitem').count()).toBeGreaterThanOrEqual(3)
  await expect(plan.getByText(/Seq Scan|Index Scan/).first()).toBeVisible()
  await expect(plan.locator('.sql-plan-bar-cost').first()).toBeVisible()
})
