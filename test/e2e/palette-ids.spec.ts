import type { Page } from '@playwright/test'
import { certificateGrid } from './support/certificates'
import { expect } from './support/fixtures'
import { namedItemsSchema, sandboxCall, statusPagePreviewSchema, test } from './support/ops'
import { failedRoute, firstSeeded } from './support/seed'

/*
 * README: "paste an id after the words to have it filled in", on every screen. Each case types
 * an operation and a real id of the sandbox into the palette, and checks the screen it opens
 * acted on that id: the item selected, the dialog open, the form filled in; an id that names
 * nothing is said so. Some run twice, the second time with the screen already open (a screen
 * reads its parameters again on each navigation, not only when it mounts).
 */

const NOT_AN_OBJECT = '00000000-0000-4000-8000-000000000000'

/** Ctrl+K, the words and ids typed, the expected operation highlighted, Enter. */
async function runFromPalette(page: Page, query: string, operation: string): Promise<void> {
  await page.keyboard.press('Control+K')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  await palette.getByRole('combobox', { name: 'Search screens and operations' }).fill(query)
  await expect(palette.getByRole('option', { selected: true })).toContainText(operation)
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
}

test('resolve incident <id>: the Status page opens that incident’s confirmation; an unknown or resolved id is said so', async ({
  page,
  ops: { sandbox, seed },
}) => {
  const preview = statusPagePreviewSchema.parse(
    (await sandboxCall(sandbox, 'GET', '/api/status-page/preview')).json,
  )
  const incident = preview.data.openIncidents[0]
  const resolvedId = seed.incidents.resolved[0]
  if (!incident || !resolvedId) throw new Error('the seed has no open or no resolved incident')

  // From another screen: the Status page opens, reads its incidents, then asks.
  await runFromPalette(page, `resolve incident ${incident.id}`, 'Resolve a status page incident')
  await expect(page.getByRole('heading', { name: 'Status page', level: 1 })).toBeVisible()
  const confirm = page.getByRole('dialog', { name: 'Resolve this incident?' })
  await expect(confirm).toContainText(incident.title)
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  // Closed, the address no longer asks for it (a reload does not bring it back).
  await expect(page).toHaveURL(/#\/status-page$/)

  // The screen already open: an id that names no incident, then a resolved one.
  await runFromPalette(page, `resolve incident ${NOT_AN_OBJECT}`, 'Resolve a status page incident')
  const problem = page.getByRole('alert', { name: 'Incident not resolvable' })
  await expect(problem).toContainText(`No incident with id ${NOT_AN_OBJECT}`)
  await expect(confirm).toHaveCount(0)
  await runFromPalette(page, `resolve incident ${resolvedId}`, 'Resolve a status page incident')
  await expect(problem).toContainText('is already resolved')
  await expect(confirm).toHaveCount(0)

  // And an open one again, from the screen itself.
  await runFromPalette(page, `resolve incident ${incident.id}`, 'Resolve a status page incident')
  await expect(confirm).toContainText(incident.title)
  await expect(problem).toHaveCount(0)
})

test('export certificate <id>: the certificate is selected (even one the filters hide) and its export opens', async ({
  page,
  ops: { sandbox },
}) => {
  const listed = namedItemsSchema.parse(
    (await sandboxCall(sandbox, 'GET', '/api/ssl-certificates?showSystem=true&limit=500')).json,
  )
  // A system certificate: the screen hides those when it opens, so it has to look further.
  const certificate = listed.data.find((row) => row.name === 'system-control-plane')
  if (!certificate) throw new Error('the sandbox has no system-control-plane certificate')

  await runFromPalette(page, `export certificate ${certificate.id}`, 'Export a certificate')
  const dialog = page.getByRole('dialog', { name: `Export “${certificate.name}”` })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)
  const row = certificateGrid(page)
    .getByRole('row')
    .filter({ has: page.getByText(certificate.name, { exact: true }) })
  await expect(row).toHaveAttribute('aria-selected', 'true')

  // Issue 40, item 21: the verb, the kind and the certificate's name (not its id).
  const named = listed.data.find((row) => row.name === 'payments-api')
  if (!named) throw new Error('the sandbox has no payments-api certificate')
  await runFromPalette(page, 'export certificate payments-api', `payments-api · ${named.id}`)
  const namedDialog = page.getByRole('dialog', { name: 'Export “payments-api”' })
  await expect(namedDialog).toBeVisible()
  await namedDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(namedDialog).toHaveCount(0)

  // On the screen already: an id that is no certificate of the profile.
  await runFromPalette(page, `export certificate ${NOT_AN_OBJECT}`, 'Export a certificate')
  await expect(page.getByRole('alert', { name: 'Certificate not exported' })).toContainText(
    `No certificate with id ${NOT_AN_OBJECT}`,
  )
  await expect(page.getByRole('dialog', { name: /^Export / })).toHaveCount(0)

  // A name no certificate of the profile has: the export is still offered, and the palette
  // says the name is the part not found, and where a certificate's id comes from. Gibberish
  // still matches nothing.
  await page.keyboard.press('Control+K')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const search = palette.getByRole('combobox', { name: 'Search screens and operations' })
  await search.fill('export certificate nosuch-name')
  await expect(palette.getByRole('option', { selected: true })).toContainText(
    'No certificate named “nosuch-name” is known to this profile',
  )
  await expect(palette.getByRole('option')).toHaveCount(1)
  await expect(palette.getByRole('status')).toHaveText(
    'No certificate named “nosuch-name” is known to this profile. The Certificates screen ' +
      'lists the certificates (select one: its details show its id), or run infradesk certs list.',
  )
  await search.fill('zqxj vwkp')
  await expect(palette.getByRole('status')).toHaveText('Nothing matches “zqxj vwkp”')
  await search.fill('resolve migration nosuch-name')
  await expect(palette.getByRole('option', { selected: true })).toContainText(
    'Resolve a migration that needs attention',
  )
  await expect(palette.getByRole('status')).toContainText(
    'No migration named “nosuch-name” is known to this profile.',
  )
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  // The operation opens as from its own words: its dialog, the id for the user to give.
  const resolve = page.getByRole('dialog', { name: 'Resolve a migration' })
  await expect(resolve.getByLabel('Migration id')).toHaveValue('')
})

test('cancel copy job <id> and retry route <host> <route>: the operation’s form is filled in, the focus on its button', async ({
  page,
  ops: { seed },
}) => {
  const running = firstSeeded(seed.copyJobs['running'], 'running copy job')
  const queued = firstSeeded(seed.copyJobs['queued'], 'queued copy job')

  await runFromPalette(page, `cancel copy job ${running}`, 'Cancel a storage copy job')
  await expect(page.getByRole('heading', { name: 'Storage jobs', level: 1 })).toBeVisible()
  await expect(page.getByLabel('Copy job ID')).toHaveValue(running)
  await expect(page.getByRole('button', { name: 'Cancel copy job…' })).toBeFocused()
  // The screen already open: the next id replaces the first.
  await runFromPalette(page, `cancel copy job ${queued}`, 'Cancel a storage copy job')
  await expect(page.getByLabel('Copy job ID')).toHaveValue(queued)

  const { host, route } = failedRoute(seed)
  await runFromPalette(page, `retry route ${host.id} ${route.id}`, 'Retry a failed managed')
  await expect(page.getByRole('heading', { name: 'Proxy routes', level: 1 })).toBeVisible()
  await expect(page.getByLabel('Proxy host ID')).toHaveValue(host.id)
  await expect(page.getByLabel('Route ID')).toHaveValue(route.id)
  await expect(page.getByRole('button', { name: 'Retry route' })).toBeFocused()
})

test('every screen an operation opens reads its parameters: a database, an app, a schema slug, a volume by node and name', async ({
  page,
  ops: { seed },
}) => {
  const database = seed.databases.postgres?.[0]
  const app = seed.apps[0]
  const slug = seed.loggingSchemas[0]
  const volume = seed.volumes[0]
  if (!database || !app || !slug || !volume) throw new Error('the seed lacks an object')

  await runFromPalette(page, `rotate database ${database}`, 'Rotate a managed database')
  await expect(page.getByRole('heading', { name: 'Database certificates', level: 1 })).toBeVisible()
  await expect(page.getByLabel('Database ID')).toHaveValue(database)

  await runFromPalette(page, `list app members ${app.id}`, 'List app members')
  await expect(page.getByLabel('App ID')).toHaveValue(app.id)

  // Not UUIDs: a slug and a volume's name follow the operation's words as typed.
  await runFromPalette(
    page,
    `logging schema ${slug}`,
    `Resolve a logging schema by slug: logging schema “${slug}”`,
  )
  await expect(page.getByLabel('Schema slug')).toHaveValue(slug)

  await runFromPalette(
    page,
    `export volume ${volume.nodeId} ${volume.name}`,
    `Export a volume: volume “${volume.name}”`,
  )
  await expect(page.getByLabel('Node id')).toHaveValue(volume.nodeId)
  await expect(page.getByLabel('Volume name')).toHaveValue(volume.name)
})
