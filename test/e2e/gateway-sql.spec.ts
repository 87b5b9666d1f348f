import type { Page } from '@playwright/test'
import { expect } from './support/fixtures'
import { resultGrid, resultMeta, resultTabs, test } from './support/sql'

/*
 * The SQL console against the sandbox's gateway flavour (a real deployment's op 5: one result
 * per statement, each statement run on its own on a pooled connection, names-only fields, int8
 * as strings, bytea as a Buffer's JSON, 512 KiB per result, 10 statements per request). The
 * first statement starts the database's engine, hence the longer timeouts.
 */

test.setTimeout(240_000)

/** The text of the first column's cells, top to bottom. */
async function firstColumn(page: Page): Promise<string[]> {
  return resultGrid(page).locator('[role="gridcell"][aria-colindex="2"]').allInnerTexts()
}

test('Run all shows every result: int8 past 2^53 whole and sorted as a number, bytea as hex, a cut result said', async ({
  page,
  sqlConsole,
}) => {
  await sqlConsole.runAll(
    [
      "select big from (values ('9007199254740993'::int8), (10), (-3), ('9007199254740992'::int8)) t(big)",
      "select '\\x00ff10'::bytea as raw",
      "select g, repeat('x', 1000) as filler from generate_series(1, 1000) g",
    ].join(';\n'),
  )

  const third = resultTabs(page).getByRole('tab', { name: /^Result 3 · / })
  await expect(third).toBeVisible({ timeout: 90_000 })
  await expect(third).toHaveAttribute('aria-selected', 'true')
  // The service cut it at 512 KiB of rows: said in words, not as the tab's row limit.
  await expect(page.getByText(/The service cut this result at its size limit/)).toBeVisible()
  await expect(resultMeta(page)).toContainText('cut by the service')
  await expect(page.getByText(/the tab's row limit/)).toHaveCount(0)

  await resultTabs(page)
    .getByRole('tab', { name: /^Result 2 · 1 row/ })
    .click()
  await expect(resultGrid(page).getByRole('gridcell', { name: '\\x00ff10' })).toBeVisible()

  await resultTabs(page)
    .getByRole('tab', { name: /^Result 1 · 4 rows/ })
    .click()
  await expect(resultGrid(page).getByRole('gridcell', { name: '9007199254740993' })).toBeVisible()
  await resultGrid(page).getByRole('button', { name: /^big/ }).click()
  await expect(resultGrid(page).getByRole('columnheader', { name: /big/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  )
  await expect
    .poll(() => firstColumn(page))
    .toEqual(['-3', '10', '9007199254740992', '9007199254740993'])
})

test('a read-only tab refuses COMMIT and writes it cannot see; the rows stay', async ({
  page,
  sqlConsole,
}) => {
  // A view that writes when read: the classifier calls its SELECT a read.
  const results = await sqlConsole.runAll(
    "create function gw_bump() returns int language sql as 'delete from orders where id = 1 returning 1';\n" +
      'create view gw_sneaky as select gw_bump() as n',
  )
  await expect(results.getByRole('tab', { name: /^Result 2 · / })).toBeVisible({
    timeout: 90_000,
  })

  await page.getByLabel('Read-only tab').check()
  await sqlConsole.runAll('SELECT 1; COMMIT; DELETE FROM orders WHERE id = 1 RETURNING 1')
  await expect(page.getByText(/Refused: this tab is read-only.*Nothing was sent/)).toBeVisible()

  await sqlConsole.runAll('SELECT 1; DELETE FROM orders WHERE id = 1')
  await expect(page.getByText(/Refused: this tab is read-only.*DELETE changes data/)).toBeVisible()

  await sqlConsole.run('select * from gw_sneaky')
  await expect(page.getByText(/cannot execute DELETE in a read-only transaction/)).toBeVisible({
    timeout: 60_000,
  })
  await expect(page.getByText(/stays open, aborted/)).toBeVisible()

  // The service left that failed transaction on its connection; its pool closes the
  // connection after 30 s without statements, and the transaction goes with it.
  await page.waitForTimeout(31_000)
  await page.getByLabel('Read-only tab').uncheck()
  await sqlConsole.run('select count(*) as n from orders where id = 1')
  await expect(resultGrid(page).getByRole('gridcell', { name: '1', exact: true })).toBeVisible({
    timeout: 60_000,
  })
})

test('Run all of 12 statements works: one statement per request, a block whole', async ({
  page,
  sqlConsole,
}) => {
  const statements = [
    'create table gw_twelve (id int)',
    'begin',
    ...Array.from({ length: 8 }, (_, index) => `insert into gw_twelve values (${index})`),
    'commit',
    'select count(*) as n from gw_twelve',
  ]
  const results = await sqlConsole.runAll(statements.join(';\n'))
  const last = results.getByRole('tab', { name: /^Result 12 · 1 row/ })
  await expect(last).toBeVisible({ timeout: 90_000 })
  await expect(last).toHaveAttribute('aria-selected', 'true')
  await expect(resultGrid(page).getByRole('gridcell', { name: '8', exact: true })).toBeVisible()
  await expect(resultTabs(page).getByRole('tab', { name: /^Result 2 · / })).toBeVisible()
})
