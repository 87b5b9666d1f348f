import type { Locator, Page } from '@playwright/test'
import { addActivityLines } from './support/activity'
import { openCertificates, selectCertificate } from './support/certificates'
import { expect, test } from './support/fixtures'
import { openScreen } from './support/screens'
import { sandboxSeed } from './support/seed'
import { openSqlConsole, resultMeta, sandboxDatabases, setEditorText } from './support/sql'
import { finishedExports, seededVolume, startExport, useDownloadsFolder } from './support/volumes'

/*
 * Pictures of the screens whose layout people tripped on, at the two window sizes people use
 * (1280×800, the default window, and 1920×1080) in both themes, compared with baselines a person
 * has looked at (layout-screenshots.spec.ts-snapshots/). Geometry checks (layout.spec.ts) say
 * what must hold; these catch what nobody thought to measure: text cut, things overlapping, a
 * pane taking room it does not use, unreadable contrast.
 *
 * Deterministic: the sandbox's names are fixed, but its ids, keys, hashes and dates are made at
 * each start (dates relative to now), so everything that changes from run to run is masked, as
 * is every clock, age and duration; animations stop, the caret hides, the pointer rests on the
 * page's corner (playwright.config.ts holds the comparison's settings). One app for all the
 * pictures: the window is resized and the theme switched in place.
 */

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const
const THEMES = ['light', 'dark'] as const

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/

/** Everything on any screen that differs from one run to the next. */
function changing(page: Page): Locator[] {
  return [
    // Ids the sandbox makes at each start, wherever they show.
    page.getByText(UUID),
    // Serial numbers and fingerprints of the certificates the sandbox issues at each start.
    page.getByText(/^[0-9A-F:]{20,}$/),
    // Times, ages and durations.
    page.locator('time'),
    page.getByText(/^Updated /),
    page.getByText(/\b\d[\d,.]* ms\b/),
    // Folders the test makes for itself (the saved queries' folder, an export's destination).
    page.getByText(/^\/tmp\//),
    // The expired certificates a notice names, in no fixed order among equals.
    page.getByRole('region', { name: 'Notices' }).locator('.banner-message'),
  ]
}

/** One picture per size and theme of the screen as it is now, `extra` masked too. */
async function pictures(page: Page, screen: string, extra: Locator[] = []) {
  for (const size of SIZES) {
    await page.setViewportSize(size)
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme })
      // The page's corner: nothing there reacts to a hover.
      await page.mouse.move(size.width - 2, size.height - 2)
      await expect
        .soft(page)
        .toHaveScreenshot(`${screen}-${size.width}x${size.height}-${theme}.png`, {
          mask: [...changing(page), ...extra],
        })
    }
  }
}

test('Certificates, Activity, Transfers, the SQL console and a host name at 1280×800 and 1920×1080 in both themes look as a person approved', async ({
  page,
  staging: { sandbox },
}) => {
  // 28 pictures; on a machine shared with other work each takes seconds.
  test.setTimeout(300_000)

  // The SQL console first: its database's first statement is the slow part.
  const { small } = await sandboxDatabases(sandbox)
  await openSqlConsole(page, small)
  await setEditorText(
    page,
    "select 1 as id, 'customer name customer name' as long_text, 'short' as s",
  )
  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(resultMeta(page)).toContainText('1 row', { timeout: 90_000 })
  await expect(
    page.getByRole('complementary', { name: 'Schema browser' }).getByText('Reading…'),
  ).toHaveCount(0)
  const sqlMasks = [page.getByLabel('Database id'), resultMeta(page)]
  await pictures(page, 'sql', sqlMasks)
  await page
    .getByRole('toolbar', { name: 'Statement' })
    .getByRole('button', { name: 'Library' })
    .click()
  await expect(page.getByRole('complementary', { name: 'Saved queries' })).toBeVisible()
  await pictures(page, 'sql-library', sqlMasks)

  // Certificates: nothing selected (the list takes the width), then one selected.
  await openCertificates(page)
  await pictures(page, 'certificates')
  await selectCertificate(page, 'www-northwind')
  await pictures(page, 'certificates-selected')

  // Activity with a success and a failure carrying a long id.
  await addActivityLines(page, sandbox)
  await openScreen(page, 'activity')
  await expect(
    page.getByRole('table', { name: 'Activity' }).getByRole('row').filter({ hasText: 'NOT_FOUND' }),
  ).toHaveCount(1)
  await pictures(page, 'activity')

  // Transfers with a finished export.
  const downloads = await useDownloadsFolder(page)
  try {
    await startExport(page, await seededVolume(sandbox, 'backups-nightly'))
    await expect(finishedExports(page).getByRole('article').first()).toHaveAttribute(
      'data-state',
      'completed',
    )
    await openScreen(page, 'transfers')
    const transfers = page.getByRole('table', { name: 'Transfers' })
    await pictures(page, 'transfers', [
      // A folder of the test's own, the archive's hash, how long it took, the node's short id.
      transfers.getByTestId('transfer-destination'),
      transfers.locator('.transfer-node-name'),
      transfers.getByTestId('transfer-sha256'),
      transfers.getByRole('row').nth(1).getByRole('cell').nth(6),
    ])
  } finally {
    await downloads.remove()
  }

  // A long hyphenated host name: the proxy route a retry names (legacy-api.northwind.example).
  const seed = await sandboxSeed(sandbox)
  const failed = seed.proxyHosts.flatMap((host) =>
    host.routes.filter((route) => route.status === 'failed').map((route) => ({ host, route })),
  )
  const legacy = failed.at(-1)
  if (legacy === undefined) throw new Error('the seed has no failed route')
  await openScreen(page, 'proxy-routes')
  await page.getByLabel('Proxy host ID').fill(legacy.host.id)
  await page.getByLabel('Route ID').fill(legacy.route.id)
  await page.getByRole('button', { name: 'Retry route' }).click()
  await expect(page.getByRole('table', { name: 'Retried route' })).toContainText(
    'legacy-api.northwind.example',
  )
  await pictures(page, 'proxy-route', [
    page.getByLabel('Proxy host ID'),
    page.getByLabel('Route ID'),
  ])
})
