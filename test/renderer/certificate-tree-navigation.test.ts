import { describe, expect, it } from 'vitest'
import { folderTree } from '../../src/renderer/src/features/certificates/model'
import {
  ALL_KEY,
  folderKey,
  NONE_KEY,
  treeKeyMove,
  visibleItems,
} from '../../src/renderer/src/features/certificates/tree-navigation'

/*
 * The folder tree's keyboard: the WAI-ARIA tree pattern over the items in
 * view. (The one Tab stop is checked in the browser: certificates-moves.spec.ts.)
 */

const tree = folderTree([
  { id: 'a', path: ['Archive'] },
  { id: 'a23', path: ['Archive', '2023'] },
  { id: 'a24', path: ['Archive', '2024'] },
  { id: 's', path: ['Staging'] },
])
const archive = folderKey({ path: ['Archive'] })
const a2023 = folderKey({ path: ['Archive', '2023'] })
const a2024 = folderKey({ path: ['Archive', '2024'] })
const staging = folderKey({ path: ['Staging'] })

describe('the items in view', () => {
  it('lists All, No folder, then folders with open ones’ children, each with level and set', () => {
    const items = visibleItems(tree, new Set())
    expect(items.map((item) => [item.key, item.level, item.position, item.siblings])).toEqual([
      [ALL_KEY, 1, 1, 4],
      [NONE_KEY, 1, 2, 4],
      [archive, 1, 3, 4],
      [a2023, 2, 1, 2],
      [a2024, 2, 2, 2],
      [staging, 1, 4, 4],
    ])
    expect(visibleItems(tree, new Set([archive])).map((item) => item.key)).toEqual([
      ALL_KEY,
      NONE_KEY,
      archive,
      staging,
    ])
  })

  it('keeps a name holding "/" apart from a deeper path', () => {
    expect(folderKey({ path: ['a/b'] })).not.toBe(folderKey({ path: ['a', 'b'] }))
  })
})

describe('keys', () => {
  const open = visibleItems(tree, new Set())
  const closed = visibleItems(tree, new Set([archive]))

  it('Up/Down move through the items in view, stopping at the ends; Home/End jump', () => {
    expect(treeKeyMove(open, ALL_KEY, 'ArrowDown')).toEqual({ kind: 'focus', key: NONE_KEY })
    expect(treeKeyMove(open, archive, 'ArrowDown')).toEqual({ kind: 'focus', key: a2023 })
    expect(treeKeyMove(closed, archive, 'ArrowDown')).toEqual({ kind: 'focus', key: staging })
    expect(treeKeyMove(open, ALL_KEY, 'ArrowUp')).toEqual({ kind: 'none' })
    expect(treeKeyMove(open, staging, 'ArrowDown')).toEqual({ kind: 'none' })
    expect(treeKeyMove(open, a2024, 'Home')).toEqual({ kind: 'focus', key: ALL_KEY })
    expect(treeKeyMove(open, ALL_KEY, 'End')).toEqual({ kind: 'focus', key: staging })
  })

  it('Right opens a closed folder, then goes to its first child; Left closes, then goes up', () => {
    expect(treeKeyMove(closed, archive, 'ArrowRight')).toEqual({ kind: 'expand', key: archive })
    expect(treeKeyMove(open, archive, 'ArrowRight')).toEqual({ kind: 'focus', key: a2023 })
    expect(treeKeyMove(open, a2024, 'ArrowLeft')).toEqual({ kind: 'focus', key: archive })
    expect(treeKeyMove(open, archive, 'ArrowLeft')).toEqual({ kind: 'collapse', key: archive })
    expect(treeKeyMove(closed, archive, 'ArrowLeft')).toEqual({ kind: 'none' })
    expect(treeKeyMove(open, staging, 'ArrowRight')).toEqual({ kind: 'none' })
  })

  it('Enter and Space select; other keys are left to the page', () => {
    expect(treeKeyMove(open, a2023, 'Enter')).toEqual({ kind: 'select', key: a2023 })
    expect(treeKeyMove(open, NONE_KEY, ' ')).toEqual({ kind: 'select', key: NONE_KEY })
    expect(treeKeyMove(open, NONE_KEY, 'Tab')).toEqual({ kind: 'none' })
  })
})
