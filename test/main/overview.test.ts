import { createHash } from 'node:crypto'
import { mkdir, readFile, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import Database from 'better-sqlite3'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CACHE_FILE_NAME } from '../../src/main/cache'
import {
  CSV_COLUMNS,
  escapeText,
  expiringCsv,
  expiringIcs,
  foldLine,
  reminderTrigger,
} from '../../src/main/features/expiring-export'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, CertificateRow, Profile } from '../../src/shared/bridge'
import type { ExpiringList, Overview } from '../../src/shared/bridge/channels/overview'
import { readIncident } from '../../src/shared/status-page'
import { readCsv } from '../support/csv-read'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * The Overview and Expiring everywhere through the desk's bridge, every part real:
 * two sandboxes as two profiles (one with 2,000 certificates, their expiries spread over the
 * seed's expired, expiring and valid material), the SQLite cache file, files written to a
 * temporary downloads folder and read back (the calendar by ical.js).
 */

const KEYRING_HINT =
  'These tests need a Secret Service on D-Bus: ' +
  '`node scripts/with-keyring.mjs npx vitest run test/main/overview.test.ts`.'
const DAY_MS = 24 * 60 * 60 * 1000

type List = ChannelOutput<'certificates.cached'>

let big: RunningSandbox
let small: RunningSandbox
let desk: TestDesk
let scale: Profile
let seed: Profile
/** Each profile's cached rows, system ones included, as the certificates screen reads them. */
const cachedRows = new Map<string, CertificateRow[]>()

beforeAll(async () => {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) throw new Error(KEYRING_HINT)
  ;[big, small] = await Promise.all([
    startSandbox({ port: 0, certificateCount: 2_000 }),
    startSandbox({ port: 0 }),
  ])
  desk = await openTestDesk('overview', { requestTimeoutMs: 30_000 })
  scale = await desk.addProfile(big, { name: 'Scale, "big"', color: '#2563eb' })
  seed = await desk.addProfile(small, { name: 'Seed', color: '#dc2626' })
  for (const profile of [scale, seed]) {
    const filter = { showSystem: true }
    await desk.value<List>('certificates.refresh', { profileId: profile.id, filter })
    const cached = await desk.value<List>('certificates.cached', { profileId: profile.id, filter })
    cachedRows.set(profile.id, cached.rows)
  }
}, 180_000)

afterAll(async () => {
  await desk?.close()
  await Promise.all([big?.close(), small?.close()])
})

function endOf(row: CertificateRow): number {
  return row.notAfter === null ? Number.NaN : Date.parse(row.notAfter)
}

describe('the overview: every profile from its caches', () => {
  it('counts what each cache holds: total, expired, within 7 and within 30 days', async () => {
    const overview = await desk.value<Overview>('overview.summary')
    expect(overview.profiles.map((entry) => entry.profileId).sort()).toEqual(
      [scale.id, seed.id].sort(),
    )
    for (const entry of overview.profiles) {
      const rows = cachedRows.get(entry.profileId) ?? []
      const now = overview.now
      const left = rows.map(endOf).filter((end) => !Number.isNaN(end))
      expect(entry.certificates).toEqual({
        total: rows.length,
        expired: left.filter((end) => end <= now).length,
        within7: left.filter((end) => end > now && end < now + 7 * DAY_MS).length,
        within30: left.filter((end) => end > now && end < now + 30 * DAY_MS).length,
      })
      expect(entry.lastRefreshAt).not.toBeNull()
      expect(entry.offline).toBe(false)
      expect(entry.transfersRunning).toBe(0)
      // The status page was never read: nothing to count yet, which is not zero.
      expect(entry.openIncidents).toBeNull()
    }
    const big = overview.profiles.find((entry) => entry.profileId === scale.id)
    // The spread the test relies on: the scaled list holds every kind of expiry.
    expect(big?.certificates?.total).toBeGreaterThanOrEqual(2_000)
    expect(big?.certificates?.expired).toBeGreaterThan(0)
    expect(big?.certificates?.within30).toBeGreaterThan(0)
    expect(big?.certificates?.within30).toBeLessThan(big?.certificates?.total ?? 0)
  })

  it('open incidents come from the cached status page', async () => {
    const state = await desk.value<ChannelOutput<'statusPage.refresh'>>('statusPage.refresh', {
      profileId: seed.id,
    })
    const open = state.items.filter((incident) => readIncident(incident).open).length
    expect(open).toBeGreaterThan(0)
    const overview = await desk.value<Overview>('overview.summary')
    const entry = overview.profiles.find((profile) => profile.profileId === seed.id)
    expect(entry?.openIncidents).toBe(open)
    expect(overview.profiles.find((p) => p.profileId === scale.id)?.openIncidents).toBeNull()
  })

  it('keeps every cached expiry in the indexed not_after column the reads use', async () => {
    const db = new Database(path.join(desk.dataDir, CACHE_FILE_NAME), { readonly: true })
    try {
      const { rows, differing } = db
        .prepare(
          `SELECT count(*) AS rows,
                  sum(not_after IS NOT json_extract(row_json, '$.notAfter')) AS differing
             FROM certificate_rows`,
        )
        .get() as { rows: number; differing: number }
      expect(rows).toBeGreaterThan(2000)
      expect(differing).toBe(0)
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT profile_id, id FROM certificate_rows
             WHERE not_after < ? ORDER BY not_after, profile_id, id`,
        )
        .all('2030-01-01T00:00:00.000Z') as { detail: string }[]
      expect(plan.map((step) => step.detail).join('\n')).toContain('certificate_rows_by_not_after')
    } finally {
      db.close()
    }
  })
})

/** The whole Expiring list: its first answer, then every window after it. */
async function wholeList(input: { days?: number } = {}): Promise<ExpiringList> {
  const list = await desk.value<ExpiringList>('overview.expiring', input)
  const items = [...list.items]
  while (items.length < list.total) {
    const window = await desk.value<ChannelOutput<'overview.expiringWindow'>>(
      'overview.expiringWindow',
      { until: list.until, offset: items.length, limit: 500 },
    )
    expect(window.items.length).toBeGreaterThan(0)
    items.push(...window.items)
  }
  return { ...list, items }
}

describe('Expiring everywhere', () => {
  function expected(untilMs: number) {
    return [scale, seed].flatMap((profile) =>
      (cachedRows.get(profile.id) ?? [])
        .filter((row) => endOf(row) < untilMs)
        .map((row) => ({ profileId: profile.id, id: row.id })),
    )
  }

  it('lists every profile’s certificates ending within the setting’s days, soonest first', async () => {
    const list = await wholeList()
    expect(list.days).toBe(30)
    expect(list.items).toHaveLength(list.total)
    expect(list.perProfile.map((entry) => entry.count).reduce((a, b) => a + b, 0)).toBe(list.total)
    const until = Date.parse(list.until)
    const ids = (items: { profileId: string; id: string }[]) =>
      items.map((item) => `${item.profileId}/${item.id}`).sort()
    expect(ids(list.items.map(({ profileId, row }) => ({ profileId, id: row.id })))).toEqual(
      ids(expected(until)),
    )
    expect(new Set(list.items.map((item) => item.profileId))).toEqual(new Set([scale.id, seed.id]))
    const ends = list.items.map((item) => endOf(item.row))
    expect(ends).toEqual([...ends].sort((a, b) => a - b))
  })

  it('follows the setting, and a window asked for', async () => {
    await desk.value('settings.update', { expiringDays: 3650 })
    const wide = await wholeList()
    expect(wide.days).toBe(3650)
    // More than one window: the windows join into the list in order, nothing twice.
    expect(wide.total).toBeGreaterThan(500)
    expect(new Set(wide.items.map((item) => `${item.profileId}/${item.row.id}`)).size).toBe(
      wide.total,
    )
    const wideEnds = wide.items.map((item) => endOf(item.row))
    expect(wideEnds).toEqual([...wideEnds].sort((a, b) => a - b))
    const narrow = await wholeList({ days: 7 })
    expect(narrow.days).toBe(7)
    expect(wide.items.length).toBeGreaterThan(narrow.items.length)
    expect(wide.items.length).toBe(expected(Date.parse(wide.until)).length)
    expect(narrow.items.length).toBe(expected(Date.parse(narrow.until)).length)
    await desk.value('settings.update', { expiringDays: 30 })
  })

  it('the web transport’s JSON answer is the same list', async () => {
    const bytes = await desk.desk.dispatchJson('overview.expiring', { days: 30 })
    const viaJson = JSON.parse(bytes.toString('utf8')) as { ok: true; value: ExpiringList }
    const viaObjects = await desk.value<ExpiringList>('overview.expiring', { days: 30 })
    expect(viaJson.ok).toBe(true)
    expect(viaJson.value.items).toEqual(viaObjects.items)
    expect(viaJson.value.total).toBe(viaObjects.total)
    const input = { until: viaObjects.until, offset: 3, limit: 5 }
    const windowBytes = await desk.desk.dispatchJson('overview.expiringWindow', input)
    const windowJson = JSON.parse(windowBytes.toString('utf8')) as {
      value: ChannelOutput<'overview.expiringWindow'>
    }
    const window = await desk.value<ChannelOutput<'overview.expiringWindow'>>(
      'overview.expiringWindow',
      input,
    )
    expect(windowJson.value).toEqual(window)
    expect(window.items).toEqual((await wholeList({ days: 30 })).items.slice(3, 8))
  })

  it('exports CSV that reads back as the list', async () => {
    const list = await wholeList()
    const saved = await desk.value<ChannelOutput<'overview.exportExpiring'>>(
      'overview.exportExpiring',
      { format: 'csv' },
    )
    expect(saved.path).not.toBeNull()
    const file = await readFile(saved.path ?? '')
    expect(path.dirname(saved.path ?? '')).toBe(desk.downloads)
    expect(saved.bytes).toBe(file.length)
    expect(saved.sha256).toBe(createHash('sha256').update(file).digest('hex'))
    const [header, ...records] = readCsv(file.toString('utf8'))
    expect(header).toEqual([...CSV_COLUMNS])
    expect(records).toHaveLength(list.items.length)
    const names = new Map([
      [scale.id, scale.name],
      [seed.id, seed.name],
    ])
    records.forEach((record, index) => {
      const item = list.items[index]
      const at = (column: (typeof CSV_COLUMNS)[number]) => record[CSV_COLUMNS.indexOf(column)]
      expect(at('profile')).toBe(names.get(item?.profileId ?? ''))
      expect(at('certificate')).toBe(item?.row.name)
      expect(at('expires_at')).toBe(item?.row.notAfter)
      expect(at('certificate_id')).toBe(item?.row.id)
    })
  })

  it('exports an iCalendar file that ical.js reads back as the list', async () => {
    const list = await wholeList()
    const saved = await desk.value<ChannelOutput<'overview.exportExpiring'>>(
      'overview.exportExpiring',
      { format: 'ics' },
    )
    const text = await readFile(saved.path ?? '', 'utf8')
    checkRfc5545Lines(text)
    const calendar = new ICAL.Component(ICAL.parse(text))
    const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent))
    const dated = list.items.filter((item) => item.row.notAfter !== null)
    let expired = 0
    let alarms = 0
    expect(events).toHaveLength(dated.length)
    const names = new Map([
      [scale.id, scale.name],
      [seed.id, seed.name],
    ])
    events.forEach((event, index) => {
      const item = dated[index]
      expect(item).toBeDefined()
      if (item === undefined) return
      expect(event.startDate.isDate).toBe(true)
      expect(event.startDate.toString()).toBe(item.row.notAfter?.slice(0, 10))
      expect(event.uid).toBe(`${item.row.id}.${item.profileId}@infradesk`)
      const alarm = event.component.getFirstSubcomponent('valarm')
      const end = Date.parse(item.row.notAfter ?? '')
      if (end <= stampOf(text)) {
        // Expired: said so, and no alarm (it could only be in the past).
        expect(event.summary).toBe(
          `Certificate expired: ${item.row.name} (${names.get(item.profileId)})`,
        )
        expect(alarm).toBeNull()
        expired += 1
        return
      }
      expect(event.summary).toBe(
        `Certificate expires: ${item.row.name} (${names.get(item.profileId)})`,
      )
      expect(alarm).not.toBeNull()
      // Whatever form the trigger takes, the alarm is never before the file was made, and
      // never earlier than `days` before the expiry date.
      const fires = alarmTime(event, alarm)
      expect(fires).toBeGreaterThanOrEqual(stampOf(text))
      expect(fires).toBeGreaterThanOrEqual(utcStartOf(event) - list.days * DAY_MS)
      expect(fires).toBeLessThanOrEqual(utcStartOf(event))
      alarms += 1
    })
    expect(new Set(events.map((event) => event.uid)).size).toBe(events.length)
    // The seed has both: the rule above ran on each kind.
    expect(expired).toBeGreaterThan(0)
    expect(alarms).toBeGreaterThan(0)
  })
})

describe('web mode: the downloads folder', () => {
  it('makes the default folder when it is missing; a chosen folder that went away is told', async () => {
    await rm(desk.downloads, { recursive: true, force: true })
    const saved = await desk.value<ChannelOutput<'overview.exportExpiring'>>(
      'overview.exportExpiring',
      { format: 'csv' },
    )
    expect(path.dirname(saved.path ?? '')).toBe(desk.downloads)
    expect((await stat(saved.path ?? '')).size).toBe(saved.bytes)

    const chosen = path.join(desk.temp.dir, 'chosen-downloads')
    await mkdir(chosen)
    await desk.value('settings.update', { downloadsDir: chosen })
    await rm(chosen, { recursive: true })
    const refused = await desk.failure('overview.exportExpiring', { format: 'csv' })
    expect(refused).toMatchObject({
      code: 'NOT_WRITABLE',
      message: `The downloads folder ${chosen} does not exist: choose another one in Settings.`,
      details: [{ path: ['downloadsDir'], message: 'No such folder' }],
    })
    await expect(stat(chosen)).rejects.toThrow()

    // Settings takes the default back though it is missing again, and makes it.
    await rm(desk.downloads, { recursive: true, force: true })
    const back = await desk.value<{ downloadsDir: string }>('settings.update', {
      downloadsDir: desk.downloads,
    })
    expect(back.downloadsDir).toBe(desk.downloads)
    expect((await stat(desk.downloads)).isDirectory()).toBe(true)
    // Any other missing folder is still refused on its field.
    const missing = await desk.failure('settings.update', { downloadsDir: chosen })
    expect(missing.details).toEqual([{ path: ['downloadsDir'], message: 'No such folder' }])
  })
})

describe('RFC 5545 text: folding and escaping', () => {
  const awkward: CertificateRow = {
    id: 'c1',
    name: 'api; "edge", C:\\certs\nsecond line — ünïcödé ' + '证书'.repeat(40),
    type: 'custom',
    status: 'active',
    folderId: null,
    folderPath: [],
    commonName: 'api.example.com',
    notAfter: '2027-03-04T05:06:07.000Z',
    isSystem: false,
    hasPrivateKey: true,
  }

  it('escapes backslash, semicolon, comma and line breaks', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf')
  })

  it('folds at 75 octets without cutting a character', () => {
    const line = `SUMMARY:${'é'.repeat(100)}`
    const folded = foldLine(line)
    const parts = folded.split('\r\n')
    for (const part of parts) expect(Buffer.byteLength(part, 'utf8')).toBeLessThanOrEqual(75)
    expect(parts.slice(1).every((part) => part.startsWith(' '))).toBe(true)
    expect(parts.map((part, index) => (index === 0 ? part : part.slice(1))).join('')).toBe(line)
    expect(foldLine('SHORT:line')).toBe('SHORT:line')
  })

  it('a reminder never falls before the file: a week before, else a day before, else at once', () => {
    const now = Date.parse('2027-01-10T15:00:00.000Z')
    // 40 days ahead: a week before the expiry moment (expiring-export.test.ts has the rest).
    expect(reminderTrigger(Date.parse('2027-02-19T08:00:00.000Z'), 14, now)).toBe(
      'TRIGGER;VALUE=DATE-TIME:20270212T080000Z',
    )
    // 4 days 17 hours ahead: a day before it.
    expect(reminderTrigger(Date.parse('2027-01-15T08:00:00.000Z'), 14, now)).toBe(
      'TRIGGER;VALUE=DATE-TIME:20270114T080000Z',
    )
    // Later today: at the file's own time.
    expect(reminderTrigger(Date.parse('2027-01-10T23:00:00.000Z'), 14, now)).toBe(
      'TRIGGER;VALUE=DATE-TIME:20270110T150000Z',
    )
  })

  it('the CSV counts whole days left as the screens do: 35.4 days ago is -35', () => {
    const now = Date.parse('2027-01-10T12:00:00.000Z')
    const at = (days: number) => new Date(now + days * DAY_MS).toISOString()
    const csv = expiringCsv({
      items: [-35.4, -0.2, 0.5, 2.7].map((days, index) => ({
        profileId: 'p1',
        row: { ...awkward, id: `c${index}`, name: `n${index}`, notAfter: at(days) },
      })),
      profiles: new Map([['p1', { id: 'p1', name: 'Prod', baseUrl: 'https://x' }]]),
      days: 14,
      now,
    })
    const [header, ...records] = readCsv(csv)
    const column = header?.indexOf('days_left') ?? -1
    expect(records.map((record) => record[column])).toEqual(['-35', '0', '0', '2'])
  })

  it('an expired certificate is an event that says so, without an alarm', () => {
    const text = expiringIcs({
      items: [
        { profileId: 'p1', row: { ...awkward, name: 'old', notAfter: '2026-12-01T00:00:00.000Z' } },
      ],
      profiles: new Map([['p1', { id: 'p1', name: 'Prod', baseUrl: 'https://x' }]]),
      days: 14,
      now: Date.parse('2027-01-01T00:00:00.000Z'),
    })
    const vevent = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent')
    expect(vevent?.getFirstPropertyValue('summary')).toBe('Certificate expired: old (Prod)')
    expect(vevent?.getFirstSubcomponent('valarm')).toBeNull()
    expect(vevent?.getFirstPropertyValue('description')).toContain(
      'Expired: 2026-12-01T00:00:00.000Z',
    )
  })

  it('a name with every special character reads back whole', () => {
    const text = expiringIcs({
      items: [{ profileId: 'p1', row: awkward }],
      profiles: new Map([['p1', { id: 'p1', name: 'Prod, EU; "main"', baseUrl: 'https://x' }]]),
      days: 14,
      now: Date.parse('2027-01-01T00:00:00.000Z'),
    })
    checkRfc5545Lines(text)
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent('vevent') ?? undefined,
    )
    expect(event.summary).toBe(`Certificate expires: ${awkward.name} (Prod, EU; "main")`)
    expect(event.description).toContain(`Certificate: ${awkward.name}`)
    expect(event.startDate.toString()).toBe('2027-03-04')
    expect(event.endDate.toString()).toBe('2027-03-05')
  })
})

describe('search across profiles', () => {
  it('finds a certificate by name in every profile’s cache', async () => {
    const name = (cachedRows.get(seed.id) ?? []).find((row) => !row.isSystem)?.name ?? ''
    expect(name).not.toBe('')
    const found = await desk.value<ChannelOutput<'overview.searchCertificates'>>(
      'overview.searchCertificates',
      { query: name.toUpperCase(), limit: 100 },
    )
    const profiles = new Set(found.map((item) => item.profileId))
    // The scaled sandbox holds the seed's certificates too, and copies named after them.
    expect(profiles).toEqual(new Set([scale.id, seed.id]))
    for (const item of found) expect(item.row.name.toLowerCase()).toContain(name.toLowerCase())
  })
})

/** CRLF only, and no line over 75 octets. */
function checkRfc5545Lines(text: string) {
  expect(text.endsWith('\r\n')).toBe(true)
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
  for (const line of text.split('\r\n')) {
    expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75)
  }
}

/** The file's DTSTAMP (when it was made), from its first event. */
function stampOf(text: string): number {
  const stamp = /^DTSTAMP:(\d{8}T\d{6}Z)$/m.exec(text)?.[1]
  if (stamp === undefined) throw new Error('no DTSTAMP')
  return Date.parse(
    stamp.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'),
  )
}

/**
 * When an alarm fires: an absolute DATE-TIME, or a duration from the event's start. The
 * all-day start is read as UTC midnight, as the file computes it.
 */
function alarmTime(event: ICAL.Event, alarm: ICAL.Component | null): number {
  const trigger = alarm?.getFirstPropertyValue('trigger')
  if (trigger instanceof ICAL.Time) return trigger.toJSDate().getTime()
  if (trigger instanceof ICAL.Duration) return utcStartOf(event) + trigger.toSeconds() * 1000
  throw new Error(`an alarm without a trigger: ${String(trigger)}`)
}

/** An all-day event's date at UTC midnight. */
function utcStartOf(event: ICAL.Event): number {
  return Date.parse(`${event.startDate.toString()}T00:00:00.000Z`)
}
