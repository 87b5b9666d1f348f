import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useRef } from 'react'
import type { SqlDiffRow, SqlField } from '../../../../shared/bridge/channels/sql'
import { bridge } from '../../bridge'
import { usePagedRows } from '../../ui/paged-rows'
import { ROW_HEIGHT } from './ResultGrid'
import type { ResultComparison } from './store'
import { CellValue } from './CellValue'

/*
 * The rows of a comparison: added, removed and changed rows of the new result
 * against the pinned one, by a key column. The comparison is computed and kept in main's SQL
 * worker; this grid reads windows of it as it scrolls (rows virtualised, as the result grid).
 * A changed cell shows before → after on the screen, not only in a tooltip; a screen reader
 * reads it as "was …, now …" (the cell's name), and the tooltip holds both whole when the
 * column is too narrow for them.
 */

const PAGE_ROWS = 100
const MAX_PAGES = 40
const KIND_WIDTH = 88
const NO_ROWS: SqlDiffRow[] = []
const KIND_LABELS: Record<SqlDiffRow['kind'], string> = {
  added: '+ added',
  removed: '− removed',
  changed: '~ changed',
}

export function CompareGrid({
  comparison,
  fields,
}: {
  comparison: ResultComparison
  fields: SqlField[]
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const { added, removed, changed } = comparison.counts
  const count = added + removed + changed
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual, as ResultGrid
  const rows = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  })
  const virtualRows = rows.getVirtualItems()
  const load = useCallback(
    (offset: number, limit: number) =>
      bridge
        .call('sql.compare.rows', { comparisonId: comparison.comparisonId, offset, limit })
        .then((window) => window.rows),
    [comparison.comparisonId],
  )
  const rowAt = usePagedRows<SqlDiffRow>({
    source: comparison.comparisonId,
    firstRows: NO_ROWS,
    pageSize: PAGE_ROWS,
    maxPages: MAX_PAGES,
    first: virtualRows[0]?.index ?? 0,
    last: virtualRows[virtualRows.length - 1]?.index ?? -1,
    load,
  })
  const columns = `${KIND_WIDTH}px repeat(${fields.length}, minmax(120px, 1fr))`
  return (
    <div
      className="sql-grid sql-diff-grid"
      ref={scroller}
      role="grid"
      aria-label="Compared rows"
      aria-rowcount={count + 1}
      aria-colcount={fields.length + 1}
      tabIndex={0}
    >
      <div style={{ height: rows.getTotalSize() + ROW_HEIGHT, position: 'relative' }}>
        <div
          className="sql-diff-row sql-diff-header"
          role="row"
          aria-rowindex={1}
          style={{ gridTemplateColumns: columns }}
        >
          <div role="columnheader">Change</div>
          {fields.map((field, index) => (
            <div key={index} role="columnheader" title={field.dataType}>
              {field.name}
              {index === comparison.keyColumn ? ' (key)' : ''}
            </div>
          ))}
        </div>
        {virtualRows.map((virtual) => {
          const row = rowAt(virtual.index)
          return (
            <div
              key={virtual.key}
              role="row"
              aria-rowindex={virtual.index + 2}
              data-diff={row?.kind}
              className={`sql-diff-row${row ? ` sql-diff-${row.kind}` : ''}`}
              style={{
                gridTemplateColumns: columns,
                transform: `translateY(${virtual.start + ROW_HEIGHT}px)`,
              }}
            >
              <div role="rowheader">{row ? KIND_LABELS[row.kind] : ''}</div>
              {fields.map((_field, column) => {
                const value = row?.cells[column]
                const isChanged = row?.changed.includes(column) ?? false
                if (!isChanged) {
                  return (
                    <div key={column} role="gridcell" className="sql-diff-td">
                      <CellValue value={value} />
                    </div>
                  )
                }
                const was = row?.previous?.[column] ?? null
                const now = value ?? null
                return (
                  <div
                    key={column}
                    role="gridcell"
                    className="sql-diff-td sql-diff-cell-changed"
                    aria-label={`was ${was ?? 'NULL'}, now ${now ?? 'NULL'}`}
                    title={`was: ${was ?? 'NULL'}\nnow: ${now ?? 'NULL'}`}
                  >
                    <del className="sql-diff-was">
                      <CellValue value={was} />
                    </del>
                    <span className="sql-diff-arrow" aria-hidden="true">
                      {' → '}
                    </span>
                    <ins className="sql-diff-now">
                      <CellValue value={now} />
                    </ins>
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
