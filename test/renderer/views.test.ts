import { describe, expect, it } from 'vitest'
import { touchesActivity, touchesSessions } from '../../src/renderer/src/lib/cache-events'
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
