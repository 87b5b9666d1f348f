import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SqlField } from '../../src/shared/bridge/channels/sql'
import { ResultStore } from '../../src/main/sql/result-store'
import { compareCodePoints, sortOrder } from '../../src/main/sql/sort-order'
import { ExactNumber } from '../../src/main/sql/values'

/*
 * Issue 20, 2: a sorted SQL result is in PostgreSQL's order, not a "natural" one. Text in
 * code-point order (the C collation), numbers, booleans and times by value, NULLs last
 * ascending and first descending.
 */

const TEXT: SqlField = { name: 't', dataType: 'text', display: 'text' }
const INT8: SqlField = { name: 'n', dataType: 'int8', display: 'number' }

function sortedColumn(
  field: SqlField,
  values: unknown[],
  direction: 'asc' | 'desc' = 'asc',
): unknown[] {
  const rows = values.map((value) => [value])
  return [...sortOrder(rows, 0, field, direction)].map((index) => values[index])
}

/** `values` kept by a new result store as one column, sorted there, and read back. */
function sortedInStore(
  field: SqlField,
  values: (string | null)[],
  direction: 'asc' | 'desc',
): (string | null)[] {
  const store = new ResultStore()
  const kept = store.put(
    { tabId: 't', databaseId: 'd' },
    { fields: [field], rows: values.map((value) => [value]) },
  )
  store.sort(kept.id, 0, direction)
  return store.window(kept.id, 0, values.length).map((row) => row[0] as string | null)
}

/** The C collation: byte order of the UTF-8 encodings. */
function byUtf8Bytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex')

describe('the result store sorts as PostgreSQL orders', () => {
  it('puts md5 hex text in code-point order, not in "natural" digit order', () => {
    // The example: the collator with numeric: true put 0a00… after 0a0e….
    const hashes = ['0a0a', '0a0b', '0a0e', '0a00', '0a9f', '0a10'].map(
      (prefix) => prefix + md5(prefix).slice(4),
    )
    expect(sortedInStore(TEXT, hashes, 'asc').map((hash) => hash!.slice(0, 4))).toEqual([
      '0a00',
      '0a0a',
      '0a0b',
      '0a0e',
      '0a10',
      '0a9f',
    ])
  })

  it('puts NULLs last ascending and first descending', () => {
    const values = ['2', null, '10', null, '1']
    expect(sortedInStore(INT8, values, 'asc')).toEqual(['1', '2', '10', null, null])
    expect(sortedInStore(INT8, values, 'desc')).toEqual([null, null, '10', '2', '1'])
  })

  it('is case- and accent-sensitive by code point (upper case before lower case)', () => {
    expect(sortedColumn(TEXT, ['b', 'a', 'B', 'é', 'A', 'e', 'item10', 'item9'])).toEqual([
      'A',
      'B',
      'a',
      'b',
      'e',
      'item10',
      'item9',
      'é',
    ])
  })
})

describe('sortOrder', () => {
  it('orders any text as the UTF-8 bytes do (astral characters included)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 40 }), (texts) => {
        expect(sortedColumn(TEXT, texts)).toEqual([...texts].sort(byUtf8Bytes))
      }),
    )
    expect(compareCodePoints('\uff61', '\u{1f600}')).toBeLessThan(0)
  })

  it('orders integers of any size by value, exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n })), (numbers) => {
        const texts = numbers.map(String)
        const expected = [...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String)
        expect(sortedColumn(INT8, texts)).toEqual(expected)
      }),
    )
  })

  it('keeps NULLs last ascending, first descending, and equal values in the service order', () => {
    const cell = fc.option(fc.integer({ min: 0, max: 5 }), { nil: null })
    fc.assert(
      fc.property(fc.array(cell, { maxLength: 30 }), (values) => {
        const rows = values.map((value, index) => [value, index])
        const field: SqlField = { name: 'n', dataType: 'int4', display: 'number' }
        for (const direction of ['asc', 'desc'] as const) {
          const order = [...sortOrder(rows, 0, field, direction)].map((index) => rows[index]!)
          const nulls = order.filter((row) => row[0] === null)
          const present = order.filter((row) => row[0] !== null)
          expect(order).toEqual(
            direction === 'asc' ? [...present, ...nulls] : [...nulls, ...present],
          )
          for (let at = 1; at < present.length; at += 1) {
            const [before, after] = [present[at - 1]!, present[at]!]
            const step = (after[0] as number) - (before[0] as number)
            expect(direction === 'asc' ? step : -step).toBeGreaterThanOrEqual(0)
            // Stable in both directions: ties keep the service's order.
            if (step === 0) expect(after[1] as number).toBeGreaterThan(before[1] as number)
          }
        }
      }),
    )
  })

  it('orders numbers with exact text, special values and JSON numbers together', () => {
    const mixed = [
      'NaN',
      '10',
      'Infinity',
      new ExactNumber('0.1000000000000000055511151231257827'),
      '-Infinity',
      2,
      '0.1',
    ]
    const numeric: SqlField = { name: 'x', dataType: 'numeric', display: 'number' }
    const sorted = sortedColumn(numeric, mixed)
    expect(
      sorted.map((value) => (value instanceof ExactNumber ? value.source : String(value))),
    ).toEqual([
      '-Infinity',
      '0.1',
      '0.1000000000000000055511151231257827',
      '2',
      '10',
      'Infinity',
      'NaN',
    ])
  })

  it('orders booleans false before true', () => {
    const field: SqlField = { name: 'b', dataType: 'bool', display: 'boolean' }
    expect(sortedColumn(field, [true, 'f', false, 't'])).toEqual(['f', false, true, 't'])
  })

  it('orders dates and timestamps by time, with zones, BC years, infinity and microseconds', () => {
    const timestamptz: SqlField = { name: 'at', dataType: 'timestamptz', display: 'text' }
    expect(
      sortedColumn(timestamptz, [
        'infinity',
        '2024-01-01 10:00:00+02',
        '2024-01-01T09:30:00.000Z',
        '2024-01-01 08:00:00.000002+00',
        '2024-01-01 08:00:00.000001+00',
        '0044-03-15 00:00:00+00 BC',
        '-infinity',
        '2023-12-31 23:00:00-10:00',
      ]),
    ).toEqual([
      '-infinity',
      '0044-03-15 00:00:00+00 BC',
      '2024-01-01 10:00:00+02',
      '2024-01-01 08:00:00.000001+00',
      '2024-01-01 08:00:00.000002+00',
      '2023-12-31 23:00:00-10:00',
      '2024-01-01T09:30:00.000Z',
      'infinity',
    ])
    const date: SqlField = { name: 'd', dataType: 'date', display: 'text' }
    expect(sortedColumn(date, ['12345-01-01', '2024-02-01', '999-01-01', '2024-01-31'])).toEqual([
      '2024-01-31',
      '2024-02-01',
      '12345-01-01',
      '999-01-01',
    ])
    const timetz: SqlField = { name: 't', dataType: 'timetz', display: 'text' }
    expect(sortedColumn(timetz, ['10:00:00+02', '09:00:00+00', '08:30:00.5'])).toEqual([
      '10:00:00+02',
      '08:30:00.5',
      '09:00:00+00',
    ])
  })
})
