import { describe, expect, it } from 'vitest'
import { epochMsOf, parseTimestamp, parseTimestampIso } from '../../src/shared/time'
import { readIncident, readStatusPage } from '../../src/shared/status-page'

/*
 * The one timestamp reader (src/shared/time.ts) and the status page reader built on it
 * (src/shared/status-page.ts): what a service that made other choices sends reads the same as
 * what the sandbox sends, and nothing it sent is dropped.
 */

const MS = Date.UTC(2025, 4, 12, 14, 3, 22)
const SECONDS = MS / 1000

describe('parseTimestamp: seconds, milliseconds, ISO 8601, and nothing else', () => {
  it('reads epoch seconds and milliseconds, as numbers or digit strings', () => {
    expect(parseTimestamp(SECONDS)).toBe(MS)
    expect(parseTimestamp(MS)).toBe(MS)
    expect(parseTimestamp(String(SECONDS))).toBe(MS)
    expect(parseTimestamp(String(MS))).toBe(MS)
    expect(parseTimestamp(SECONDS + 0.5)).toBe(MS + 500)
    expect(epochMsOf(SECONDS)).toBe(MS)
    expect(epochMsOf(MS)).toBe(MS)
    expect(parseTimestamp(0)).toBe(0)
  })

  it('reads ISO 8601 with a zone, an offset, fractions, or a date alone', () => {
    expect(parseTimestamp('2025-05-12T14:03:22Z')).toBe(MS)
    expect(parseTimestamp('2025-05-12T14:03:22.000Z')).toBe(MS)
    expect(parseTimestamp('2025-05-12T16:03:22+02:00')).toBe(MS)
    expect(parseTimestamp('2025-05-12T14:03:22.123456Z')).toBe(MS + 123)
    expect(parseTimestamp('2025-05-12')).toBe(Date.UTC(2025, 4, 12))
    expect(parseTimestampIso(SECONDS)).toBe('2025-05-12T14:03:22.000Z')
  })

  it('refuses junk rather than guess', () => {
    for (const junk of [
      'soon',
      'May 7',
      '7 May 2025',
      '',
      '2025-13-45T99:99:99Z',
      'NaN',
      Number.NaN,
      Number.POSITIVE_INFINITY,
      9e15 * 1000,
      true,
      null,
      undefined,
      {},
      [],
    ]) {
      expect(parseTimestamp(junk), String(junk)).toBeNull()
    }
    expect(parseTimestampIso('never')).toBeNull()
    // Digits are an epoch count like the number they spell (Date.parse would say 2001).
    expect(parseTimestamp('1')).toBe(parseTimestamp(1))
  })
})

describe('the status page read by synonyms, every other field kept', () => {
  it("reads the sandbox's own shape", () => {
    const page = readStatusPage({
      title: 'Northwind Status',
      slug: 'northwind',
      publicUrl: 'https://status.northwind.example',
      overallStatus: 'degraded_performance',
      components: [{ id: 'c1', name: 'API', group: 'Customer facing', status: 'operational' }],
      generatedAt: '2025-05-12T14:03:22Z',
    })
    expect(page).toMatchObject({
      title: 'Northwind Status',
      url: 'https://status.northwind.example',
      overall: { text: 'degraded_performance', level: 'degraded' },
      generatedAt: MS,
      components: [{ id: 'c1', name: 'API', status: { level: 'operational' }, extras: [] }],
      extras: [['slug', 'northwind']],
    })
  })

  it('reads page.name, overall, component state, updated_at in seconds; keeps the rest', () => {
    const page = readStatusPage({
      page: { name: 'Acme Status', url: 'https://status.acme.example', slug: 'acme' },
      overall: 'degraded',
      updated_at: SECONDS,
      timezone: 'UTC',
      subscriberCount: 1284,
      components: [{ id: 'c1', name: 'API', state: 'partial_outage', uptime: 99.9 }],
    })
    expect(page.title).toBe('Acme Status')
    expect(page.url).toBe('https://status.acme.example')
    expect(page.overall).toEqual({ text: 'degraded', level: 'degraded' })
    expect(page.generatedAt).toBe(MS)
    expect(page.components[0]).toMatchObject({
      status: { text: 'partial_outage', level: 'partial_outage' },
      extras: [['uptime', 99.9]],
    })
    expect(page.extras).toEqual([
      ['timezone', 'UTC'],
      ['subscriberCount', 1284],
      ['page.slug', 'acme'],
    ])
  })

  it('reads indicator words and keeps a word it does not know as the service wrote it', () => {
    expect(readStatusPage({ indicator: 'major' }).overall.level).toBe('partial_outage')
    expect(readStatusPage({ state: 'Under Maintenance' }).overall.level).toBe('maintenance')
    expect(readStatusPage({ status: 'on_fire' }).overall).toEqual({ text: 'on_fire', level: null })
  })

  it('reads an incident by name, state, startedAt in seconds, severity; keeps the rest', () => {
    const incident = readIncident({
      id: 'i1',
      name: 'Delayed webhooks',
      state: 'investigating',
      severity: 'minor',
      startedAt: SECONDS,
      resolvedAt: null,
      shortlink: 'https://stat.us/i1',
      updates: [{ at: SECONDS, state: 'investigating', body: 'Looking', author: 'ops' }],
    })
    expect(incident).toMatchObject({
      title: 'Delayed webhooks',
      status: { text: 'investigating', stage: 'investigating' },
      impact: 'minor',
      startedAt: MS,
      resolvedAt: null,
      open: true,
      extras: [['shortlink', 'https://stat.us/i1']],
      updates: [
        { at: MS, status: 'investigating', message: 'Looking', extras: [['author', 'ops']] },
      ],
    })
    expect(readIncident({ id: 'i2', created_at: '2025-05-12T14:03:22Z' }).startedAt).toBe(MS)
    expect(readIncident({ id: 'i3', begin: String(MS) }).startedAt).toBe(MS)
    expect(readIncident({ id: 'i4', state: 'closed' }).open).toBe(false)
    expect(readIncident({ id: 'i5', resolved_at: SECONDS }).open).toBe(false)
    // A time that does not read is not lost: it is shown as an extra.
    expect(readIncident({ id: 'i6', startedAt: 'soon' })).toMatchObject({
      startedAt: null,
      extras: [['startedAt', 'soon']],
    })
  })
})
