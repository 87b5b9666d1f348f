import { describe, expect, it } from 'vitest'
import { expiringCsv } from '../../src/main/features/expiring-export'
import type { CertificateRow } from '../../src/shared/bridge'

/*
 * The Expiring CSV through the shared field writer: a certificate's name, common
 * name and folder are the service's text, so a formula there is defused; the old `^-?\d` rule
 * let `-1+1+cmd|…` through. days_left, the app's own number, stays numeric.
 */

const FORMULAS = ['=cmd|" /C calc"!A0', '+1', '-1+1+cmd|" /C calc"!A0', '@x']

function row(name: string, index: number): CertificateRow {
  return {
    id: `c${index}`,
    name,
    type: 'custom',
    status: 'active',
    folderId: null,
    folderPath: [name],
    commonName: name,
    notAfter: '2027-01-01T00:00:00.000Z',
    isSystem: false,
    hasPrivateKey: true,
  }
}

describe('expiringCsv', () => {
  it('defuses =, +, -1+1+ and @ cells from the service', () => {
    const text = expiringCsv({
      items: FORMULAS.map((name, index) => ({ profileId: 'p1', row: row(name, index) })),
      profiles: new Map([['p1', { id: 'p1', name: '@prod', baseUrl: 'https://x' }]]),
      days: 14,
      now: Date.parse('2027-02-05T00:00:00.000Z'),
    })
    const lines = text.split('\r\n').slice(1, -1)
    expect(lines).toHaveLength(FORMULAS.length)
    for (const [index, formula] of FORMULAS.entries()) {
      const quoted = `"'${formula.replace(/"/g, '""')}"`
      const plain = `'${formula}`
      const cell = /[",]/.test(formula) ? quoted : plain
      // certificate, common_name, folder: each defused; the profile name too; days_left -35.
      expect(lines[index]).toBe(
        `'@prod,https://x,${cell},${cell},2027-01-01T00:00:00.000Z,-35,active,custom,${cell},c${index},p1`,
      )
    }
  })
})
