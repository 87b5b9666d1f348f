import type { Profile } from '../../shared/bridge'
import type { ExpiringCertificate } from '../../shared/bridge/channels/overview'
import { csvLine } from '../../shared/csv'

/*
 * The Expiring list as files: CSV (RFC 4180) and iCalendar (RFC 5545). Pure text
 * builders, so the tests read their output back with a maintained parser.
 */

const DAY_MS = 24 * 60 * 60 * 1000

/** What a file says about a certificate's profile. */
export type ProfileLabel = Pick<Profile, 'id' | 'name' | 'baseUrl'>

export interface ExpiringFileInput {
  items: readonly ExpiringCertificate[]
  profiles: ReadonlyMap<string, ProfileLabel>
  /** The reminder comes this many days before each expiry (the list's window). */
  days: number
  /** When the file is made (DTSTAMP; days left in the CSV). */
  now: number
}

export const CSV_COLUMNS = [
  'profile',
  'profile_url',
  'certificate',
  'common_name',
  'expires_at',
  'days_left',
  'status',
  'type',
  'folder',
  'certificate_id',
  'profile_id',
] as const

/** RFC 4180, CRLF, through the shared field writer (a formula cell is prefixed with `'`). */
export function expiringCsv({ items, profiles, now }: ExpiringFileInput): string {
  const lines = [csvLine(CSV_COLUMNS)]
  for (const { profileId, row } of items) {
    const profile = profiles.get(profileId)
    const end = row.notAfter === null ? Number.NaN : Date.parse(row.notAfter)
    // Whole days, as the screens count them (certificates/model.ts): 35.4 days ago is -35,
    // "Expired 35 d ago" there, not -36; 0 is within a day either side (see `status`).
    // The app's own number, never a service's string: csvField leaves a plain "-35" a number.
    const daysLeft = Number.isNaN(end) ? null : String(Math.trunc((end - now) / DAY_MS))
    lines.push(
      csvLine([
        // What is missing is an empty field (null), as before the shared writer.
        profile?.name ?? null,
        profile?.baseUrl ?? null,
        row.name,
        row.commonName,
        row.notAfter,
        daysLeft,
        row.status,
        row.type,
        row.folderPath.join('/'),
        row.id,
        profileId,
      ]),
    )
  }
  return lines.join('')
}

/**
 * One VEVENT per certificate, an all-day event on its expiry date (UTC); SUMMARY names the
 * certificate and its profile. The UID is stable per certificate and profile, so importing a
 * newer file updates the events instead of doubling them.
 *
 * The reminder (VALARM) falls at a moment still ahead when the file is made (a calendar does not
 * fire an alarm in the past) and near enough to the expiry to act: a week before the
 * certificate's own expiry moment, else a day before it, else at once (reminderTrigger). Each is
 * counted from that certificate's expiry, so no two certificates' alarms are forced onto one
 * moment (a rule of "the days left, capped by the window" put them all at the next midnight).
 * An expired certificate gets no alarm, and its event says it expired: the list holds it, so the
 * file does.
 */
export function expiringIcs({ items, profiles, days, now }: ExpiringFileInput): string {
  const stamp = icsDateTime(now)
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Infradesk//Expiring certificates//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText('Infradesk: expiring certificates')}`,
  ]
  for (const { profileId, row } of items) {
    const end = row.notAfter === null ? Number.NaN : Date.parse(row.notAfter)
    if (Number.isNaN(end)) continue
    const profile = profiles.get(profileId)
    const profileName = profile?.name ?? profileId
    const expired = end <= now
    const summary = `Certificate ${expired ? 'expired' : 'expires'}: ${row.name} (${profileName})`
    const description = [
      `Certificate: ${row.name}`,
      ...(row.commonName === null ? [] : [`Common name: ${row.commonName}`]),
      `${expired ? 'Expired' : 'Expires'}: ${new Date(end).toISOString()}`,
      `Profile: ${profileName}${profile ? ` (${profile.baseUrl})` : ''}`,
      `Certificate id: ${row.id}`,
    ].join('\n')
    lines.push(
      'BEGIN:VEVENT',
      `UID:${escapeText(`${row.id}.${profileId}@infradesk`)}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;VALUE=DATE:${icsDate(end)}`,
      `DTEND;VALUE=DATE:${icsDate(end + DAY_MS)}`,
      `SUMMARY:${escapeText(summary)}`,
      `DESCRIPTION:${escapeText(description)}`,
      'TRANSP:TRANSPARENT',
      ...(expired
        ? []
        : [
            'BEGIN:VALARM',
            'ACTION:DISPLAY',
            `DESCRIPTION:${escapeText(summary)}`,
            reminderTrigger(end, days, now),
            'END:VALARM',
          ]),
      'END:VEVENT',
    )
  }
  lines.push('END:VCALENDAR')
  return `${lines.map(foldLine).join('\r\n')}\r\n`
}

/** RFC 5545 3.3.11: backslash, semicolon, comma and line breaks are escaped in TEXT. */
export function escapeText(text: string): string {
  return (
    text
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // Other control characters are not allowed in TEXT at all (RFC 5545 3.3.11): dropped.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  )
}

const encoder = new TextEncoder()

/**
 * RFC 5545 3.1: a line longer than 75 octets continues on the next after CRLF and one space.
 * Cut between characters, never inside a UTF-8 sequence (or a surrogate pair).
 */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line
  const parts: string[] = []
  let current = ''
  let octets = 0
  // The first line holds 75 octets; each continuation 74 after its leading space.
  let limit = 75
  for (const char of line) {
    const size = encoder.encode(char).length
    if (octets + size > limit) {
      parts.push(current)
      current = ''
      octets = 0
      limit = 74
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

/** How long before its expiry a certificate's reminder comes, the first still ahead. */
export const REMINDER_LEADS_MS = [7 * DAY_MS, DAY_MS] as const

/**
 * The TRIGGER of a certificate that expires at `end` (after `now`): a week before that moment,
 * else a day before it (never more than the list's window of `days`), else at once (the file's
 * time). Absolute UTC times: a trigger relative to the all-day event's start would count from
 * its midnight, which moves every reminder of a day onto one moment.
 */
export function reminderTrigger(end: number, days: number, now: number): string {
  const lead = REMINDER_LEADS_MS.find((ms) => ms <= days * DAY_MS && end - ms > now)
  return `TRIGGER;VALUE=DATE-TIME:${icsDateTime(lead === undefined ? now : end - lead)}`
}

function icsDate(at: number): string {
  return new Date(at).toISOString().slice(0, 10).replace(/-/g, '')
}

function icsDateTime(at: number): string {
  return `${new Date(at).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`
}
