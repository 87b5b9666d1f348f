import { describe, expect, it } from 'vitest'
import { columnWidths, wantedWidths } from '../../src/renderer/src/features/sql/column-widths'

/*
 * The SQL result grid's column widths: a column is as wide as its values
 * need, and a text cut short grows into room the grid has left instead of staying narrow beside
 * empty space; a width the user dragged stays.
 */

const text = (name: string) => ({ name, display: 'text' as const })
const number = (name: string) => ({ name, display: 'number' as const })

describe('result column widths', () => {
  it('follow the longest value of the first rows, and a header longer than its values', () => {
    const [id, label, note] = wantedWidths(
      [number('id'), text('label'), text('a_rather_long_column_name')],
      [
        ['1', 'short', null],
        ['22', 'x'.repeat(60), 'y'],
      ],
    )
    expect(id).toBe(80)
    // 60 characters of 12 px monospace, and the cell's padding.
    expect(label).toBeGreaterThanOrEqual(60 * 7)
    expect(note).toBeGreaterThanOrEqual('a_rather_long_column_name'.length * 7)
  })

  it('grow a column cut short into the room left, and no further than it needs', () => {
    const wanted = [80, 700, 100]
    // No room known yet: a long text is bounded so it does not push the others away.
    expect(columnWidths(wanted, {}, 0)).toEqual([80, 360, 100])
    // 1,100 px of room: the long one gets all it wants; the others keep theirs.
    expect(columnWidths(wanted, {}, 1100)).toEqual([80, 700, 100])
    // 740 px: it gets what is left (740 - 80 - 100).
    expect(columnWidths(wanted, {}, 740)).toEqual([80, 560, 100])
  })

  it('keep a width the user dragged', () => {
    expect(columnWidths([80, 700], { 1: 200 }, 1200)).toEqual([80, 200])
  })
})
