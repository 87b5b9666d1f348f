import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { expiringIcs } from '../../src/main/features/expiring-export'
import type { ExpiringCertificate } from '../../src/shared/bridge/channels/overview'

/*
 * The Expiring calendar's reminders, read back with ical.js as a calendar reads them: each alarm
 * at a moment still ahead when the file is made, near enough to the expiry to act (a week
 * before, else a day before, else at once), and certificates that expire at different moments
 * never share an alarm (the former rule, "the days left, capped by the window", counted from
 * the all-day event's midnight, put every one of them at the next midnight).
 */

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS
const NOW = Date.parse('2027-03-10T15:20:00.000Z')

function certificate(name: string, notAfter: number): ExpiringCertificate {
  return {
    profileId: 'p1',
    row: {
      id: `id-${name}`,
      name,
      commonName: `${name}.example`,
      notAfter: new Date(notAfter).toISOString(),
      status: 'active',
      type: 'internal',
      folderPath: [],
    },
  } as unknown as ExpiringCertificate
}

/** Each event's certificate name → when its alarm fires (null: no alarm), as ical.js reads it. */
function alarmsOf(text: string): Map<string, number | null> {
  const calendar = new ICAL.Component(ICAL.parse(text))
  const alarms = new Map<string, number | null>()
  for (const vevent of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(vevent)
    const name = /: (\S+) \(/.exec(event.summary)?.[1] ?? '?'
    const alarm = vevent.getFirstSubcomponent('valarm')
    if (alarm === null) {
      alarms.set(name, null)
      continue
    }
    const trigger = alarm.getFirstPropertyValue('trigger')
    if (trigger instanceof ICAL.Time) alarms.set(name, trigger.toJSDate().getTime())
    else if (trigger instanceof ICAL.Duration) {
      const start = Date.parse(`${event.startDate.toString()}T00:00:00.000Z`)
      alarms.set(name, start + trigger.toSeconds() * 1000)
    } else throw new Error(`no trigger on ${name}`)
  }
  return alarms
}

const ahead = {
  'in-30-minutes': NOW + 30 * 60 * 1000,
  'in-20-hours': NOW + 20 * HOUR_MS,
  'in-2-days': NOW + 2 * DAY_MS,
  'in-3-days-and-a-half': NOW + 3.5 * DAY_MS,
  'in-10-days': NOW + 10 * DAY_MS,
  'in-10-days-3-hours': NOW + 10 * DAY_MS + 3 * HOUR_MS,
  'in-29-days': NOW + 29 * DAY_MS,
}

function calendarOf(days: number, extra: ExpiringCertificate[] = []): string {
  return expiringIcs({
    items: [...Object.entries(ahead).map(([name, end]) => certificate(name, end)), ...extra],
    profiles: new Map([['p1', { id: 'p1', name: 'Prod', baseUrl: 'https://ims.example' }]]),
    days,
    now: NOW,
  })
}

describe('the Expiring calendar’s reminders', () => {
  it('come a week before, else a day before, else at once: always ahead of the file', () => {
    const alarms = alarmsOf(calendarOf(30))
    expect(Object.fromEntries(alarms)).toEqual({
      'in-30-minutes': NOW,
      'in-20-hours': NOW,
      'in-2-days': ahead['in-2-days'] - DAY_MS,
      'in-3-days-and-a-half': ahead['in-3-days-and-a-half'] - DAY_MS,
      'in-10-days': ahead['in-10-days'] - 7 * DAY_MS,
      'in-10-days-3-hours': ahead['in-10-days-3-hours'] - 7 * DAY_MS,
      'in-29-days': ahead['in-29-days'] - 7 * DAY_MS,
    })
  })

  it('never force two certificates that expire at different moments onto one alarm', () => {
    const alarms = [...alarmsOf(calendarOf(30)).entries()]
      // Those inside their last day are due now, together, by their own state.
      .filter(([name]) => name !== 'in-30-minutes' && name !== 'in-20-hours')
      .map(([, fires]) => fires)
    expect(new Set(alarms).size).toBe(alarms.length)
  })

  it('keep within a short window: no week-ahead reminder for a 3-day list', () => {
    const alarms = alarmsOf(
      expiringIcs({
        items: [certificate('in-2-days', ahead['in-2-days'])],
        profiles: new Map(),
        days: 3,
        now: NOW,
      }),
    )
    expect(alarms.get('in-2-days')).toBe(ahead['in-2-days'] - DAY_MS)
  })

  it('leave an expired certificate without an alarm, its event saying it expired', () => {
    const text = calendarOf(30, [certificate('gone', NOW - 2 * DAY_MS)])
    expect(alarmsOf(text).get('gone')).toBeNull()
    expect(text).toContain('SUMMARY:Certificate expired: gone (Prod)')
  })
})
