import path from 'node:path'
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCache, type Cache } from '../../src/main/cache'
import {
  certificateStatementsOn,
  createCertificateCache,
  type CertificateCache,
  type CertificateStatements,
} from '../../src/main/cache/certificates'
import { toCacheEntry } from '../../src/main/features/certificates/rows'
import type { CertificateFilter } from '../../src/shared/bridge'
import { nameThenIdOrder } from '../../src/shared/certificate-order'
import { makeTempDir, type TempDir } from '../support/tools'

/*
 * The first screenful read by the places kept in the default order (schema v17) must be the
 * rows and count the old read gives (every matching name compared in main), for any names,
 * filter and count, on a real SQLite file; and any write must void the places until they are
 * worked out again, as the list worker does after a refresh.
 */

let temp: TempDir
let cache: Cache
let certificates: CertificateCache
/** A second connection to the same file, as the list worker has. */
let worker: CertificateStatements

beforeEach(async () => {
  temp = await makeTempDir('infradesk-certificate-name-order')
  cache = openCache(path.join(temp.dir, 'cache.sqlite')).cache
  certificates = createCertificateCache(cache)
  worker = cache.extend((db) => certificateStatementsOn(db))
})

afterEach(async () => {
  cache.close()
  await temp.remove()
})

function certificate(fields: {
  id: string
  name: string
  type: string
  status: string
  isSystem: boolean
}) {
  const entry = toCacheEntry({ ...fields })
  if (entry === null) throw new Error('not a certificate')
  return entry
}

/** Names that tie, differ only by case or accents, hold digits (numeric order), or are empty. */
const names = fc.constantFrom(
  '',
  'a',
  'A',
  'á',
  'b',
  'api-2',
  'api-10',
  'Api-10',
  'zeta',
  'Zeta',
  'ünïcode',
  'mail relay',
  'mail-relay',
)
const rows = fc.uniqueArray(
  fc.record({
    id: fc.stringMatching(/^[a-zA-Z0-9_-]{1,6}$/),
    name: names,
    type: fc.constantFrom('server', 'client'),
    status: fc.constantFrom('active', 'expired'),
    isSystem: fc.boolean(),
  }),
  { selector: (row) => row.id, minLength: 0, maxLength: 40 },
)
const filters: fc.Arbitrary<CertificateFilter> = fc.record(
  {
    type: fc.constantFrom('server', 'client'),
    status: fc.constantFrom('active', 'expired'),
    search: fc.constantFrom('a', 'API', 'relay', 'zz'),
    showSystem: fc.boolean(),
  },
  { requiredKeys: [] },
)

/** What the old read gives: the screen's order over every matching row, then the first. */
function expected(
  all: ReturnType<typeof certificate>[],
  filter: CertificateFilter,
  count: number,
  locale: string,
) {
  const matching = certificates.list('p1', filter)
  if (matching.length <= count) return null
  expect(matching.length).toBeLessThanOrEqual(all.length)
  const first = [...matching].sort(nameThenIdOrder(locale)).slice(0, count)
  return { ids: first.map((row) => row.id), of: matching.length }
}

function read(filter: CertificateFilter, count: number, locale: string) {
  const window = certificates.firstRowsJson('p1', filter, { count, locale })
  if (window === null) return null
  const rows = JSON.parse(window.rows.toString('utf8')) as { id: string }[]
  return { ids: rows.map((row) => row.id), of: window.of }
}

describe('the first screenful read by the kept order', () => {
  it('gives the rows and count the old read gives, ranked or not', () => {
    fc.assert(
      fc.property(rows, filters, fc.integer({ min: 1, max: 12 }), (generated, filter, count) => {
        const entries = generated.map(certificate)
        certificates.replace('p1', { showSystem: true }, entries, 1)
        const locale = 'en'
        const want = expected(entries, filter, count, locale)
        expect(certificates.rankedIn('p1')).toBeNull()
        expect(read(filter, count, locale)).toEqual(want)
        worker.rankNames('p1', locale)
        expect(certificates.rankedIn('p1')).toBe(locale)
        expect(read(filter, count, locale)).toEqual(want)
      }),
      { numRuns: 150 },
    )
  })

  it('any write voids the places; a read in another locale does not use them', () => {
    const many = Array.from({ length: 30 }, (_, index) =>
      certificate({
        id: `c${index}`,
        name: index % 2 === 0 ? `Zeta ${index}` : `Banana ${index}`,
        type: 'server',
        status: 'active',
        isSystem: false,
      }),
    )
    certificates.replace('p1', {}, many, 1)
    certificates.replace('p2', {}, many, 1)
    worker.rankNames('p1', 'en')
    worker.rankNames('p2', 'en')
    const opening = read({}, 5, 'en')
    expect(opening?.ids).toEqual(expected(many, {}, 5, 'en')?.ids)

    // Swedish sorts "ä" after "z": the places kept for English are not used for it.
    const renamed = certificate({
      id: 'c0',
      name: 'Äpple',
      type: 'server',
      status: 'active',
      isSystem: false,
    })
    certificates.put('p1', [renamed])
    expect(certificates.rankedIn('p1')).toBeNull()
    // The other profile's places stand.
    expect(certificates.rankedIn('p2')).toBe('en')
    const all = [renamed, ...many.slice(1)]
    expect(read({}, 5, 'en')).toEqual(expected(all, {}, 5, 'en'))
    worker.rankNames('p1', 'en')
    expect(read({}, 5, 'sv')).toEqual(expected(all, {}, 5, 'sv'))
    expect(read({}, 5, 'en')).toEqual(expected(all, {}, 5, 'en'))
    expect(read({}, 5, 'en')?.ids[0]).toBe('c0')
    expect(read({}, 5, 'sv')?.ids[0]).not.toBe('c0')

    certificates.replace('p1', { type: 'server' }, many.slice(0, 10), 2)
    expect(certificates.rankedIn('p1')).toBeNull()
    expect(read({}, 5, 'en')).toEqual(expected(many.slice(0, 10), {}, 5, 'en'))
    worker.rankNames('p1', 'en')
    expect(read({}, 5, 'en')).toEqual(expected(many.slice(0, 10), {}, 5, 'en'))

    certificates.clear('p1')
    expect(certificates.rankedIn('p1')).toBeNull()
    expect(read({}, 5, 'en')).toBeNull()
    const left = cache.extend(
      (db) =>
        db
          .prepare<[string], { n: number }>(
            'SELECT count(*) AS n FROM certificate_name_order WHERE profile_id = ?',
          )
          .get('p1')?.n,
    )
    expect(left).toBe(0)
  })
})
