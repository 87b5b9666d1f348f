import { describe, expect, it } from 'vitest'
import { orderNote } from '../../src/renderer/src/features/ops-common/order-note'

/*
 * Words for what an operation sends, without the contract's field names (never
 * "sortOrder 1 to 1" under an empty list).
 */

describe('the order form says what Save order sends', () => {
  it('in words, for an empty list, one item and several', () => {
    expect(orderNote('environment', 0)).toBe('Add the environments in the order you want them.')
    expect(orderNote('folder', 1)).toBe('Saves this folder at position 1; add more to order them.')
    expect(orderNote('folder', 3)).toBe(
      'Saves the 3 folders in the order shown: the top one first, at position 1.',
    )
    for (const count of [0, 1, 2, 40]) expect(orderNote('folder', count)).not.toMatch(/sortOrder/)
  })
})
