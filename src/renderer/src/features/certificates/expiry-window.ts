import type { CertificateRow } from '../../../../shared/bridge'
import type { RouteParams } from '../../app/routes'
import { expiryOf } from './model'

/*
 * The certificates screen's filter by expiry (issue 21), as the Overview's figures open it
 * (`#/certificates?expiry=expired|7|30`). Pure: the rule is held to main's counts in tests.
 */

export const EXPIRY_WINDOWS = ['expired', '7', '30'] as const
export type ExpiryWindow = (typeof EXPIRY_WINDOWS)[number]

export const EXPIRY_WINDOW_LABELS: Record<ExpiryWindow, string> = {
  expired: 'Expired',
  '7': 'Expiring within 7 days',
  '30': 'Expiring within 30 days',
}

export function expiryWindowOf(params: RouteParams): ExpiryWindow | null {
  const value = params['expiry']
  return (EXPIRY_WINDOWS as readonly string[]).includes(value ?? '')
    ? (value as ExpiryWindow)
    : null
}

/** The same rule as main's overview counts: expired at or before now; else days left < N. */
export function inExpiryWindow(row: CertificateRow, window: ExpiryWindow, now: number): boolean {
  const expiry = expiryOf(row, now)
  if (window === 'expired') return expiry.kind === 'expired'
  if (expiry.kind === 'expired' || expiry.kind === 'unknown') return false
  return expiry.days < Number(window)
}
