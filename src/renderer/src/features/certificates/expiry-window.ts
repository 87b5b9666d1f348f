import type { CertificateRow } from '../../../../shared/bridge'
import type { RouteParams } from '../../app/routes'
import { expiryOf } from './model'

/*
 * The certificates screen's filter by expiry, as the Overview's figures open it
 * (`#/certificates?expiry=expired|7|30`), and its expiry chart's bars (`expiry=week:2026-12-07`:
 * not yet expired, ending in the week from that Monday, UTC). Pure: the rule is held to main's
 * counts in tests.
 */

export const EXPIRY_WINDOWS = ['expired', '7', '30'] as const
export type ExpiryWindow = (typeof EXPIRY_WINDOWS)[number] | `week:${string}`

const WEEK_WINDOW = /^week:(\d{4}-\d{2}-\d{2})$/
const WEEK_MS = 7 * 24 * 60 * 60 * 1000

export const EXPIRY_WINDOW_LABELS: Record<(typeof EXPIRY_WINDOWS)[number], string> = {
  expired: 'Expired',
  '7': 'Expiring within 7 days',
  '30': 'Expiring within 30 days',
}

/** The week's start (00:00 UTC, epoch ms) of a `week:` window; null for the others. */
function weekStartOf(window: ExpiryWindow): number | null {
  const day = WEEK_WINDOW.exec(window)?.[1]
  if (day === undefined) return null
  const start = Date.parse(`${day}T00:00:00.000Z`)
  return Number.isNaN(start) ? null : start
}

export function expiryWindowLabel(window: ExpiryWindow): string {
  const start = weekStartOf(window)
  if (start !== null) return `Expiring in the week of ${window.slice('week:'.length)}`
  return EXPIRY_WINDOW_LABELS[window as (typeof EXPIRY_WINDOWS)[number]] ?? window
}

export function expiryWindowOf(params: RouteParams): ExpiryWindow | null {
  const value = params['expiry'] ?? ''
  if (weekStartOf(value as ExpiryWindow) !== null) return value as ExpiryWindow
  return (EXPIRY_WINDOWS as readonly string[]).includes(value) ? (value as ExpiryWindow) : null
}

/** The same rule as main's overview counts: expired at or before now; else days left < N. */
export function inExpiryWindow(row: CertificateRow, window: ExpiryWindow, now: number): boolean {
  const expiry = expiryOf(row, now)
  if (window === 'expired') return expiry.kind === 'expired'
  const weekStart = weekStartOf(window)
  if (weekStart !== null) {
    if (expiry.kind === 'expired' || expiry.kind === 'unknown') return false
    const end = Date.parse(row.notAfter ?? '')
    return end >= weekStart && end < weekStart + WEEK_MS
  }
  if (expiry.kind === 'expired' || expiry.kind === 'unknown') return false
  return expiry.days < Number(window)
}
