import { readFile } from 'node:fs/promises'
import AxeBuilder from '@axe-core/playwright'
import ICAL from 'ical.js'
import type { CertificateRow } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import { bridgeCall } from './support/bridge'
import { certificateGrid } from './support/certificates'
import {
  addProfileFromSwitcher,
  connectToSandbox,
  expect,
  profileSwitcher,
  test,
} from './support/fixtures'
import { openScreen } from './support/screens'

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
    await connectToSandbox(page, big, { name: 'Scale', token: 'admin' })
    await addProfileFromSwitcher(page, {
      name: 'Seed',
      baseUrl: small.url,
      token: small.tokens.admin,
    })
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
    // The figures' definition is said with them: Certificates hides system ones by default.
    await expect(table).toHaveAccessibleDescription(/system certificates included/)
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

    // A search left on Certificates does not cut the figure's rows: the link clears it.
    await openScreen(page, 'certificates')
    await page.getByRole('searchbox', { name: 'Search' }).fill('no-such-certificate')
    await page.keyboard.press('Alt+0')
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible()

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
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('')

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
      expect(event.summary).toMatch(/^Certificate (expires|expired): .+ \((Scale|Seed)\)$/)
      const alarm = event.component.getFirstSubcomponent('valarm')
      // An expired certificate has no alarm; the others are reminded at most 30 days before,
      // never before the file was made (test/main/overview.test.ts checks the moments).
      if (event.summary.startsWith('Certificate expired')) expect(alarm).toBeNull()
      else expect(alarm?.getFirstPropertyValue('trigger')).toBeTruthy()
    }

    // Statuses in words, as the certificates screen writes them: the list's last rows (the
    // latest ends within 30 days) are the service's `expiring_soon`.
    await savedIcs.getByRole('button', { name: 'Dismiss' }).click()
    const scroller = page.locator('.virtual-table-wrap')
    await expect(async () => {
      await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight))
      await expect(list.getByText('expiring soon', { exact: true }).first()).toBeVisible({
        timeout: 1_000,
      })
    }).toPass({ timeout: 20_000 })
    await expect(list.getByText('expiring_soon')).toHaveCount(0)
    await scroller.evaluate((element) => element.scrollTo(0, 0))

    // The N-days box applies as it changes, without Enter, and saves the setting.
    const box = page.getByRole('spinbutton', { name: 'Days ahead' })
    const countStatus = page.getByRole('status', { name: 'Expiring count' })
    const windowText = (days: number) => {
      const end = Date.now() + days * DAY_MS
      const perProfile = [...rowsOf.values()].map(
        (rows) =>
          rows.filter((row) => row.notAfter !== null && Date.parse(row.notAfter) < end).length,
      )
      const total = perProfile.reduce((sum, count) => sum + count, 0)
      const inProfiles = perProfile.filter((count) => count > 0).length
      return `${total} ${total === 1 ? 'certificate' : 'certificates'} in ${inProfiles} of 2 profiles`
    }
    const sevenDays = windowText(7)
    expect(sevenDays).not.toBe(windowText(30))
    await box.fill('7')
    await expect(countStatus).toHaveText(sevenDays)
    await expect(box).toBeFocused()
    await expect(box).toHaveAttribute('aria-invalid', 'false')
    await expect.poll(async () => (await bridgeCall(page, 'settings.get')).expiringDays).toBe(7)
    // The arrow keys (the number box's steppers) apply too.
    await box.press('ArrowUp')
    await expect(box).toHaveValue('8')
    await expect.poll(async () => (await bridgeCall(page, 'settings.get')).expiringDays).toBe(8)
    const eightDays = windowText(8)
    await expect(countStatus).toHaveText(eightDays)

    // Out of range: marked invalid with the range named; the list read last stays, unsaved.
    for (const wrong of ['0', '-5', '5000']) {
      await box.fill(wrong)
      await expect(box).toHaveAttribute('aria-invalid', 'true')
      await expect(
        page.getByRole('alert').filter({ hasText: 'Enter whole days from 1 to 3650' }),
      ).toBeVisible()
      await expect(box).toHaveAccessibleDescription('Enter whole days from 1 to 3650')
      await expect(countStatus).toHaveText(eightDays)
      await expect(list).toHaveAttribute(
        'aria-rowcount',
        String(Number(eightDays.split(' ')[0]) + 1),
      )
    }
    await box.press('Enter')
    await box.blur()
    await expect(countStatus).toHaveText(eightDays)
    expect((await bridgeCall(page, 'settings.get')).expiringDays).toBe(8)
    // Back in range: the mark goes and the list follows.
    await box.fill('30')
    await expect(box).toHaveAttribute('aria-invalid', 'false')
    await expect(page.getByText('Enter whole days from 1 to 3650')).toHaveCount(0)
    await expect(countStatus).toHaveText(windowText(30))

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

/** Monday 00:00 UTC of the week holding `at` (written here again, not imported: a second reading). */
function weekOf(at: number): number {
  const day = Math.floor(at / DAY_MS) * DAY_MS
  return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS
}

test('the expiry chart draws each week of the next 90 days per profile, named, by keyboard', async ({
  page,
  staging: _staging,
}) => {
  const { profiles } = await bridgeCall(page, 'profiles.list')
  const profile = profiles[0]
  if (profile === undefined) throw new Error('no profile')
  const filter = { showSystem: true }
  await bridgeCall(page, 'certificates.refresh', { profileId: profile.id, filter })
  const { rows } = await bridgeCall(page, 'certificates.cached', { profileId: profile.id, filter })

  // What the chart should say, counted from the cache: not yet expired, ending in a week that
  // the next 90 days touch.
  const now = Date.now()
  const lastWeek = weekOf(now + 90 * DAY_MS)
  const perWeek = new Map<number, number>()
  for (const row of rows) {
    const end = row.notAfter === null ? Number.NaN : Date.parse(row.notAfter)
    if (!(end > now) || weekOf(end) > lastWeek) continue
    perWeek.set(weekOf(end), (perWeek.get(weekOf(end)) ?? 0) + 1)
  }
  const weeks = [...perWeek.keys()].sort((a, b) => a - b)
  expect(weeks.length).toBeGreaterThanOrEqual(2)
  const label = (week: number) => {
    const count = perWeek.get(week) ?? 0
    const what = count === 1 ? '1 certificate expires' : `${count} certificates expire`
    return `${profile.name}: ${what} in the week of ${new Date(week).toISOString().slice(0, 10)}`
  }

  await page.keyboard.press('Alt+0')
  const chart = page.getByRole('region', { name: 'Certificates expiring in the next 90 days' })
  await expect(chart).toBeVisible()
  // Drawn: one link per week with certificates, named with its numbers, its bar taller than 0.
  const bars = chart.getByRole('link')
  await expect(bars).toHaveCount(weeks.length)
  for (const [index, week] of weeks.entries()) {
    await expect(bars.nth(index)).toHaveAccessibleName(label(week))
    const box = await bars.nth(index).locator('.expiry-chart-bar').boundingBox()
    expect(box?.height ?? 0).toBeGreaterThan(2)
    expect(box?.width ?? 0).toBeGreaterThan(2)
  }
  const total = [...perWeek.values()].reduce((sum, count) => sum + count, 0)
  await expect(chart).toContainText(`${total} certificate${total === 1 ? '' : 's'}`)

  // The numbers as text: the table behind the toggle.
  await chart.getByText("The chart's numbers as a table").click()
  const numbers = chart.getByRole('table', { name: 'Certificates expiring per week and profile' })
  const firstWeek = new Date(weeks[0] as number).toISOString().slice(0, 10)
  await expect(numbers.getByRole('row', { name: new RegExp(`^${firstWeek}`) })).toContainText(
    String(perWeek.get(weeks[0] as number)),
  )

  // axe over the chart, its table open, in both themes: nothing serious or critical.
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    const results = await new AxeBuilder({ page }).include('.expiry-chart').analyze()
    const blocking = results.violations.filter((violation) =>
      ['serious', 'critical'].includes(violation.impact ?? ''),
    )
    expect(blocking.map((violation) => `${theme}: ${violation.id}`)).toEqual([])
  }

  // By keyboard: one Tab stop after the profiles table; arrows move; Enter opens the week.
  await page
    .getByRole('table', { name: 'Profiles' })
    .getByRole('button', { name: /transfers running$/ })
    .focus()
  await page.keyboard.press('Tab')
  await expect(bars.nth(0)).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await expect(bars.nth(1)).toBeFocused()
  await page.keyboard.press('Home')
  await expect(bars.nth(0)).toBeFocused()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible()
  const second = new Date(weeks[1] as number).toISOString().slice(0, 10)
  await expect(page.getByRole('status', { name: 'Expiry filter' })).toContainText(
    `Expiring in the week of ${second}`,
  )
  await expect(certificateGrid(page)).toHaveAttribute(
    'aria-rowcount',
    String((perWeek.get(weeks[1] as number) ?? 0) + 1),
  )
  expect(page.url()).toContain(`expiry=week%3A${second}`)
})
