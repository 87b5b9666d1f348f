import type { SqlField } from '../../../../shared/bridge/channels/sql'

/*
 * The result grid's column widths (ResultGrid), pure: what each column wants from its header
 * and first rows, and how the room the grid has is shared among the columns cut short.
 */

/** The grid's measures, in px. */
const WIDTH = {
  /** The grid's text is 12 px monospace: about this wide a character. */
  char: 7.3,
  /** Padding, the sort mark and the resize handle around a header's name. */
  headerExtra: 40,
  /** Padding around a cell's value. */
  cellExtra: 20,
  /** The narrowest column, a boolean's; a column of any other kind is at least `least`. */
  boolean: 60,
  least: 80,
  /** A column is first at most this wide, so one long text does not push the others away... */
  firstBound: 360,
  /** ...and grows at most to this into room the grid has left. */
  roomBound: 960,
} as const
/** Rows read for the widths: the first page is enough to tell. */
const ROWS_MEASURED = 100

/** How wide each column would like to be: its header and the values of the first rows. */
export function wantedWidths(
  fields: readonly Pick<SqlField, 'name' | 'display'>[],
  firstRows: readonly (readonly (string | null)[])[],
): number[] {
  return fields.map((field, column) => {
    let longest = Array.from(field.name).length * WIDTH.char + WIDTH.headerExtra
    for (const row of firstRows.slice(0, ROWS_MEASURED)) {
      const value = row[column] ?? 'NULL'
      // A multi-line value shows its first line in the cell.
      const line = value.split('\n', 1)[0] ?? ''
      longest = Math.max(longest, Math.min(line.length, 200) * WIDTH.char + WIDTH.cellExtra)
    }
    const floor = field.display === 'boolean' ? WIDTH.boolean : WIDTH.least
    return Math.round(Math.min(WIDTH.roomBound, Math.max(floor, longest)))
  })
}

/**
 * The widths shown: a dragged width as dragged; any other column as wide as it wants up to
 * `WIDTH.firstBound`, and when the columns leave room (`room`, px beside the row numbers), the columns
 * cut short share it in proportion to what they lack.
 */
export function columnWidths(
  wanted: readonly number[],
  resized: Readonly<Record<number, number>>,
  room: number,
): number[] {
  const first = wanted.map((want, column) => resized[column] ?? Math.min(want, WIDTH.firstBound))
  const lacking = wanted.map((want, column) =>
    resized[column] === undefined ? Math.max(0, want - first[column]!) : 0,
  )
  const spare = room - first.reduce((sum, width) => sum + width, 0)
  const lack = lacking.reduce((sum, width) => sum + width, 0)
  if (spare <= 0 || lack === 0) return first
  const share = Math.min(1, spare / lack)
  return first.map((width, column) => Math.floor(width + lacking[column]! * share))
}
