/*
 * One definition of a certificate's expiry, shared by every screen (Certificates, Expiring,
 * Overview), the Expiring CSV and the CLI, so a certificate that the list calls "Expired 35 d
 * ago" is -35 days left in a file and in a terminal, and "expiring within 30 days" picks the same
 * rows everywhere.
 *
 * - Expired: its end (notAfter) is at or before now.
 * - Days left: whole days between now and its end, counted toward zero: 35.9 days ahead is 35
 *   ("35 d left"), 35.9 days ago is -35 ("Expired 35 d ago"); both sides of now within a day
 *   are 0 ("Expires today" / "Expired today"), told apart by `expired`.
 * - Ends within N days: its end is before now + N days, already expired ones included (they need
 *   acting on most). The Overview's "within N days" figure is the part of those not yet expired,
 *   and its "expired" figure the rest.
 */

export const DAY_MS = 24 * 60 * 60 * 1000

/** The end of a certificate in epoch ms, or null when it has none or it cannot be read. */
export function notAfterMs(notAfter: string | null | undefined): number | null {
  if (notAfter === null || notAfter === undefined || notAfter === '') return null
  const end = Date.parse(notAfter)
  return Number.isNaN(end) ? null : end
}

export function isExpired(end: number, now: number): boolean {
  return end <= now
}

/** Whole days from now to `end`, toward zero (negative once expired; never -0). */
export function daysLeft(end: number, now: number): number {
  const days = Math.trunc((end - now) / DAY_MS)
  return days === 0 ? 0 : days
}

/** The moment before which a certificate ends "within `days` days" of `now`. */
export function windowEnd(now: number, days: number): number {
  return now + days * DAY_MS
}

/** Whether a certificate ending at `end` ends within `days` days of now (expired included). */
export function endsWithin(end: number, now: number, days: number): boolean {
  return end < windowEnd(now, days)
}

/** Not yet expired and ending within `days` days: the Overview's "within N days" figure. */
export function expiresWithin(end: number, now: number, days: number): boolean {
  return !isExpired(end, now) && endsWithin(end, now, days)
}

/** "Expired 35 d ago", "Expires today", "12 d left": the words every screen uses. */
export function daysLeftLabel(end: number, now: number): string {
  const days = daysLeft(end, now)
  if (isExpired(end, now)) return days === 0 ? 'Expired today' : `Expired ${-days} d ago`
  return days === 0 ? 'Expires today' : `${days} d left`
}
