import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useRef } from 'react'
import type { CSSProperties, ReactNode } from 'react'
import type { Column } from './Table'
import './virtual-table.css'

/*
 * Table's drop-in for lists of any length: only the rows in view (plus a margin) are in the DOM,
 * so 150,000 rows paint as fast as 30. It keeps a real <table> (header cells, row and column
 * semantics, aria-rowcount/aria-rowindex for screen readers) and lets rows have their own height
 * (measured once rendered). Spacer rows above and below stand for the rows not rendered.
 */

interface VirtualTableProps<Row> {
  label: string
  columns: Column<Row>[]
  rows: readonly Row[]
  rowKey: (row: Row) => string
  empty: ReactNode
  rowClassName?: (row: Row) => string | undefined
  /** A first guess of a row's height in px; rows are measured once shown. */
  estimateRowHeight?: number
}

/** Rows rendered beyond the visible ones on each side, so a fast scroll does not show gaps. */
const OVERSCAN = 12
/** Before the first layout the viewport is unknown: assume a laptop-sized one. */
const INITIAL_RECT = { width: 1200, height: 900 }

export function VirtualTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  rowClassName,
  estimateRowHeight = 40,
}: VirtualTableProps<Row>) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const getItemKey = useCallback(
    (index: number) => {
      const row = rows[index]
      return row === undefined ? index : rowKey(row)
    },
    [rows, rowKey],
  )
  // The virtualizer re-renders this component itself on scroll; nothing memoised consumes it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateRowHeight,
    getItemKey,
    overscan: OVERSCAN,
    initialRect: INITIAL_RECT,
    // React 19 warns about flushSync inside a render-phase update; a frame later is fine.
    useFlushSync: false,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]
  const last = items[items.length - 1]
  const before = first ? first.start : 0
  const after = last ? virtualizer.getTotalSize() - last.end : 0
  const spacer = (height: number): CSSProperties => ({ height, padding: 0, border: 0 })

  return (
    <div className="table-wrap virtual-table-wrap" ref={scrollRef}>
      <table className="table" aria-label={label} aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th key={column.key} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td className="table-empty" colSpan={columns.length}>
                {empty}
              </td>
            </tr>
          ) : (
            <>
              {before > 0 ? (
                <tr aria-hidden="true" className="virtual-spacer">
                  <td colSpan={columns.length} style={spacer(before)} />
                </tr>
              ) : null}
              {items.map((item) => {
                const row = rows[item.index] as Row
                return (
                  <tr
                    key={item.key}
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    aria-rowindex={item.index + 2}
                    className={rowClassName?.(row)}
                  >
                    {columns.map((column) => (
                      <td key={column.key} className={column.className}>
                        {column.render(row)}
                      </td>
                    ))}
                  </tr>
                )
              })}
              {after > 0 ? (
                <tr aria-hidden="true" className="virtual-spacer">
                  <td colSpan={columns.length} style={spacer(after)} />
                </tr>
              ) : null}
            </>
          )}
        </tbody>
      </table>
    </div>
  )
}
