import type { Page } from '@playwright/test'
import { bridgeCall } from './support/bridge'
import { connectStagingToSandbox, expect, test } from './support/fixtures'

/*
 * The Overview after a first sign-in. Background refresh reads a profile whose
 * certificates were never read at once, so the figures appear without anyone pressing Refresh
 * (and not an interval later); until then the row says "not read yet", never 0 / 0 / 0 as if
 * the profile had no certificates. The counts expected are worked out here from the cache.
 */

const DAY_MS = 24 * 60 * 60 * 1000

/** The profile's cached certificate list, once one has been read (system ones included). */
async function readList(page: Page, profileId: string) {
  const filter = { showSystem: true }
  await expect
    .poll(
      async () =>
        (await bridgeCall(page, 'certificates.cached', { profileId, filter })).fetchedAt !== null,
      { message: 'the certificate list to be read', timeout: 60_000 },
    )
    .toBe(true)
  return bridgeCall(page, 'certificates.cached', { profileId, filter })
}

/** The row shows the counts the cached rows give (against the page's "now", give or take). */
async function expectCounts(page: Page, name: string, profileId: string) {
  const { rows } = await readList(page, profileId)
  const now = Date.now()
  const ends = rows.flatMap((row) => (row.notAfter === null ? [] : [Date.parse(row.notAfter)]))
  const expired = ends.filter((end) => end <= now).length
  const within7 = ends.filter((end) => end > now && end < now + 7 * DAY_MS).length
  const within30 = ends.filter((end) => end > now && end < now + 30 * DAY_MS).length
  const row = overviewRow(page, name)
  await expect(row).toContainText(`${rows.length} certificates cached`)
  await expect(row.getByRole('button', { name: `${name}: ${expired} expired` })).toBeVisible()
  await expect(
    row.getByRole('button', { name: `${name}: ${within7} expiring within 7 days` }),
  ).toBeVisible()
  await expect(
    row.getByRole('button', { name: `${name}: ${within30} expiring within 30 days` }),
  ).toBeVisible()
  await expect(row.getByText(/expir.*, not read yet/)).toHaveCount(0)
}

function overviewRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Profiles' }).locator(`tr[data-profile="${name}"]`)
}

async function openOverview(page: Page) {
  await page.keyboard.press('Alt+0')
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible()
}

async function stagingId(page: Page): Promise<string> {
  const { profiles } = await bridgeCall(page, 'profiles.list')
  const id = profiles.find((profile) => profile.name === 'Staging')?.id
  if (id === undefined) throw new Error('no profile "Staging"')
  return id
}

test('after a first sign-in the Overview shows the profile read, with no Refresh pressed', async ({
  page,
  staging: _staging,
}) => {
  await openOverview(page)
  // Background refresh is hourly (the default): the first read did not wait for the hour.
  await expectCounts(page, 'Staging', await stagingId(page))
  // The status page was read in the same run: its figure is a count too.
  await expect(overviewRow(page, 'Staging').getByText(/not read yet/)).toHaveCount(0)
})

test('a profile never read shows "not read yet", not zeros, until background refresh reads it', async ({
  page,
  welcome,
}) => {
  // Background refresh off before the first sign-in: nothing reads the certificates.
  await bridgeCall(page, 'settings.update', { backgroundRefresh: 'off' })
  await connectStagingToSandbox(page, welcome.sandbox)
  const profileId = await stagingId(page)
  await openOverview(page)
  const row = overviewRow(page, 'Staging')
  await expect(row).toContainText('Certificates not read yet')
  for (const label of ['expired', 'expiring within 7 days', 'expiring within 30 days']) {
    await expect(row.getByText(`Staging: ${label}, not read yet`)).toHaveCount(1)
    await expect(row.getByRole('button', { name: new RegExp(`${label}$`) })).toHaveCount(0)
  }
  // Which is what the cache holds: no list was read.
  const cached = await bridgeCall(page, 'certificates.cached', {
    profileId,
    filter: { showSystem: true },
  })
  expect(cached.fetchedAt).toBeNull()

  // Turned on: the profile never read is read at once, and the row fills in by itself.
  await bridgeCall(page, 'settings.update', { backgroundRefresh: 'daily' })
  await expectCounts(page, 'Staging', profileId)
  await expect(row).not.toContainText('Certificates not read yet')
})

test("the page's first reads leave before React has evaluated, and are made once", async ({
  page,
  staging: _staging,
}) => {
  // Noted in the page from before its first script: each bridge call as it leaves, the calls
  // made when React DOM evaluated (it offers itself to a DevTools hook; this one declines) and
  // those made by DOMContentLoaded, when every module of the page has run.
  await page.addInitScript(() => {
    // In the page (DOM types are not in the node tsconfig).
    const scope = globalThis as unknown as Record<string, unknown> & {
      fetch: (input: unknown, init?: unknown) => Promise<unknown>
      document: { addEventListener(type: string, listener: () => void): void }
    }
    const calls: string[] = []
    const noted: { calls: string[]; atReact?: string[]; atDomContentLoaded?: string[] } = { calls }
    scope['__startCalls'] = noted
    scope['__REACT_DEVTOOLS_GLOBAL_HOOK__'] = {
      supportsFiber: true,
      inject() {
        noted.atReact = [...calls]
        throw new Error('noted only')
      },
    }
    const sendFetch = scope.fetch.bind(scope)
    scope.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : String((input as { url?: unknown }).url)
      const channel = /\/__bridge\/invoke\/([\w.-]+)$/.exec(url)?.[1]
      if (channel !== undefined) calls.push(channel)
      return sendFetch(input, init)
    }
    scope.document.addEventListener(
      'DOMContentLoaded',
      () => (noted.atDomContentLoaded = [...calls]),
    )
  })
  // Reloaded on the Overview (the launch secret is kept in the tab).
  await openOverview(page)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible()
  await expect(overviewRow(page, 'Staging')).toBeVisible()
  const noted = await page.evaluate(
    () =>
      (globalThis as unknown as Record<string, unknown>)['__startCalls'] as {
        atReact?: string[]
        atDomContentLoaded?: string[]
      },
  )
  const first = ['overview.summary', 'app.info', 'profiles.list', 'settings.get']
  // Main reads while the page evaluates React, the contract and the screens.
  expect(noted.atReact).toEqual(first)
  // The app's own calls took those answers: none of them was sent a second time.
  expect(noted.atDomContentLoaded).toEqual(first)
})
