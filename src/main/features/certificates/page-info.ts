/*
 * The paging numbers of an op 16 answer's envelope. Its own module (no imports) so the list
 * worker reads them too without pulling the client in.
 */

/**
 * What a page's envelope says of the paging, read leniently: `meta` (our sandbox),
 * `pagination` (a real deployment: `{page, limit, total, totalPages}`), `page_info` or `paging`,
 * or the same numbers at the envelope's top level; each number under its usual names.
 */
export interface PageInfo {
  page?: number
  limit?: number
  total?: number
  totalPages?: number
}

const INFO_OBJECTS = ['meta', 'pagination', 'page_info', 'pageInfo', 'paging'] as const
const INFO_NAMES: Record<keyof PageInfo, readonly string[]> = {
  page: ['page', 'currentPage', 'current_page', 'pageNumber'],
  limit: ['limit', 'pageSize', 'page_size', 'perPage', 'per_page'],
  // Not `count`: many services send the rows of this page under it, which is no total.
  total: ['total', 'totalCount', 'total_count', 'totalItems', 'total_items'],
  totalPages: ['totalPages', 'total_pages', 'pageCount', 'page_count'],
}

/** The paging numbers an op 16 envelope carries (PageInfo); undefined when it has none. */
export function pageInfoOf(envelope: unknown): PageInfo | undefined {
  if (!isRecord(envelope)) return undefined
  const sources = [
    ...INFO_OBJECTS.map((key) => envelope[key]).filter(isRecord),
    // The top level last: `total` beside `data` is common; `page` there is never the rows.
    envelope,
  ]
  const info: PageInfo = {}
  for (const field of Object.keys(INFO_NAMES) as (keyof PageInfo)[]) {
    for (const source of sources) {
      const value = INFO_NAMES[field].map((name) => countOf(source[name])).find((n) => n !== null)
      if (value !== undefined) {
        info[field] = value
        break
      }
    }
  }
  return Object.keys(info).length === 0 ? undefined : info
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A count the service reported: a non-negative integer, else nothing. */
function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}
