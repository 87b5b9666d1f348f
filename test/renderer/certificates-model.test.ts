import { describe, expect, it } from 'vitest'
import type { CertificateRow } from '../../src/shared/bridge'
import { DAY_MS } from '../../src/shared/certificate-expiry'
import { certificateRow } from './support/certificate-row'
import {
  distinctValues,
  EXPIRING_SOON_DAYS,
  expiryCounts,
  expiryOf,
} from '../../src/renderer/src/features/certificates/model'

const now = Date.parse('2026-11-23T12:00:00.000Z')

function row(notAfter: string | null, overrides: Partial<CertificateRow> = {}): CertificateRow {
  return certificateRow({ id: `c-${notAfter}`, name: 'n', type: null, notAfter, ...overrides })
}

/** The counts as expiryOf decides each row's kind: what the fast comparison must match. */
function countsByExpiryOf(rows: CertificateRow[]) {
  const kinds = rows.map((item) => expiryOf(item, now).kind)
  return {
    expired: kinds.filter((kind) => kind === 'expired').length,
    soon: kinds.filter((kind) => kind === 'soon').length,
  }
}

describe('expiryCounts', () => {
  it('counts as expiryOf does, at and around the boundaries, in every date form', () => {
    const offsets = [
      -400 * DAY_MS,
      -1,
      0,
      1,
      DAY_MS,
      EXPIRING_SOON_DAYS * DAY_MS - 1,
      EXPIRING_SOON_DAYS * DAY_MS,
      EXPIRING_SOON_DAYS * DAY_MS + 1,
      5 * 365 * DAY_MS,
    ]
    const rows: CertificateRow[] = [row(null), row(''), row('not a date')]
    for (const offset of offsets) {
      const iso = new Date(now + offset).toISOString()
      rows.push(row(iso))
      // Other forms of the same instant go through Date.parse.
      rows.push(row(iso.replace('.000Z', 'Z').replace(/\.(\d{3})Z$/, '.$1+00:00')))
      rows.push(row(iso.replace('Z', '+00:00')))
    }
    for (const single of rows)
      expect(expiryCounts([single], now)).toEqual(countsByExpiryOf([single]))
    expect(expiryCounts(rows, now)).toEqual(countsByExpiryOf(rows))
  })
})

describe('distinctValues', () => {
  it('keeps the known values first, then the rows’ own, each once, without null or empty', () => {
    const rows = [row(null, { type: 'custom' }), row(null, { type: null }), row(null, { type: '' })]
    rows.push(row(null, { type: 'acme' }), row(null, { type: 'custom' }))
    expect(distinctValues(['letsencrypt', 'custom'], rows, (item) => item.type)).toEqual([
      'letsencrypt',
      'custom',
      'acme',
    ])
  })
})
