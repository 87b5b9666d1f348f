import { describe, expect, it } from 'vitest'
import { filterModelsById } from '../../src/renderer/src/features/inference/filter'
import { touchesActivity, touchesSessions } from '../../src/renderer/src/lib/cache-events'
import { displayValue, extraFields, extraKeys } from '../../src/renderer/src/lib/extra-fields'

describe('filterModelsById', () => {
  const models = [{ id: 'llama-3.1-70b-instruct' }, { id: 'llama-3.1-8b' }, { id: 'mistral-7b' }]

  it('keeps models whose id contains every word, ignoring case', () => {
    expect(filterModelsById(models, 'LLAMA 70b').map((m) => m.id)).toEqual([
      'llama-3.1-70b-instruct',
    ])
    expect(filterModelsById(models, '3.1').map((m) => m.id)).toEqual([
      'llama-3.1-70b-instruct',
      'llama-3.1-8b',
    ])
  })

  it('returns everything for an empty query and nothing for a miss', () => {
    expect(filterModelsById(models, '   ')).toHaveLength(3)
    expect(filterModelsById(models, 'gpt')).toEqual([])
  })
})

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
  it('refetches sessions on a write to the list tables of the shown profile only', () => {
    const put = { name: 'putList', tables: ['cached_items', 'cached_lists'], profileId: 'p1' }
    expect(touchesSessions(put, 'p1')).toBe(true)
    expect(touchesSessions(put, 'p2')).toBe(false)
    expect(touchesSessions({ ...put, profileId: null }, 'p2')).toBe(true)
    expect(
      touchesSessions({ name: 'recordActivity', tables: ['activity'], profileId: 'p1' }, 'p1'),
    ).toBe(false)
  })

  it('refetches the activity log on activity writes', () => {
    expect(touchesActivity({ name: 'recordActivity', tables: ['activity'], profileId: 'p1' })).toBe(
      true,
    )
    expect(touchesActivity({ name: 'putList', tables: ['cached_items'], profileId: 'p1' })).toBe(
      false,
    )
  })
})
