import type { CertificateFilter, ListCompleteness } from '../../../shared/bridge'
import type { CertificateCacheEntry } from '../../cache/certificates'
import { toCacheEntry } from './rows'

/*
 * The walk over op 16's pages that fills the certificates cache (see index.ts for its caller).
 */

/** Asked per page; the service may cap it (its `meta.limit` then says so). */
export const PAGE_LIMIT = 500
/** A bound on paging, should a service never send an empty page (or nothing new). */
export const MAX_PAGES = 2_000

type ListAnswer = { data: unknown[]; meta?: { page?: unknown; limit?: unknown; total?: unknown } }

/** What the walk over op 16's pages brought, and why it may be short of the whole list. */
export interface AllPages {
  entries: CertificateCacheEntry[]
  completeness: ListCompleteness | null
}

/** What ended the walk: each is proof the list is done, except `bound`. */
type WalkEnd = 'empty' | 'repeat' | 'total' | 'short' | 'bound'

const END_WORDS: Record<Exclude<WalkEnd, 'bound'>, string> = {
  empty: 'the service stopped answering pages',
  repeat: 'the service sent the same certificates again',
  total: 'some came twice (the list changed while it was read)',
  short: 'the service sent a page shorter than its own page size',
}

/** What one page of op 16 brought, as far as the walk needs to know. */
export interface PageSummary {
  /** Rows in the page. */
  rows: number
  /** Certificates in it not seen on an earlier page (by id). */
  added: number
  meta?: ListAnswer['meta']
}

/** What a walk over the pages found: how many certificates, and whether that is all of them. */
export interface PageWalk {
  received: number
  completeness: ListCompleteness | null
}

/**
 * Pages of op 16 from 1 until one proves the list is done: an empty page, a page that brings
 * nothing new (a service that ignores `page`), `meta.total` reached, or (with no total) a page
 * shorter than the `meta.limit` the service reported. A page shorter than the size *asked*
 * proves nothing without `meta` (a service may cap the size silently), so the walk goes on.
 * The result says when the walk stopped at `maxPages` or `meta.total` disagrees with what
 * arrived: the screen must not show a part as the whole. Where the rows go is `readPage`'s
 * business (the list worker, for the app's refresh); the walk sees summaries only.
 */
export async function walkPages(
  filter: CertificateFilter,
  readPage: (query: Record<string, unknown>) => Promise<PageSummary>,
  { maxPages = MAX_PAGES }: { maxPages?: number } = {},
): Promise<PageWalk> {
  const query = pageQuery(filter)
  let received = 0
  let seen = 0
  let total: number | null = null
  let pages = 0
  let end: WalkEnd = 'bound'
  while (pages < maxPages) {
    pages += 1
    const page = await readPage({ ...query, page: pages })
    received += page.added
    seen += page.rows
    total = countOf(page.meta?.total) ?? total
    const ended = endOf({
      rows: page.rows,
      broughtNew: pages === 1 || page.added > 0,
      seen,
      total,
      reportedLimit: countOf(page.meta?.limit),
    })
    if (ended !== null) {
      end = ended
      break
    }
  }
  return { received, completeness: completenessOf(end, received, total, pages) }
}

/** The walk over pages of parsed answers, every certificate kept here (the CLI; tests). */
export async function fetchAllPages(
  filter: CertificateFilter,
  listPage: (query: Record<string, unknown>) => Promise<ListAnswer>,
  options: { maxPages?: number } = {},
): Promise<AllPages> {
  const byId = new Map<string, CertificateCacheEntry>()
  const walk = await walkPages(
    filter,
    async (query) => {
      const answer = await listPage(query)
      const before = byId.size
      for (const item of answer.data) {
        const entry = toCacheEntry(item)
        if (entry !== null) byId.set(entry.row.id, entry)
      }
      return { rows: answer.data.length, added: byId.size - before, meta: answer.meta }
    },
    options,
  )
  return { entries: [...byId.values()], completeness: walk.completeness }
}

/** What a page proves about the end of the list; null: ask for the next page. */
function endOf(page: {
  rows: number
  broughtNew: boolean
  seen: number
  total: number | null
  reportedLimit: number | null
}): Exclude<WalkEnd, 'bound'> | null {
  if (page.rows === 0) return 'empty'
  if (!page.broughtNew) return 'repeat'
  // A total still ahead outweighs a short page: walk on until it, or an empty page.
  if (page.total !== null) return page.seen >= page.total ? 'total' : null
  if (page.reportedLimit !== null && page.rows < page.reportedLimit) return 'short'
  return null
}

function pageQuery(filter: CertificateFilter): Record<string, unknown> {
  const query: Record<string, unknown> = { limit: PAGE_LIMIT }
  if (filter.type) query['type'] = filter.type
  if (filter.status) query['status'] = filter.status
  if (filter.search) query['search'] = filter.search
  query['showSystem'] = filter.showSystem === true
  return query
}

/** A count the service reported: a non-negative integer, else nothing. */
function countOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null
}

function completenessOf(
  end: WalkEnd,
  received: number,
  total: number | null,
  pages: number,
): ListCompleteness | null {
  const count = (value: number) => value.toLocaleString('en-US')
  if (end === 'bound') {
    // The service was still sending new certificates when the app stopped asking.
    const expected = Math.max(total ?? 0, received + 1)
    return {
      reason: 'page-bound',
      received,
      expected,
      pages,
      message:
        `${count(received)} of at least ${count(expected)}: the app stopped after ` +
        `${count(pages)} pages while the service was still sending new certificates`,
    }
  }
  if (total === null || total === received) return null
  const message =
    received < total
      ? `${count(received)} of at least ${count(total)}: ${END_WORDS[end]}`
      : `${count(received)} arrived where the service's total said ${count(total)}: ` +
        'the list changed while it was read'
  return { reason: 'total-mismatch', received, expected: total, pages, message }
}
