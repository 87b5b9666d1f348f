import { randomUUID } from 'node:crypto'
import type { SqlField } from '../../shared/bridge/channels/sql'
import { SQL_ERROR_CODES } from '../../shared/bridge/channels/sql'
import { ServiceError } from '../api'
import type { ParsedResult } from './parse-result'
import { sortOrder } from './sort-order'
import { displayText } from './values'

/*
 * Results kept by id, for the grid to read in windows: in the SQL worker
 * (workers/sql-worker.ts), never on main's loop. Bounded by count and by cells:
 * the least recently used result goes first (its tab then says to run it again). A tab's
 * results are released when it runs again or closes.
 */

export interface KeptResult {
  id: string
  tabId: string
  /** The database it was read from, for a saved file's name and the transfers log. */
  databaseId: string
  fields: SqlField[]
  rows: unknown[][]
  /** Display order as indexes into `rows`; null is the service's order. */
  order: Uint32Array | null
  lastUsed: number
}

export interface ResultStoreLimits {
  maxResults: number
  maxCells: number
}

/** Cells in a window are clipped here; the value panel asks for the whole value. */
export const CELL_CLIP = 2000

const DEFAULT_LIMITS: ResultStoreLimits = { maxResults: 32, maxCells: 12_000_000 }

export class ResultStore {
  private readonly results = new Map<string, KeptResult>()
  private clock = 0

  constructor(private readonly limits: ResultStoreLimits = DEFAULT_LIMITS) {}

  /** Keeps `result` under `id` (a new one by default), replacing a result of that id. */
  put(
    owner: { tabId: string; databaseId: string },
    result: Pick<ParsedResult, 'fields' | 'rows'>,
    id: string = randomUUID(),
  ): KeptResult {
    this.results.delete(id)
    const kept: KeptResult = {
      id,
      tabId: owner.tabId,
      databaseId: owner.databaseId,
      fields: result.fields,
      rows: result.rows,
      order: null,
      lastUsed: (this.clock += 1),
    }
    this.results.set(kept.id, kept)
    this.evict(kept.id)
    return kept
  }

  get(id: string): KeptResult {
    const kept = keptOrReleased(
      this.results,
      id,
      'This result is no longer kept (its tab ran again, or newer results pushed it out): run the statement again',
    )
    kept.lastUsed = this.clock += 1
    return kept
  }

  has(id: string): boolean {
    return this.results.has(id)
  }

  get size(): number {
    return this.results.size
  }

  release(ids: readonly string[]): void {
    for (const id of ids) this.results.delete(id)
  }

  releaseTab(tabId: string): void {
    for (const [id, kept] of this.results) if (kept.tabId === tabId) this.results.delete(id)
  }

  clear(): void {
    this.results.clear()
  }

  /** Rows [offset, offset + limit) in display order, as clipped display text. */
  window(id: string, offset: number, limit: number): (string | null)[][] {
    const kept = this.get(id)
    const end = Math.min(kept.rows.length, offset + limit)
    const rows: (string | null)[][] = []
    for (let position = offset; position < end; position += 1) {
      rows.push(rowAt(kept, position).map(clippedText))
    }
    return rows
  }

  /** One whole value by display position. */
  cell(id: string, row: number, column: number): string | null {
    const kept = this.get(id)
    if (row >= kept.rows.length || column >= kept.fields.length) {
      throw new ServiceError(
        'NOT_FOUND',
        `There is no cell at row ${row + 1}, column ${column + 1}`,
      )
    }
    return displayText(rowAt(kept, row)[column])
  }

  /** Rows in display order, [from, to) clamped. */
  *rowsInOrder(id: string, from = 0, to = Number.POSITIVE_INFINITY): Generator<unknown[]> {
    const kept = this.get(id)
    const end = Math.min(kept.rows.length, to)
    for (let position = Math.max(0, from); position < end; position += 1) {
      yield rowAt(kept, position)
    }
  }

  sort(id: string, column: number | null, direction: 'asc' | 'desc'): void {
    const kept = this.get(id)
    if (column === null) {
      kept.order = null
      return
    }
    const field = kept.fields[column]
    if (!field) throw new ServiceError('NOT_FOUND', `There is no column ${column + 1}`)
    kept.order = sortOrder(kept.rows, column, field, direction)
  }

  private evict(keep: string): void {
    let cells = 0
    for (const kept of this.results.values()) cells += kept.rows.length * kept.fields.length
    const byAge = [...this.results.values()].sort((a, b) => a.lastUsed - b.lastUsed)
    for (const oldest of byAge) {
      if (this.results.size <= this.limits.maxResults && cells <= this.limits.maxCells) break
      if (oldest.id === keep) continue
      this.results.delete(oldest.id)
      cells -= oldest.rows.length * oldest.fields.length
    }
  }
}

function rowAt(kept: KeptResult, position: number): unknown[] {
  const index = kept.order ? kept.order[position]! : position
  return kept.rows[index]!
}

function clippedText(value: unknown): string | null {
  const text = displayText(value)
  return text !== null && text.length > CELL_CLIP ? text.slice(0, CELL_CLIP) + '…' : text
}

/** What `map` keeps under `id`; else RESULT_RELEASED, saying what to do again (`message`). */
export function keptOrReleased<T>(map: ReadonlyMap<string, T>, id: string, message: string): T {
  const kept = map.get(id)
  if (kept === undefined) throw new ServiceError(SQL_ERROR_CODES.RESULT_RELEASED, message)
  return kept
}
