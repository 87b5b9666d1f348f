import type { ExpiryDays } from '../../../../shared/bridge/channels/overview'

/*
 * The Overview's expiry chart as data: certificates ending in the next 90 days, per profile
 * (environment) and week. Weeks start on Monday, in UTC as the certificates' ends are written;
 * the chart shows every week the next 90 days touch, each counted whole, except that what has
 * already expired is never counted (the table's "Expired" figure says that). A bar's count is
 * exactly what the certificates screen lists for `expiry=week:<its Monday>` (expiry-window.ts
 * of certificates holds the same rule).
 */

export const EXPIRY_CHART_WINDOW_DAYS = 90
const DAY_MS = 24 * 60 * 60 * 1000
const WEEK_MS = 7 * DAY_MS

export interface ExpiryWeek {
  /** Its Monday, `YYYY-MM-DD` (UTC). */
  start: string
  /** Its Monday at 00:00 UTC, epoch ms. */
  startMs: number
}

export interface ExpiryChartRow {
  profileId: string
  /** Certificates ending in each week, in the order of `weeks`. */
  counts: number[]
  total: number
}

export interface ExpiryChart {
  weeks: ExpiryWeek[]
  rows: ExpiryChartRow[]
  /** The largest count of any one bar (0 when there is none): every row's bars share a scale. */
  max: number
  total: number
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10)
}

/** 00:00 UTC of the Monday of the week holding `at`. */
export function mondayOf(at: number): number {
  const midnight = Math.floor(at / DAY_MS) * DAY_MS
  // getUTCDay: 0 is Sunday; Monday is the first day of the week here (ISO 8601).
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7
  return midnight - sinceMonday * DAY_MS
}

/** Every week from the one holding `now` to the one holding `now + days`, oldest first. */
export function weeksAhead(now: number, days = EXPIRY_CHART_WINDOW_DAYS): ExpiryWeek[] {
  const last = mondayOf(now + days * DAY_MS)
  const weeks: ExpiryWeek[] = []
  for (let start = mondayOf(now); start <= last; start += WEEK_MS) {
    weeks.push({ start: utcDay(start), startMs: start })
  }
  return weeks
}

/**
 * Main's counts per day bucketed by week, one row per profile in `profileIds`' order (a profile
 * with nothing ending has a row of zeros: the chart says so, rather than leaving it out).
 * Days outside the weeks (main reads a little further ahead) are not counted.
 */
export function bucketByWeek(
  answer: Pick<ExpiryDays, 'now' | 'days'>,
  profileIds: readonly string[],
  days = EXPIRY_CHART_WINDOW_DAYS,
): ExpiryChart {
  const weeks = weeksAhead(answer.now, days)
  const first = weeks[0]?.startMs ?? 0
  const rows = new Map<string, ExpiryChartRow>(
    profileIds.map((profileId) => [profileId, { profileId, counts: weeks.map(() => 0), total: 0 }]),
  )
  for (const { profileId, day, count } of answer.days) {
    const row = rows.get(profileId)
    const at = Date.parse(`${day}T00:00:00.000Z`)
    if (row === undefined || Number.isNaN(at)) continue
    const index = Math.floor((at - first) / WEEK_MS)
    if (index < 0 || index >= weeks.length) continue
    row.counts[index] = (row.counts[index] ?? 0) + count
    row.total += count
  }
  const listed = [...rows.values()]
  let max = 0
  let total = 0
  for (const row of listed) {
    total += row.total
    for (const count of row.counts) max = Math.max(max, count)
  }
  return { weeks, rows: listed, max, total }
}

/** "payments: 3 certificates expire in the week of 2026-12-07" */
export function barLabel(profileName: string, count: number, week: ExpiryWeek): string {
  const what = count === 1 ? '1 certificate expires' : `${count} certificates expire`
  return `${profileName}: ${what} in the week of ${week.start}`
}
