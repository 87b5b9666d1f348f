import { describe, expect, it } from 'vitest'
import { PROFILE_COLORS } from '../../src/shared/bridge'
import { firstUnusedColor } from '../../src/renderer/src/app/profile-state'

describe('a new profile’s colour', () => {
  it('is the first of the palette no profile wears, whatever the case of the stored value', () => {
    expect(firstUnusedColor(PROFILE_COLORS, [])).toBe(PROFILE_COLORS[0])
    expect(firstUnusedColor(PROFILE_COLORS, [{ color: PROFILE_COLORS[0].toUpperCase() }])).toBe(
      PROFILE_COLORS[1],
    )
    expect(
      firstUnusedColor(PROFILE_COLORS, [{ color: PROFILE_COLORS[1] }, { color: '#123456' }]),
    ).toBe(PROFILE_COLORS[0])
  })

  it('is the palette’s first again when every colour is taken', () => {
    const everyColour = PROFILE_COLORS.map((color) => ({ color }))
    expect(firstUnusedColor(PROFILE_COLORS, everyColour)).toBe(PROFILE_COLORS[0])
  })
})
