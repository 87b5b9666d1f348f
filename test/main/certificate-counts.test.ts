import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openCache, type Cache } from '../../src/main/cache'
import { createCertificateCache } from '../../src/main/cache/certificates'
import { createOverviewReads } from '../../src/main/cache/overview'
import { toCacheEntry } from '../../src/main/features/certificates/rows'
import { makeTempDir, type TempDir } from '../support/tools'

/*
 * Each profile's number of cached certificates is kept by triggers (schema v15) so the Overview
 * reads it without counting. Whatever the list's writer does (a refresh that replaces what its
 * filter covers, an upload's put that adds or updates, a profile cleared), the kept number must
 * equal what a count of the rows says, on a real SQLite file.
 */

let temp: TempDir
let cache: Cache

beforeEach(async () => {
  temp = await makeTempDir('infradesk-certificate-counts')
  cache = openCache(path.join(temp.dir, 'cache.sqlite')).cache
})

afterEach(async () => {
  cache.close()
  await temp.remove()
})

function certificate(id: string, type: string, fields: Record<string, unknown> = {}) {
  const entry = toCacheEntry({ id, name: `cert ${id}`, type, ...fields })
  if (entry === null) throw new Error('not a certificate')
  return entry
}

/** The kept totals beside a count of the rows, per profile. */
function keptAndCounted(): { kept: Record<string, number>; counted: Record<string, number> } {
  const kept = Object.fromEntries(createOverviewReads(cache).certificateCounts(0))
  const counted = cache.extend((db) =>
    Object.fromEntries(
      db
        .prepare<[], [string, number]>(
          'SELECT profile_id, count(*) FROM certificate_rows GROUP BY profile_id',
        )
        .raw(true)
        .all(),
    ),
  ) as Record<string, number>
  return {
    kept: Object.fromEntries(Object.entries(kept).map(([id, counts]) => [id, counts.total])),
    counted,
  }
}

describe('the kept number of cached certificates', () => {
  it('follows replaces, puts and clears as a count of the rows would', () => {
    const certificates = createCertificateCache(cache)
    const many = (prefix: string, type: string, count: number) =>
      Array.from({ length: count }, (_, index) => certificate(`${prefix}-${index}`, type))

    certificates.replace('p1', {}, [...many('a', 'server', 30), ...many('b', 'client', 20)], 1)
    certificates.replace('p2', {}, many('c', 'server', 7), 1)
    expect(keptAndCounted().kept).toEqual({ p1: 50, p2: 7 })

    // A refresh with a filter replaces only what it covers: 20 client rows become 5.
    certificates.replace('p1', { type: 'client' }, many('b', 'client', 5), 2)
    // An upload's answer: one row updated (not a new one), one added.
    certificates.put('p1', [certificate('a-0', 'server', { status: 'revoked' })])
    certificates.put('p1', [certificate('new', 'server')])
    certificates.clear('p2')

    const { kept, counted } = keptAndCounted()
    expect(counted).toEqual({ p1: 36 })
    expect(kept).toEqual(counted)
  })
})
