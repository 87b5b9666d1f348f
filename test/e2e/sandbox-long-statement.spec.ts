import { bridgeCall } from './support/bridge'
import { expect, openLocalSandbox, sessionsTable, test } from './support/fixtures'
import { openSqlConsole, resultMeta, setEditorText } from './support/sql'

/*
 * The issue "The process behind the window never stalls": on the EMBEDDED sandbox, a long
 * statement must not stall the app. Its PostgreSQL (PGlite) runs a statement synchronously;
 * when the sandbox lived in the app's process, `select pg_sleep(30)` froze every bridge call
 * for 30 s and Cancel did nothing until it ended. Now the sandbox has a process of its own: a
 * second window of the app loads its screen meanwhile, and Cancel answers at once.
 */

test.setTimeout(120_000)

test('a long statement on the local sandbox: another window loads meanwhile, Cancel answers at once', async ({
  page,
  context,
  startApp,
}) => {
  const app = await openLocalSandbox(page, startApp)
  const seed = (await bridgeCall(page, 'sandbox.seed')) as { databases: { postgres: string[] } }
  const database = seed.databases.postgres[1] ?? seed.databases.postgres[0]
  if (database === undefined) throw new Error('The sandbox seed has no PostgreSQL database')

  await openSqlConsole(page, database)
  // A first statement starts the database's engine (seconds), so the long one starts sleeping
  // as soon as it arrives.
  await setEditorText(page, 'select 1 as warm')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect(resultMeta(page)).toContainText(/1 row/, { timeout: 60_000 })

  // Two statements, run together: the cancel must also say what became of the second.
  await setEditorText(page, 'select pg_sleep(30);\nselect 2 as after_it')
  await page.getByRole('button', { name: 'Run all', exact: true }).click()
  const cancel = page.getByRole('button', { name: 'Cancel', exact: true })
  await expect(cancel).toBeEnabled()

  // Meanwhile, a second window of the app loads (the Overview) and opens the cached sessions.
  // Not openScreen: it waits for the screen's refresh to end, and the refresh asks this very
  // sandbox, whose process waits for the statement; the cached rows show before that.
  const other = await context.newPage()
  await other.goto(app.url)
  await expect(other.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible()
  // Once is enough: the app follows the address from the moment it loads (deep-links.spec).
  await other.evaluate(`window.location.hash = '#/sessions'`)
  await expect(other.getByRole('link', { name: /^Sessions/ })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(sessionsTable(other).getByText('This session', { exact: true })).toHaveCount(1)
  await other.close()

  // The statement is still sleeping (30 s): Cancel returns control well before it ends.
  await expect(cancel).toBeEnabled()
  await cancel.click()
  const notice = page.getByRole('region', { name: 'Results' }).getByRole('status')
  // Ordering, not timing: a statement that had answered would show its result, not this.
  await expect(notice).toContainText('Cancelled: Infradesk stopped waiting for the answer')
  await expect(notice).toContainText('the statement may still finish on the server')
  await expect(notice).toContainText('The statement after it was not run.')
  await expect(cancel).toBeDisabled()
  // A cancel is not shown as a failure: no error beside the notice, and the tabs say what it was.
  const results = page.getByRole('region', { name: 'Results' })
  await expect(results.getByRole('tab', { name: 'Result 1 · cancelled' })).toBeVisible()
  await expect(results.getByRole('alert')).toHaveCount(0)
  await expect(results.getByText('No result: you cancelled this statement.')).toBeVisible()
  await results.getByRole('tab', { name: 'Result 2 · not run' }).click()
  await expect(
    results.getByText('Not run: you cancelled the run at a statement before it.'),
  ).toBeVisible()
})
