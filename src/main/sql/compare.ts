import { randomUUID } from 'node:crypto'
import type { SqlField } from '../../shared/bridge/channels/sql'
import { SQL_ERROR_CODES } from '../../shared/bridge/channels/sql'
import { ServiceError } from '../api'
import { CELL_CLIP, keptOrReleased, type KeptResult } from './result-store'
import { displayText } from './values'

/*
 * Two kept results compared by a key column, in the SQL worker.
 * Rows are matched by the key's exact display text (int8 and numeric compare as the service
 * wrote them, never through a float); a matched row whose other cells differ is "changed", with
 * the differing columns named. The comparison keeps only indexes into the two results' rows, so
 * 100,000 rows compared hold a few typed arrays; its rows are read by window, as results are.
 *
 * A comparison is refused, never guessed, when it could mislead: different columns, a key that
 * is NULL in some row (NULL matches nothing in SQL either), or a key that repeats on one side.
 */

export type DiffKind = 'added' | 'removed' | 'changed'

export interface ComparisonCounts {
  added: number
  removed: number
  changed: number
  unchanged: number
}

export interface Comparison extends ComparisonCounts {
  id: string
  tabId: string
  fields: SqlField[]
  keyColumn: number
  /** Per diff row: 0 added, 1 removed, 2 changed. */
  kinds: Uint8Array
  /** Index into the pinned (before) result's rows; -1 for an added row. */
  before: Int32Array
  /** Index into the new (after) result's rows; -1 for a removed row. */
  after: Int32Array
  beforeRows: unknown[][]
  afterRows: unknown[][]
}

/** One diff row as the grid reads it: the row's cells and, for a changed row, what they were. */
export interface DiffRow {
  kind: DiffKind
  cells: (string | null)[]
  /** The pinned row's cells, for a changed row (the grid marks the changed ones). */
  previous: (string | null)[] | null
  /** Columns whose text differs, for a changed row. */
  changed: number[]
}

const KIND_CODES: readonly DiffKind[] = ['added', 'removed', 'changed']

function refuse(message: string): never {
  throw new ServiceError(SQL_ERROR_CODES.COMPARE_REFUSED, message)
}

/** The rows of a result by its key's text; refuses NULL and repeated keys, naming one. */
function indexByKey(result: KeptResult, keyColumn: number, side: string): Map<string, number> {
  const byKey = new Map<string, number>()
  const keyName = result.fields[keyColumn]!.name
  let nulls = 0
  for (let index = 0; index < result.rows.length; index += 1) {
    const key = displayText(result.rows[index]![keyColumn])
    if (key === null) {
      nulls += 1
      continue
    }
    if (byKey.has(key)) {
      refuse(
        `The key column "${keyName}" repeats the value ${JSON.stringify(clip(key))} in the ${side} result: choose a column whose values are unique`,
      )
    }
    byKey.set(key, index)
  }
  if (nulls > 0) {
    refuse(
      `The key column "${keyName}" is NULL in ${nulls} ${nulls === 1 ? 'row' : 'rows'} of the ${side} result: NULL matches no row, so choose a column that is never NULL`,
    )
  }
  return byKey
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/** Same column count and names, in the same order; else a refusal that says what differs. */
function checkSameColumns(before: KeptResult, after: KeptResult): void {
  const names = (result: KeptResult) => result.fields.map((field) => field.name)
  const left = names(before)
  const right = names(after)
  if (left.length === right.length && left.every((name, index) => name === right[index])) return
  const missing = left.filter((name) => !right.includes(name))
  const extra = right.filter((name) => !left.includes(name))
  const what =
    missing.length > 0 || extra.length > 0
      ? [
          missing.length > 0 ? `the new result lacks ${missing.join(', ')}` : '',
          extra.length > 0 ? `the new result adds ${extra.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ')
      : 'the columns are in another order'
  refuse(
    `These results have different columns (${what}): only results with the same columns compare`,
  )
}

/** The same cell? By identity first (most cells), by display text otherwise (JSON, exact numbers). */
function sameCell(a: unknown, b: unknown): boolean {
  if (a === b) return true
  // Two strings, numbers or booleans that are not identical differ; anything else by its text.
  if (typeof a === typeof b && typeof a !== 'object') return false
  return displayText(a) === displayText(b)
}

export function compareResults(
  before: KeptResult,
  after: KeptResult,
  keyColumn: number,
  id: string = randomUUID(),
): Comparison {
  checkSameColumns(before, after)
  if (keyColumn >= before.fields.length) refuse(`There is no column ${keyColumn + 1} to key on`)
  const beforeByKey = indexByKey(before, keyColumn, 'pinned')
  // The new result's keys are checked the same way; its index also finds the removed rows.
  const afterByKey = indexByKey(after, keyColumn, 'new')
  const width = before.fields.length
  const capacity = before.rows.length + after.rows.length
  const kinds = new Uint8Array(capacity)
  const beforeIndex = new Int32Array(capacity)
  const afterIndex = new Int32Array(capacity)
  let count = 0
  let unchanged = 0
  let added = 0
  let changed = 0
  // The new result's rows in its display order, then the removed ones in the pinned order.
  for (let position = 0; position < after.rows.length; position += 1) {
    const afterRow = rowIndex(after, position)
    const key = displayText(after.rows[afterRow]![keyColumn])!
    const match = beforeByKey.get(key)
    if (match === undefined) {
      kinds[count] = 0
      beforeIndex[count] = -1
      afterIndex[count] = afterRow
      count += 1
      added += 1
      continue
    }
    const left = before.rows[match]!
    const right = after.rows[afterRow]!
    let differs = false
    for (let column = 0; column < width; column += 1) {
      if (!sameCell(left[column], right[column])) {
        differs = true
        break
      }
    }
    if (!differs) {
      unchanged += 1
      continue
    }
    kinds[count] = 2
    beforeIndex[count] = match
    afterIndex[count] = afterRow
    count += 1
    changed += 1
  }
  let removed = 0
  for (let position = 0; position < before.rows.length; position += 1) {
    const beforeRow = rowIndex(before, position)
    const key = displayText(before.rows[beforeRow]![keyColumn])!
    if (afterByKey.has(key)) continue
    kinds[count] = 1
    beforeIndex[count] = beforeRow
    afterIndex[count] = -1
    count += 1
    removed += 1
  }
  return {
    id,
    tabId: after.tabId,
    fields: after.fields,
    keyColumn,
    added,
    removed,
    changed,
    unchanged,
    kinds: kinds.slice(0, count),
    before: beforeIndex.slice(0, count),
    after: afterIndex.slice(0, count),
    beforeRows: before.rows,
    afterRows: after.rows,
  }
}

function rowIndex(result: KeptResult, position: number): number {
  return result.order ? result.order[position]! : position
}

function clippedText(value: unknown): string | null {
  const text = displayText(value)
  return text !== null && text.length > CELL_CLIP ? text.slice(0, CELL_CLIP) + '…' : text
}

/** Diff rows [offset, offset + limit) as clipped display text. */
export function comparisonWindow(comparison: Comparison, offset: number, limit: number): DiffRow[] {
  const end = Math.min(comparison.kinds.length, offset + limit)
  const rows: DiffRow[] = []
  for (let position = offset; position < end; position += 1) {
    const kind = KIND_CODES[comparison.kinds[position]!]!
    const beforeRow =
      comparison.before[position]! >= 0
        ? comparison.beforeRows[comparison.before[position]!]!
        : null
    const afterRow =
      comparison.after[position]! >= 0 ? comparison.afterRows[comparison.after[position]!]! : null
    const shown = (afterRow ?? beforeRow)!
    const changed: number[] = []
    if (kind === 'changed') {
      for (let column = 0; column < shown.length; column += 1) {
        if (!sameCell(beforeRow![column], afterRow![column])) changed.push(column)
      }
    }
    rows.push({
      kind,
      cells: shown.map(clippedText),
      previous: kind === 'changed' ? beforeRow!.map(clippedText) : null,
      changed,
    })
  }
  return rows
}

/** The comparisons the worker keeps: few (one per pinned tab is the use), the oldest goes first. */
export class ComparisonStore {
  private readonly comparisons = new Map<string, Comparison>()

  constructor(private readonly max = 8) {}

  put(comparison: Comparison): void {
    this.comparisons.delete(comparison.id)
    this.comparisons.set(comparison.id, comparison)
    for (const id of this.comparisons.keys()) {
      if (this.comparisons.size <= this.max) break
      this.comparisons.delete(id)
    }
  }

  get(id: string): Comparison {
    return keptOrReleased(
      this.comparisons,
      id,
      'This comparison is no longer kept: compare the results again',
    )
  }

  release(ids: readonly string[]): void {
    for (const id of ids) this.comparisons.delete(id)
  }

  releaseTab(tabId: string): void {
    for (const [id, comparison] of this.comparisons) {
      if (comparison.tabId === tabId) this.comparisons.delete(id)
    }
  }
}
