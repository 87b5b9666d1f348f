import { expect, test } from './support/fixtures'
import { addTemplateFolders, expectActivityLine, openOps, openScreen } from './support/ops'
import { moveWithKeyboard, orderOf } from './support/sortable'

/*
 * A real deployment answers ops 8 and 14 with 200 while the work failed: the managed database
 * comes back `status: "error"`, the route `status: "failed"`, each with `lastError` (the
 * `gateway` project). The app says it failed, shows the service's reason and the answer, and
 * the Activity log has the line as an error. A reorder answered `{"success": true}` alone is
 * saved, and the order kept is the one sent.
 */

interface RawSeed {
  databases: { daemonCannotReload?: string[] }
  proxyHosts: { id: string; routes: { id: string; status: string; retryFailsAgain?: boolean }[] }[]
}

async function rawSeed(sandbox: { url: string; tokens: { admin: string } }): Promise<RawSeed> {
  const response = await fetch(`${sandbox.url}/__sandbox/seed`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  return (await response.json()) as RawSeed
}

test('op 8 answered 200 with status error: a failure on screen with lastError, and in Activity', async ({
  page,
  staging,
}) => {
  const { sandbox } = await openOps(staging)
  const databaseId = (await rawSeed(sandbox)).databases.daemonCannotReload?.[0]
  if (!databaseId) throw new Error('the gateway seed names no database whose daemon cannot reload')

  await openScreen(page, 'Database certificates')
  await page.getByLabel('Database ID').fill(databaseId)
  await page.getByRole('button', { name: 'Rotate certificate…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Rotate this database’s certificate?' })
  await dialog.getByRole('button', { name: 'Rotate certificate' }).click()
  await expect(dialog).toHaveCount(0)

  const failure = page.getByRole('alert').filter({ hasText: 'says the work failed' })
  await expect(failure).toContainText('The certificate was not rotated', { ignoreCase: true })
  await expect(failure.getByLabel('Reported status: error')).toBeVisible()
  await expect(failure).toContainText('Last error: Managed database update failed')
  await failure.getByText('The answer as the service returned it').click()
  await expect(failure.getByRole('table', { name: 'The failed answer' })).toContainText(databaseId)
  // No success is claimed anywhere.
  await expect(page.getByRole('status', { name: 'Rotation outcome' })).toHaveCount(0)

  await expectActivityLine(page, {
    operation: 'rotateDatabaseCertificate',
    target: databaseId,
    outcome: 'Error',
    text: /Managed database update failed/,
  })
})

test('op 14 answered 200 with the route failed again: a failure with lastError, and in Activity', async ({
  page,
  staging,
}) => {
  const { sandbox } = await openOps(staging)
  const seed = await rawSeed(sandbox)
  const host = seed.proxyHosts.find((candidate) =>
    candidate.routes.some((route) => route.retryFailsAgain === true),
  )
  const route = host?.routes.find((candidate) => candidate.retryFailsAgain === true)
  if (!host || !route) throw new Error('the gateway seed has no route whose retry fails again')

  await openScreen(page, 'Proxy routes')
  await page.getByLabel('Proxy host ID').fill(host.id)
  await page.getByLabel('Route ID').fill(route.id)
  await page.getByRole('button', { name: 'Retry route' }).click()

  const failure = page.getByRole('alert').filter({ hasText: 'says the work failed' })
  await expect(failure).toContainText('The route was not retried')
  await expect(failure.getByLabel('Reported status: failed')).toBeVisible()
  await expect(failure).toContainText(/Last error: .*DNS/)
  await expect(page.getByText(`Route ${route.id} retried`)).toHaveCount(0)

  await expectActivityLine(page, {
    operation: 'retryProxyRoute',
    target: host.id,
    outcome: 'Error',
    text: /DNS/,
  })
})

test('op 9 answered {"success": true} with no list: saved, no malformed answer, and the order is kept', async ({
  page,
  staging,
}) => {
  const { seed } = await openOps(staging)
  const ids = seed.nginxTemplateFolders
  await openScreen(page, 'Nginx templates')
  const list = await addTemplateFolders(page, ids)
  const expected = [...ids]
  await moveWithKeyboard(page, list, 1, 1)
  expected.splice(2, 0, ...expected.splice(1, 1))
  await expect.poll(() => orderOf(list, ids)).toEqual(expected)

  await page.getByRole('button', { name: 'Save order' }).click()
  await expect(page.getByText('New order saved')).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)

  // The order sent is what the app kept (the answer listed none): where the screen starts next.
  await page.reload()
  await openScreen(page, 'Nginx templates')
  await expect.poll(() => orderOf(list, ids)).toEqual(expected)
  await expectActivityLine(page, { operation: 'reorderNginxTemplateFolders', outcome: 'Success' })
})
