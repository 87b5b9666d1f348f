import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { SqlField, SqlResultMeta } from '../../../../shared/bridge/channels/sql'
import { bridge } from '../../bridge'
import { usePagedRows } from '../../ui/paged-rows'
import { CellValue } from './CellValue'
import { columnWidths, wantedWidths } from './column-widths'

/*
 * The result grid. Rows and columns are virtualised (TanStack Virtual, fixed row height), so
 * painting costs the same for 100 rows or 100,000. Rows live in main: the grid holds pages of
 * them, asked for as they scroll into view, and drops pages it has not shown for a while.
 * Sorting runs in main over the kept rows; the grid then reads its pages again.
 *
 * Column widths follow what the first rows hold (columnWidths): each column as wide as its
 * header and values need, up to a bound; when the grid has room left, the columns cut short
 * grow into it, so a text is not cut beside empty space. A width set by dragging is kept.
 */

export const ROW_HEIGHT = 24
const PAGE_ROWS = 100
/** Pages kept in memory; far fewer than a 100,000-row result has. */
const MAX_PAGES = 60
const NUMBER_COLUMN_WIDTH = 64

export type Sort = { column: number; direction: 'asc' | 'desc' } | null

export interface GridSelection {
  /** Display row indexes [from, to] inclusive. */
  from: number
  to: number
  /** A single cell's column, or null when whole rows are selected. */
  column: number | null
}

interface ResultGridProps {
  meta: SqlResultMeta
  label: string
  sort: Sort
  onSort(sort: Sort): void
  selection: GridSelection | null
  onSelect(selection: GridSelection | null): void
  onOpenValue(row: number, column: number): void
  onCopySelection(): void
}

const NO_ROWS: (string | null)[][] = []

export function ResultGrid({
  meta,
  label,
  sort,
  onSort,
  selection,
  onSelect,
  onOpenValue,
  onCopySelection,
}: ResultGridProps) {
  const scroller = useRef<HTMLDivElement>(null)
  // Widths the user dragged, by column; the others follow the content and the room.
  const [resized, setResized] = useState<Record<number, number>>({})
  const [room, setRoom] = useState(0)
  useEffect(() => {
    const element = scroller.current
    if (element === null) return
    const observer = new ResizeObserver(() =>
      setRoom(Math.max(0, element.clientWidth - NUMBER_COLUMN_WIDTH)),
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  const wanted = useMemo(() => wantedWidths(meta.fields, meta.firstRows), [meta])
  const widths = useMemo(() => columnWidths(wanted, resized, room), [wanted, resized, room])
  // TanStack Virtual hands out fresh functions by design; the compiler skips this component.
  // eslint-disable-next-line react-hooks/incompatible-library
  const rows = useVirtualizer({
    count: meta.rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  })
  const columns = useVirtualizer({
    horizontal: true,
    count: meta.fields.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => widths[index] ?? 120,
    overscan: 3,
  })
  useEffect(() => {
    columns.measure()
  }, [widths, columns])

  const virtualRows = rows.getVirtualItems()
  const firstVisible = virtualRows[0]?.index ?? 0
  const lastVisible = virtualRows[virtualRows.length - 1]?.index ?? 0

  // A new result or a new order: pages start over (the first page came with the run).
  const sortKey = sort ? `${sort.column}:${sort.direction}` : ''
  const loadRows = useCallback(
    (offset: number, limit: number) =>
      bridge.call('sql.rows', { resultId: meta.resultId, offset, limit }).then((w) => w.rows),
    [meta.resultId],
  )
  const cellText = usePagedRows<(string | null)[]>({
    source: `${meta.resultId} ${sortKey}`,
    firstRows: sortKey === '' ? meta.firstRows : NO_ROWS,
    pageSize: PAGE_ROWS,
    maxPages: MAX_PAGES,
    first: firstVisible,
    last: lastVisible,
    load: loadRows,
  })

  const totalWidth = columns.getTotalSize() + NUMBER_COLUMN_WIDTH
  const virtualColumns = columns.getVirtualItems()

  const startResize = (column: number, startX: number) => {
    const startWidth = widths[column] ?? 120
    const move = (event: PointerEvent) => {
      const width = Math.max(40, Math.round(startWidth + event.clientX - startX))
      setResized((current) => ({ ...current, [column]: width }))
    }
    const up = () => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'c' && selection) {
      event.preventDefault()
      onCopySelection()
    }
    if (event.key === 'Enter' && selection && selection.column !== null) {
      event.preventDefault()
      onOpenValue(selection.from, selection.column)
    }
  }

  const nextSort = (column: number): Sort => {
    if (!sort || sort.column !== column) return { column, direction: 'asc' }
    if (sort.direction === 'asc') return { column, direction: 'desc' }
    return null
  }

  return (
    <div
      className="sql-grid"
      ref={scroller}
      role="grid"
      aria-label={label}
      aria-rowcount={meta.rows + 1}
      aria-colcount={meta.fields.length + 1}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div
        style={{
          height: rows.getTotalSize() + ROW_HEIGHT,
          width: totalWidth,
          position: 'relative',
        }}
      >
        <div className="sql-grid-header" role="row" aria-rowindex={1} style={{ width: totalWidth }}>
          <div
            className="sql-grid-corner"
            role="columnheader"
            style={{ width: NUMBER_COLUMN_WIDTH }}
          >
            #
          </div>
          {virtualColumns.map((column) => {
            const field = meta.fields[column.index]!
            const sorted = sort?.column === column.index ? sort.direction : null
            return (
              <div
                key={column.key}
                role="columnheader"
                aria-colindex={column.index + 2}
                aria-sort={
                  sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : 'none'
                }
                className="sql-grid-th"
                style={{ left: column.start + NUMBER_COLUMN_WIDTH, width: column.size }}
                title={`${field.name} (${field.dataType || 'unknown type'})`}
              >
                <button
                  type="button"
                  className="sql-grid-sort"
                  onClick={() => onSort(nextSort(column.index))}
                >
                  <span className="sql-grid-name">{field.name}</span>
                  <span className="sql-grid-type">{field.dataType}</span>
                  {sorted ? <span aria-hidden="true">{sorted === 'asc' ? ' ▲' : ' ▼'}</span> : null}
                </button>
                <span
                  className="sql-grid-resize"
                  role="separator"
                  aria-orientation="vertical"
                  aria-label={`Resize ${field.name}`}
                  onPointerDown={(event) => {
                    event.preventDefault()
                    startResize(column.index, event.clientX)
                  }}
                />
              </div>
            )
          })}
        </div>
        {virtualRows.map((row) => {
          const cells = cellText(row.index)
          const rowSelected =
            selection !== null && row.index >= selection.from && row.index <= selection.to
          return (
            <div
              key={row.key}
              role="row"
              aria-rowindex={row.index + 2}
              aria-selected={rowSelected && selection?.column === null ? true : undefined}
              className={`sql-grid-row${row.index % 2 ? ' sql-grid-row-odd' : ''}`}
              style={{ transform: `translateY(${row.start + ROW_HEIGHT}px)`, width: totalWidth }}
            >
              <div
                role="rowheader"
                className="sql-grid-rownum"
                style={{ width: NUMBER_COLUMN_WIDTH }}
                onClick={(event) =>
                  onSelect(
                    event.shiftKey && selection
                      ? {
                          from: Math.min(selection.from, row.index),
                          to: Math.max(selection.to, row.index),
                          column: null,
                        }
                      : { from: row.index, to: row.index, column: null },
                  )
                }
              >
                {row.index + 1}
              </div>
              {virtualColumns.map((column) => {
                const field = meta.fields[column.index]!
                const value = cells?.[column.index]
                const selected =
                  rowSelected && (selection?.column === null || selection?.column === column.index)
                return (
                  <div
                    key={column.key}
                    role="gridcell"
                    aria-colindex={column.index + 2}
                    aria-selected={selected || undefined}
                    className={cellClass(field, value, selected)}
                    style={{ left: column.start + NUMBER_COLUMN_WIDTH, width: column.size }}
                    onClick={() =>
                      onSelect({ from: row.index, to: row.index, column: column.index })
                    }
                    onDoubleClick={() => onOpenValue(row.index, column.index)}
                  >
                    <CellValue value={value} />
                  </div>
                )
              })}
            </div>
          )
        })}
      </div>
    </div>
  )
}

function cellClass(field: SqlField, value: string | null | undefined, selected: boolean): string {
  const classes = ['sql-grid-td']
  if (field.display === 'number') classes.push('sql-grid-number')
  if (value === null) classes.push('sql-grid-null')
  if (selected) classes.push('sql-grid-selected')
  return classes.join(' ')
}

/** Keeps the pages nearest the one just read. */
