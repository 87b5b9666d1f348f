import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortRows } from '../../src/renderer/src/features/certificates/model'
import type { CertificateRow } from '../../src/shared/bridge'
import {
  defaultSortLocale,
  firstInOrder,
  isLocaleTag,
  nameThenIdOrder,
} from '../../src/shared/certificate-order'

/*
 * The certificate list's default order, which main uses to pick the first screenful it sends
 * ahead and the screen uses to sort: the two must agree row for row, or the screen's
 * first rows would change when the whole list arrives.
 */

/** Names that sort differently by code unit, by case, by accent and by number. */
const nameArbitrary = fc.oneof(
  fc.constantFrom('cert-2', 'cert-10', 'Cert-2', 'cért-2', 'api', 'API', 'Älpha', 'alpha', ''),
  fc
    .tuple(
      fc.constantFrom('web', 'Web', 'wéb', 'db', 'ß', 'ǅ', '漢字', 'zeta'),
      fc.constantFrom('-', '_', ' ', '.', ''),
      fc.nat({ max: 120 }),
    )
    .map(([word, separator, number]) => `${word}${separator}${number}`),
  fc.string({ maxLength: 8 }),
)

const rowsArbitrary = fc.array(
  fc.record({ id: fc.constantFrom('a', 'B', 'c1', 'c10', 'c2', 'é'), name: nameArbitrary }),
  { maxLength: 60 },
)

function row(named: { id: string; name: string }): CertificateRow {
  return {
    id: named.id,
    name: named.name,
    type: null,
    status: null,
    commonName: null,
    notAfter: null,
    isSystem: false,
    folderId: null,
    folderPath: [],
  } as unknown as CertificateRow
}

describe("the certificate list's default order", () => {
  it('picks the first rows exactly as sorting all of them does, ties in arrival order', () => {
    const order = nameThenIdOrder(defaultSortLocale())
    fc.assert(
      fc.property(rowsArbitrary, fc.integer({ min: 0, max: 70 }), (rows, count) => {
        const sorted = [...rows].sort(order)
        expect(firstInOrder(rows, count, order)).toEqual(sorted.slice(0, count))
      }),
      { numRuns: 1000 },
    )
  })

  it("is the screen's sort by name, so main's first screenful is what the screen shows first", () => {
    const order = nameThenIdOrder(defaultSortLocale())
    fc.assert(
      fc.property(rowsArbitrary, (named) => {
        const rows = named.map(row)
        const screen = sortRows(rows, { key: 'name', direction: 'asc' })
        const ids = (list: readonly CertificateRow[]) => list.map((entry) => entry.name + entry.id)
        expect(ids(firstInOrder(rows, 25, order))).toEqual(ids(screen.slice(0, 25)))
      }),
      { numRuns: 500 },
    )
  })

  it('orders numbers by value, case and accents aside', () => {
    const names = ['cert-10', 'Cert-2', 'cért-1', 'cert-3']
    const rows = names.map((name, index) => ({ id: String(index), name }))
    const order = nameThenIdOrder('en')
    expect(firstInOrder(rows, 4, order).map((entry) => entry.name)).toEqual([
      'cért-1',
      'Cert-2',
      'cert-3',
      'cert-10',
    ])
  })

  it('accepts a locale tag and refuses anything else', () => {
    expect(isLocaleTag('en-US')).toBe(true)
    expect(isLocaleTag('sv')).toBe(true)
    expect(isLocaleTag('not a locale!')).toBe(false)
    expect(isLocaleTag('')).toBe(false)
  })
})
