import { useCallback, useEffect, useMemo, useState } from 'react'

/*
 * Rows that live in the main process, read in pages as they scroll into view: the SQL
 * console's result grid and the big-list tables (sessions, inference models) share this. A
 * table holds the pages it showed lately and drops those far from the view; a new `source`
 * (another result, another order or filter, a refreshed list) starts over from `firstRows`.
 */

export interface PagedRowsOptions<Row> {
  /** Identifies what the pages are of: when it changes, the pages start over. */
  source: string
  /** Rows 0..n-1, already at hand (they came with the answer that opened the source). */
  firstRows: readonly Row[]
  pageSize: number
  /** Pages kept; far fewer than a big list has. */
  maxPages: number
  /** The rows in view, [first, last] inclusive. */
  first: number
  last: number
  /** Reads `limit` rows from `offset`. */
  load(offset: number, limit: number): Promise<readonly Row[]>
}

interface PageCache<Row> {
  pages: Map<number, readonly Row[]>
  loading: Set<number>
  live: boolean
}

/** The row at `index` when its page is here; pages in view are fetched as needed. */
export function usePagedRows<Row>({
  source,
  firstRows,
  pageSize,
  maxPages,
  first,
  last,
  load,
}: PagedRowsOptions<Row>): (index: number) => Row | undefined {
  const [, setVersion] = useState(0)
  const repaint = useCallback(() => setVersion((version) => version + 1), [])
  const cache = useMemo<PageCache<Row>>(() => {
    const pages = new Map<number, readonly Row[]>()
    // The rows at hand fill whole pages; fewer than a page means the source has no more.
    for (let page = 0; (page + 1) * pageSize <= firstRows.length; page += 1) {
      pages.set(page, firstRows.slice(page * pageSize, (page + 1) * pageSize))
    }
    if (firstRows.length > 0 && firstRows.length < pageSize) pages.set(0, firstRows)
    return { pages, loading: new Set(), live: true }
    // `source` names what the pages are of: a new one starts over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, firstRows, pageSize])
  useEffect(
    () => () => {
      cache.live = false
    },
    [cache],
  )

  useEffect(() => {
    if (last < first) return
    for (let page = Math.floor(first / pageSize); page <= Math.floor(last / pageSize); page += 1) {
      if (cache.pages.has(page) || cache.loading.has(page)) continue
      cache.loading.add(page)
      load(page * pageSize, pageSize)
        .then((rows) => {
          cache.loading.delete(page)
          if (!cache.live) return
          cache.pages.set(page, rows)
          trimPages(cache.pages, page, maxPages)
          repaint()
        })
        .catch(() => {
          cache.loading.delete(page)
        })
    }
  }, [first, last, cache, pageSize, maxPages, load, repaint])

  return (index: number) => cache.pages.get(Math.floor(index / pageSize))?.[index % pageSize]
}

function trimPages<Row>(pages: Map<number, Row>, around: number, maxPages: number) {
  if (pages.size <= maxPages) return
  const far = [...pages.keys()].sort((a, b) => Math.abs(b - around) - Math.abs(a - around))
  for (const page of far.slice(0, pages.size - maxPages)) pages.delete(page)
}
