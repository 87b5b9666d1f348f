import { readFile } from 'node:fs/promises'
import ICAL from 'ical.js'
import type { CertificateRow } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import { bridgeCall } from './support/bridge'
import { certificateGrid } from './support/certificates'
import {
  connectFromWelcome,
  expect,
  fillProfileForm,
  profileSwitcher,
  sessionsTable,
  test,
} from './support/fixtures'

/*
 * Issue 21 end to end: two sandboxes as two profiles (one with 2,000 certificates, expiries
 * spread over the seed's expired, expiring and valid material). The Overview's figures equal
 * what each cache holds; a figure opens that profile's filtered list; Expiring everywhere is
 * ordered by expiry and exports CSV and an .ics that ical.js reads back; the palette finds a
 * certificate in every profile's cache and opens it in its own.
 */

const DAY_MS = 24 * 60 * 60 * 1000

function counts(rows: readonly CertificateRow[], now: number) {
  const ends = rows.flatMap((row) => (row.notAfter === null ? [] : [Date.parse(row.notAfter)]))
  return {
    expired: ends.filter((end) => end <= now).length,
    within7: ends.filter((end) => end > now && end < now + 7 * DAY_MS).length,
    within30: ends.filter((end) => end > now && end < now + 30 * DAY_MS).length,
  }
}

test('the overview counts every cache, opens filtered lists, and exports the Expiring list', async ({
  page,
  startApp,
  startSandbox,
}) => {
  test.setTimeout(240_000)
  const downloads = await makeTempDir('infradesk-e2e-overview')
  try {
    const [big, small, app] = await Promise.all([
      startSandbox(['--certificates', '2000']),
      startSandbox(),
      startApp(),
    ])
    await page.goto(app.url)
    await connectFromWelcome(page, { name: 'Scale', baseUrl: big.url, token: big.tokens.admin })
    await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1)
    await profileSwitcher(page).click()
    await page.getByRole('menuitem', { name: 'Add profile…' }).click()
    await fillProfileForm(page, { name: 'Seed', baseUrl: small.url, token: small.tokens.admin })
    await page
      .getByRole('dialog', { name: 'Add a profile' })
      .getByRole('button', { name: 'Add profile' })
      .click()
    await expect(profileSwitcher(page)).toContainText('Seed')
    await bridgeCall(page, 'settings.update', { downloadsDir: downloads.dir })

    // Both certificate lists in the cache, system certificates included.
    const { profiles } = await bridgeCall(page, 'profiles.list')
    const rowsOf = new Map<string, CertificateRow[]>()
    for (const profile of profiles) {
      const filter = { showSystem: true }
      await bridgeCall(page, 'certificates.refresh', { profileId: profile.id, filter })
      const cached = await bridgeCall(page, 'certificates.cached', {
        profileId: profile.id,
        filter,
      })
      rowsOf.set(profile.name, cached.rows)
    }
    expect(rowsOf.get('Scale')?.length).toBeGreaterThanOrEqual(2_000)

    // Alt+0: the overview, each profile's figures as its cache holds them.
    await page.keyboard.press('Alt+0')
    const table = page.getByRole('table', { name: 'Profiles' })
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible()
    const now = Date.now()
    for (const name of ['Scale', 'Seed']) {
      const rows = rowsOf.get(name) ?? []
      const expected = counts(rows, now)
      const row = table.locator(`tr[data-profile="${name}"]`)
      await expect(row).toContainText(`${rows.length} certificates cached`)
      await expect(
        row.getByRole('button', { name: `${name}: ${expected.expired} expired` }),
      ).toBeVisible()
      await expect(
        row.getByRole('button', { name: `${name}: ${expected.within7} expiring within 7 days` }),
      ).toBeVisible()
      await expect(
        row.getByRole('button', { name: `${name}: ${expected.within30} expiring within 30 days` }),
      ).toBeVisible()
      await expect(row).toContainText('Online')
    }
    const scaleExpired = counts(rowsOf.get('Scale') ?? [], now).expired
    expect(scaleExpired).toBeGreaterThan(0)

    // A figure of the profile that is not active opens that profile's filtered list.
    await expect(profileSwitcher(page)).toContainText('Seed')
    await table
      .locator('tr[data-profile="Scale"]')
      .getByRole('button', { name: /expired$/ })
      .click()
    await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible()
    await expect(profileSwitcher(page)).toContainText('Scale')
    await expect(page.getByRole('status', { name: 'Expiry filter' })).toContainText('Expired')
    await expect(certificateGrid(page)).toHaveAttribute('aria-rowcount', String(scaleExpired + 1))

    // Expiring everywhere: both profiles, soonest first.
    await page.getByRole('link', { name: /All expiring certificates/ }).click()
    const until = Date.now() + 30 * DAY_MS
    const expectedTotal = [...rowsOf.values()]
      .flat()
      .filter((row) => row.notAfter !== null && Date.parse(row.notAfter) < until).length
    await expect(page.getByRole('status', { name: 'Expiring count' })).toHaveText(
      `${expectedTotal} certificates in 2 of 2 profiles`,
    )
    const list = page.getByRole('table', { name: 'Expiring certificates' })
    const shownDates = await list.locator('tbody tr td:first-child .muted').allTextContents()
    expect(shownDates.length).toBeGreaterThan(5)
    const dates = shownDates.map((text) => text.replace(/^ · /, ''))
    expect(dates).toEqual([...dates].sort())

    // CSV, read back.
    await page.getByRole('button', { name: 'Export CSV' }).click()
    const savedCsv = page.getByRole('status', { name: 'Export saved' })
    await expect(savedCsv).toContainText(`Saved ${expectedTotal} certificates to`)
    const csvPath = /to (.+\.csv) \(/.exec((await savedCsv.textContent()) ?? '')?.[1] ?? ''
    const csv = await readFile(csvPath, 'utf8')
    const lines = csv.split('\r\n').filter((line) => line !== '')
    expect(lines[0]).toMatch(/^profile,profile_url,certificate,/)
    expect(lines).toHaveLength(expectedTotal + 1)
    expect(lines.filter((line) => line.startsWith('Seed,')).length).toBeGreaterThan(0)
    expect(lines.filter((line) => line.startsWith('Scale,')).length).toBeGreaterThan(0)

    // The calendar, read back by ical.js: one event per certificate, a reminder 30 days before.
    // Its own Dismiss: background refresh read both profiles at once, and its expiry notices
    // (in-app in web mode) have one too.
    await savedCsv.getByRole('button', { name: 'Dismiss' }).click()
    await page.getByRole('button', { name: 'Export calendar (.ics)' }).click()
    const savedIcs = page.getByRole('status', { name: 'Export saved' })
    await expect(savedIcs).toContainText('.ics')
    const icsPath = /to (.+\.ics) \(/.exec((await savedIcs.textContent()) ?? '')?.[1] ?? ''
    const calendar = new ICAL.Component(ICAL.parse(await readFile(icsPath, 'utf8')))
    const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent))
    expect(events).toHaveLength(expectedTotal)
    for (const event of events) {
      expect(event.summary).toMatch(/^Certificate expires: .+ \((Scale|Seed)\)$/)
      const trigger = event.component
        .getFirstSubcomponent('valarm')
        ?.getFirstPropertyValue('trigger')
      expect(trigger?.toString()).toBe('-P30D')
    }

    // The palette finds a certificate in every profile's cache and opens it in its own.
    const name = rowsOf.get('Seed')?.find((row) => !row.isSystem)?.name ?? ''
    expect(name).not.toBe('')
    await page.keyboard.press('Control+k')
    const palette = page.getByRole('dialog', { name: 'Command palette' })
    await palette.getByRole('combobox').fill(name)
    const found = palette.getByRole('group', { name: 'Certificates' }).getByRole('option')
    await expect(found.filter({ hasText: 'Seed ·' }).first()).toBeVisible()
    await expect(found.filter({ hasText: 'Scale ·' }).first()).toBeVisible()
    await found.filter({ hasText: 'Seed ·' }).filter({ hasText: name }).first().click()
    await expect(profileSwitcher(page)).toContainText('Seed')
    const selected = certificateGrid(page).locator('[aria-selected="true"]')
    await expect(selected).toHaveCount(1)
    await expect(selected).toContainText(name)
  } finally {
    await downloads.remove()
  }
})
