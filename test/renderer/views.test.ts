import { describe, expect, it } from 'vitest'
import { concerns, type CacheChange } from '../../src/renderer/src/lib/cache-events'
import { displayValue, extraFields, extraKeys } from '../../src/renderer/src/lib/extra-fields'

describe('extra fields', () => {
  const known = ['id', 'isCurrent']

  it('lists the fields the contract does not name, in the order sent', () => {
    expect(extraFields({ id: 'a', region: 'eu', isCurrent: true, risk: 3 }, known)).toEqual([
      ['region', 'eu'],
      ['risk', 3],
    ])
    expect(
      extraKeys(
        [
          { id: 'a', region: 'eu' },
          { id: 'b', risk: 1, region: 'us' },
        ],
        known,
      ),
    ).toEqual(['region', 'risk'])
  })

  it('shows any value as short text', () => {
    expect(displayValue(null)).toBe('—')
    expect(displayValue('')).toBe('""')
    expect(displayValue({ a: [1, 2] })).toBe('{"a":[1,2]}')
    expect(displayValue(false)).toBe('false')
  })
})

describe('cache.changed routing', () => {
  const put: CacheChange = {
    name: 'putList',
    tables: ['cached_items', 'cached_lists'],
    topics: ['sessions', 'inference', 'incidents'],
    profileId: 'p1',
  }
  const activity: CacheChange = {
    name: 'recordActivity',
    tables: ['activity'],
    topics: ['activity'],
    profileId: 'p1',
  }

  it('reloads a profile view on its topic, for that profile or for every profile', () => {
    expect(concerns(put, ['sessions'], 'p1')).toBe(true)
    expect(concerns(put, ['sessions'], 'p2')).toBe(false)
    expect(concerns({ ...put, profileId: null }, ['sessions'], 'p2')).toBe(true)
    expect(concerns(activity, ['sessions'], 'p1')).toBe(false)
  })

  it('reloads a view of every profile on its topic, whoever wrote it', () => {
    expect(concerns(activity, ['activity'])).toBe(true)
    expect(concerns({ ...activity, profileId: 'p2' }, ['activity'])).toBe(true)
    expect(concerns(put, ['activity'])).toBe(false)
  })

  it('matches topics, not table names', () => {
    // Only what main says the write concerns counts: a table's name says nothing to a view.
    expect(concerns({ ...put, topics: [] }, ['sessions'], 'p1')).toBe(false)
    // @ts-expect-error a topic the contract does not list is a type error, not a silent miss
    expect(concerns(put, ['cached_items'], 'p1')).toBe(false)
  })
})
