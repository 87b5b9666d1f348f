import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef } from 'react'
import type { ReactNode } from 'react'
import type { ListSort } from '../../../shared/bridge'
import { usePagedRows } from './paged-rows'
import { RowCells, TableBody, type Column } from './Table'
import './virtual-table.css'

/*
 * Table's drop-in for lists of any length. The rows live in the main process (a 10 MB list
 * never crosses the bridge whole): the table holds the first window it was given and reads the
 * rest in pages as they scroll into view (usePagedRows, shared with the SQL console's grid).
 * Only the rows in view (plus a margin) are in the DOM, so 150,000 rows paint as fast as 30.
 * It keeps a real <table> (header cells, row and column semantics, aria-rowcount and
 * aria-rowindex for screen readers) and lets rows have their own height (measured once
 * rendered). Spacer rows above and below stand for the rows not rendered.
 */

/** What a virtual table shows: a list kept in main, read in windows. */
export interface RowSource<Row> {
  /** Names the list, its order and filter: when it changes, pages are read again. */
  key: string
  /** Rows in the list (after its filter). */
  count: number
  /** Its first rows, already at hand. */
  firstRows: readonly Row[]
  /** Reads `limit` rows from `offset`, in the same order and filter. */
  load(offset: number, limit: number): Promise<readonly Row[]>
  /**
   * Names the order and filter only: when it changes the table scrolls back to the top (a
   * refreshed list in the same view keeps the user's place).
   */
  view?: string
}

/** A column the table may be sorted by names the row field main sorts on. */
export type SortableColumn<Row> = Column<Row> & { sortField?: string }

interface VirtualTableProps<Row> {
  label: string
  columns: SortableColumn<Row>[]
  source: RowSource<Row>
  rowKey: (row: Row) => string
  empty: ReactNode
  rowClassName?: (row: Row) => string | undefined
  /** A first guess of a row's height in px; rows are measured once shown. */
  estimateRowHeight?: number
  /** The current order (null: the service's); with onSort, sortable headers are buttons. */
  sort?: ListSort
  onSort?(sort: ListSort): void
}

/** Rows per page read from main; the first window is one page. */
export const PAGE_ROWS = 100
/** Pages kept in the window; 20 pages are 2,000 rows. */
const MAX_PAGES = 20
/** Rows rendered beyond the visible ones on each side, so a fast scroll does not show gaps. */
const OVERSCAN = 12
/** Before the first layout the viewport is unknown: assume a laptop-sized one. */
const INITIAL_RECT = { width: 1200, height: 900 }

export function VirtualTable<Row>({
  label,
  columns,
  source,
  rowKey,
  empty,
  rowClassName,
  estimateRowHeight = 40,
  sort = null,
  onSort,
}: VirtualTableProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const view = source.view ?? ''
  const shownView = useRef(view)
  useEffect(() => {
    if (shownView.current === view) return
    shownView.current = view
    scrollRef.current?.scrollTo({ top: 0 })
  }, [view])
  // The virtualizer re-renders this component itself on scroll; nothing memoised consumes it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: source.count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateRowHeight,
    // Sizes are kept by position (the default key), not by row: at every measure the
    // virtualizer walks every key from the measured row to the end, and a key read through the
    // row (a page lookup and rowKey) made that ~20 ms per pass over 100,000 rows, several passes
    // while the first rows are measured. After a new sort or filter, the rows in view are
    // measured again anyway.
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    // React 19 warns about flushSync inside a render-phase update; a frame later is fine.
    useFlushSync: false,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]
  const last = items[items.length - 1]
  const rowAt = usePagedRows<Row>({
    source: source.key,
    firstRows: source.firstRows,
    pageSize: PAGE_ROWS,
    maxPages: MAX_PAGES,
    first: first?.index ?? 0,
    last: last?.index ?? -1,
    load: source.load,
  })
  const before = first ? first.start : 0
  const after = last ? virtualizer.getTotalSize() - last.end : 0

  const nextSort = (field: string): ListSort => {
    if (!sort || sort.field !== field) return { field, direction: 'asc' }
    if (sort.direction === 'asc') return { field, direction: 'desc' }
    return null
  }

  return (
    <div className="table-wrap virtual-table-wrap" ref={scrollRef}>
      <table className="table" aria-label={label} aria-rowcount={source.count + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => {
              const field = onSort ? column.sortField : undefined
              const sorted = field !== undefined && sort?.field === field ? sort.direction : null
              return (
                <th
                  key={column.key}
                  scope="col"
                  className={column.className}
                  aria-sort={
                    field === undefined
                      ? undefined
                      : sorted === 'asc'
                        ? 'ascending'
                        : sorted === 'desc'
                          ? 'descending'
                          : 'none'
                  }
                >
                  {field === undefined ? (
                    column.header
                  ) : (
                    <button
                      type="button"
                      className="th-sort"
                      onClick={() => onSort?.(nextSort(field))}
                    >
                      {column.header}
                      {sorted ? (
                        <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : ' ▼'}</span>
                      ) : null}
                    </button>
                  )}
                </th>
              )
            })}
          </tr>
        </thead>
        <TableBody span={columns.length} isEmpty={source.count === 0} empty={empty}>
          <SpacerRow height={before} span={columns.length} />
          {items.map((item) => {
            const row = rowAt(item.index)
            return (
              <tr
                key={row === undefined ? `#${item.index}` : rowKey(row)}
                data-index={item.index}
                ref={virtualizer.measureElement}
                aria-rowindex={item.index + 2}
                className={row === undefined ? 'row-loading' : rowClassName?.(row)}
              >
                {row === undefined ? (
                  <td colSpan={columns.length} className="muted">
                    Loading…
                  </td>
                ) : (
                  <RowCells columns={columns} row={row} />
                )}
              </tr>
            )
          })}
          <SpacerRow height={after} span={columns.length} />
        </TableBody>
      </table>
    </div>
  )
}

/** Stands for the rows above or below the rendered ones (none: no row). */
function SpacerRow({ height, span }: { height: number; span: number }) {
  return height > 0 ? (
    <tr aria-hidden="true" className="virtual-spacer">
      <td colSpan={span} style={{ height, padding: 0, border: 0 }} />
    </tr>
  ) : null
}
