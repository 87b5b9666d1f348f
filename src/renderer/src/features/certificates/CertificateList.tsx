import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, type KeyboardEvent, type MouseEvent } from 'react'
import type { CertificateRow } from '../../../../shared/bridge'
import { Badge } from '../../ui/Badge'
import { expiryLabel, expiryOf, folderLabel } from './model'
import { statusWords } from './field-labels'
import type { Sort, SortKey } from './store'

/*
 * The certificate list: a virtualised ARIA grid (only the visible rows are in the DOM, so
 * 10,000 scroll smoothly), sortable columns, multi-select with the mouse (click, Ctrl/⌘-click,
 * Shift-click) and the keyboard (arrows, Shift+arrows, Space, Ctrl/⌘+A, Home/End, Page keys).
 */

/** Two tight lines (name, common name): about 14 rows in view at 1280×720. */
const ROW_HEIGHT = 36

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'status', label: 'Status' },
  { key: 'expires', label: 'Expires' },
  { key: 'type', label: 'Type' },
  { key: 'folder', label: 'Folder' },
]

interface CertificateListProps {
  rows: readonly CertificateRow[]
  now: number
  sort: Sort
  onSort(key: SortKey): void
  selected: ReadonlySet<string>
  anchorId: string | null
  activeId: string | null
  onSelect(ids: string[], options: { anchorId?: string | null; activeId?: string | null }): void
  empty: string
}

export function CertificateList(props: CertificateListProps) {
  const { rows, selected, anchorId, activeId, onSelect } = props
  const scrollRef = useRef<HTMLDivElement>(null)
  // The virtualizer re-renders this component itself on scroll; nothing memoises its output.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  })

  const indexOf = (id: string | null) => (id === null ? -1 : rows.findIndex((row) => row.id === id))

  function range(from: number, to: number): string[] {
    const [start, end] = from <= to ? [from, to] : [to, from]
    return rows.slice(start, end + 1).map((row) => row.id)
  }

  function clickRow(event: MouseEvent, index: number) {
    const row = rows[index]
    if (!row) return
    if (event.shiftKey) {
      const anchor = indexOf(anchorId)
      onSelect(range(anchor === -1 ? index : anchor, index), { activeId: row.id })
    } else if (event.metaKey || event.ctrlKey) {
      const next = new Set(selected)
      if (next.has(row.id)) next.delete(row.id)
      else next.add(row.id)
      onSelect([...next], { anchorId: row.id, activeId: row.id })
    } else {
      onSelect([row.id], { anchorId: row.id, activeId: row.id })
    }
    scrollRef.current?.focus({ preventScroll: true })
  }

  function keyDown(event: KeyboardEvent) {
    if (rows.length === 0) return
    const current = indexOf(activeId)
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1)
    let target: number
    switch (event.key) {
      case 'ArrowDown':
        target = Math.min(rows.length - 1, current + 1)
        break
      case 'ArrowUp':
        target = Math.max(0, current === -1 ? 0 : current - 1)
        break
      case 'PageDown':
        target = Math.min(rows.length - 1, Math.max(0, current) + page)
        break
      case 'PageUp':
        target = Math.max(0, current - page)
        break
      case 'Home':
        target = 0
        break
      case 'End':
        target = rows.length - 1
        break
      case ' ': {
        const row = rows[Math.max(0, current)]
        if (!row) return
        event.preventDefault()
        const next = new Set(selected)
        if (next.has(row.id)) next.delete(row.id)
        else next.add(row.id)
        onSelect([...next], { anchorId: row.id, activeId: row.id })
        return
      }
      case 'a':
      case 'A':
        if (!(event.ctrlKey || event.metaKey)) return
        event.preventDefault()
        onSelect(
          rows.map((row) => row.id),
          { anchorId: rows[0]?.id ?? null },
        )
        return
      case 'Escape':
        if (selected.size === 0) return
        event.preventDefault()
        onSelect([], {})
        return
      default:
        return
    }
    event.preventDefault()
    const row = rows[target]
    if (!row) return
    virtualizer.scrollToIndex(target, { align: 'auto' })
    if (event.shiftKey) {
      const anchor = indexOf(anchorId)
      onSelect(range(anchor === -1 ? target : anchor, target), { activeId: row.id })
    } else if (event.ctrlKey || event.metaKey) {
      // Ctrl+arrows move the focus without changing the selection (Space toggles).
      onSelect([...selected], { activeId: row.id })
    } else {
      onSelect([row.id], { anchorId: row.id, activeId: row.id })
    }
  }

  const activeIndex = indexOf(activeId)
  const items = virtualizer.getVirtualItems()

  // The list gets shorter when the details open under it (a narrow window): the row they are
  // about stays in view.
  const activeRef = useRef(activeIndex)
  activeRef.current = activeIndex
  useEffect(() => {
    const body = scrollRef.current
    if (body === null) return
    let height = body.clientHeight
    const observer = new ResizeObserver(() => {
      const shrunk = body.clientHeight < height
      height = body.clientHeight
      const index = activeRef.current
      if (!shrunk || index === -1) return
      const top = index * ROW_HEIGHT
      if (top + ROW_HEIGHT > body.scrollTop + height) body.scrollTop = top + ROW_HEIGHT - height
      else if (top < body.scrollTop) body.scrollTop = top
    })
    observer.observe(body)
    return () => observer.disconnect()
  }, [])

  return (
    <div
      className="cert-grid"
      role="grid"
      aria-label="Certificates"
      aria-multiselectable="true"
      aria-rowcount={rows.length + 1}
      aria-colcount={COLUMNS.length}
    >
      <div className="cert-grid-head" role="rowgroup">
        <div className="cert-grid-row cert-grid-header" role="row" aria-rowindex={1}>
          {COLUMNS.map((column) => {
            const sorted = props.sort.key === column.key
            return (
              <div
                key={column.key}
                role="columnheader"
                className={`cert-cell cert-col-${column.key}`}
                aria-sort={
                  sorted ? (props.sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'
                }
              >
                <button
                  type="button"
                  className="cert-sort"
                  onClick={() => props.onSort(column.key)}
                  title={`Sort by ${column.label.toLowerCase()}`}
                >
                  {column.label}
                  <span aria-hidden="true" className="cert-sort-mark">
                    {sorted ? (props.sort.direction === 'asc' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </div>
            )
          })}
        </div>
      </div>
      <div
        ref={scrollRef}
        className="cert-grid-body"
        role="rowgroup"
        tabIndex={0}
        aria-activedescendant={activeIndex === -1 ? undefined : `cert-row-${activeIndex}`}
        onKeyDown={keyDown}
      >
        {rows.length === 0 ? (
          <div className="cert-grid-empty" role="row">
            <div role="gridcell">{props.empty}</div>
          </div>
        ) : (
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index] as CertificateRow
              const expiry = expiryOf(row, props.now)
              const isSelected = selected.has(row.id)
              return (
                <div
                  key={row.id}
                  id={`cert-row-${item.index}`}
                  role="row"
                  aria-rowindex={item.index + 2}
                  aria-selected={isSelected}
                  data-certificate-id={row.id}
                  className={[
                    'cert-grid-row',
                    isSelected ? 'is-selected' : '',
                    item.index === activeIndex ? 'is-active' : '',
                    `expiry-${expiry.kind}`,
                  ]
                    .filter(Boolean)
                    .join(' ')}
                  style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                  onClick={(event) => clickRow(event, item.index)}
                >
                  <div role="gridcell" className="cert-cell cert-col-name">
                    {/* Truncated with an ellipsis where the column is narrow: the tooltip has it all. */}
                    <span className="cert-name" title={row.name}>
                      {row.name}
                    </span>
                    {row.commonName && row.commonName !== row.name ? (
                      <span className="cert-sub mono-small" title={row.commonName}>
                        {row.commonName}
                      </span>
                    ) : null}
                  </div>
                  <div role="gridcell" className="cert-cell cert-col-status">
                    {row.status ? <StatusBadge status={row.status} /> : '—'}
                    {row.isSystem ? <Badge tone="neutral">system</Badge> : null}
                  </div>
                  <div role="gridcell" className="cert-cell cert-col-expires">
                    <span
                      className={`cert-expiry cert-expiry-${expiry.kind}`}
                      title={row.notAfter ?? undefined}
                    >
                      {expiryLabel(expiry)}
                    </span>
                  </div>
                  <div role="gridcell" className="cert-cell cert-col-type">
                    <span className="cert-text" title={row.type ?? undefined}>
                      {row.type ?? '—'}
                    </span>
                  </div>
                  <div role="gridcell" className="cert-cell cert-col-folder">
                    {row.folderId === null && row.folderPath.length === 0 ? (
                      '—'
                    ) : (
                      <span className="cert-text" title={folderLabel(row.folderPath)}>
                        {folderLabel(row.folderPath)}
                      </span>
                    )}
                  </div>
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}

const STATUS_TONES: Record<string, 'success' | 'warning' | 'danger' | 'neutral'> = {
  active: 'success',
  expiring_soon: 'warning',
  expired: 'danger',
  revoked: 'danger',
}

export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{statusWords(status)}</Badge>
}
