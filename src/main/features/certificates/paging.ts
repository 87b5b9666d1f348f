import type { CertificateFilter, ListCompleteness } from '../../../shared/bridge'
import type { CertificateCacheEntry } from '../../cache/certificates'
import { pageInfoOf } from './page-info'
import type { PageInfo } from './page-info'
import { limitRefusal, pageSizeOf } from './page-size'
import { toCacheEntry } from './rows'

/*
 * The walk over op 16's pages that fills the certificates cache (see index.ts for its caller).
 */

/**
 * Asked per page until the service says otherwise: a service may cap it (its `meta.limit` or
 * `pagination.limit` then says so) or refuse it (a VALIDATION_ERROR on `limit`: the real
 * deployment takes 1..100), and then the bound it states is asked instead and kept per profile
 * (page-size.ts).
 */
export const PAGE_LIMIT = 500
/** A bound on paging, should a service never send an empty page (or nothing new). */
export const MAX_PAGES = 2_000
/**
 * Bounds on what one walk holds, should a service keep sending new certificates (a security
 * probe: one new 2 MiB item per page took the walk to ~4 GB before MAX_PAGES ended it). Every
 * certificate the walk brought is held until the walk ends (in the list worker, or here for the
 * CLI), so these bound its memory. 200,000 certificates is twice the largest certificate
 * list the app is measured with (100,000: rankCertificateNames in docs/ARCHITECTURE-NOTES.md);
 * 256 MiB of answers is some 50,000 items of a real deployment's list if each carries a PEM
 * with its chain (~5 KB, an estimate), and what the list worker can hold, about twice that
 * as parsed objects, without risking the app. A bound is
 * checked once a page has arrived, so a walk passes it by one page (at most a page size of
 * rows, and one answer of the client's maxResponseBytes).
 */
export const MAX_ROWS = 200_000
export const MAX_BYTES = 256 * 1024 * 1024

type WalkBounds = Pick<WalkOptions, 'maxPages' | 'maxRows' | 'maxBytes'>

/**
 * Lower bounds for the walks whose callers name none (the desk's refresh, the CLI's list), set
 * by tests in the same process: reaching 256 MiB through the desk would take a test minutes
 * and as much memory. Empty outside tests.
 */
let boundsForTests: WalkBounds = {}

/** Tests only: the bounds every walk takes unless its caller names its own; `{}` undoes it. */
export function setWalkBoundsForTests(bounds: WalkBounds): void {
  boundsForTests = { ...bounds }
}

export { pageInfoOf } from './page-info'
export type { PageInfo } from './page-info'

type ListAnswer = { data: unknown[]; [envelope: string]: unknown }

/** What the walk over op 16's pages brought, and why it may be short of the whole list. */
export interface AllPages {
  entries: CertificateCacheEntry[]
  completeness: ListCompleteness | null
}

/** What ended the walk: each is proof the list is done, except the app's bounds. */
type WalkEnd = 'empty' | 'repeat' | 'total' | 'pages' | 'short' | WalkBound

/** The app's bounds on a walk: on pages asked, certificates held, bytes of answers read. */
type WalkBound = 'bound' | 'rows' | 'bytes'

const END_WORDS: Record<Exclude<WalkEnd, WalkBound>, string> = {
  empty: 'the service stopped answering pages',
  repeat: 'the service sent the same certificates again',
  total: 'some came twice (the list changed while it was read)',
  pages: 'the last page the service counted came short (the list changed while it was read)',
  short: 'the service sent a page shorter than its own page size',
}

/** What one page of op 16 brought, as far as the walk needs to know. */
export interface PageSummary {
  /** Rows in the page. */
  rows: number
  /** Certificates in it not seen on an earlier page (by id). */
  added: number
  /** What the envelope said of the paging (pageInfoOf); absent when it said nothing. */
  meta?: PageInfo | undefined
  /** The page's answer body as read, in bytes (what counts toward `maxBytes`). */
  bytes: number
  /** Items in it without a usable id (rows.ts), which no list can show; absent: none. */
  unlisted?: number
}

/** What a walk over the pages found: how many certificates, and whether that is all of them. */
export interface PageWalk {
  received: number
  completeness: ListCompleteness | null
  /** The page size the walk asked in the end (a refusal may have taught it); null: none sent. */
  pageLimit: number | null
}

export interface WalkOptions {
  maxPages?: number
  /** Distinct certificates held after which the walk stops asking (MAX_ROWS). */
  maxRows?: number
  /** Bytes of answer bodies read after which the walk stops asking (MAX_BYTES). */
  maxBytes?: number
  /** The page size to ask (the profile's learned one); PAGE_LIMIT when not given. */
  pageLimit?: number
  /** Told when a refusal of `limit` states the service's bound (to keep it for the profile). */
  onPageLimitLearned?: (limit: number) => void
}

/**
 * Pages of op 16 from 1 until one proves the list is done: an empty page, a page that brings
 * nothing new (a service that ignores `page`), the reported total reached, the last of the
 * reported `totalPages` read, or (with neither) a page shorter than the page size the service
 * reported. A page shorter than the size *asked* proves nothing unreported (a service may cap
 * the size silently), so the walk goes on. The result says when the walk stopped at `maxPages`
 * or the total disagrees with what arrived: the screen must not show a part as the whole.
 * Where the rows go is `readPage`'s business (the list worker, for the app's refresh); the walk
 * sees summaries only, so the order the service sends (a real deployment: newest first) does
 * not matter: certificates are told apart by id, and only a page of nothing new ends a walk
 * that has no count to reach.
 *
 * A page refused for its `limit` (VALIDATION_ERROR naming it) is asked again within the bound
 * the refusal states, once, and the bound goes to `onPageLimitLearned`; a refusal stating no
 * bound is asked again without `limit` (the service's own default).
 */
export async function walkPages(
  filter: CertificateFilter,
  readPage: (query: Record<string, unknown>) => Promise<PageSummary>,
  options: WalkOptions = {},
): Promise<PageWalk> {
  const {
    maxPages = MAX_PAGES,
    maxRows = MAX_ROWS,
    maxBytes = MAX_BYTES,
    pageLimit = PAGE_LIMIT,
    onPageLimitLearned,
  } = { ...boundsForTests, ...options }
  const query = pageQuery(filter)
  let limit: number | null = pageLimit
  let limitRefused = false
  let received = 0
  let unlisted = 0
  let seen = 0
  let total: number | null = null
  let totalPages: number | null = null
  let pages = 0
  let bytes = 0
  let end: WalkEnd = 'bound'
  while (pages < maxPages) {
    pages += 1
    let page: PageSummary
    try {
      page = await readPage({ ...query, ...(limit === null ? {} : { limit }), page: pages })
    } catch (error) {
      const refusal = limit === null || limitRefused ? null : limitRefusal(error)
      if (refusal === null || limit === null) throw error
      limitRefused = true
      limit = pageSizeOf(refusal, limit)
      if (limit !== null) onPageLimitLearned?.(limit)
      pages -= 1
      continue
    }
    received += page.added
    seen += page.rows
    bytes += page.bytes
    total = countOf(page.meta?.total) ?? total
    totalPages = countOf(page.meta?.totalPages) ?? totalPages
    const ended = endOf({
      page: pages,
      rows: page.rows,
      broughtNew: pages === 1 || page.added > 0,
      seen,
      total,
      totalPages,
      reportedLimit: countOf(page.meta?.limit),
    })
    // A page of nothing new is one seen before: its id-less items were counted then.
    if (ended !== 'repeat') unlisted += page.unlisted ?? 0
    if (ended !== null) {
      end = ended
      break
    }
    // Past a bound of what the walk holds (the page that passed it brought new certificates:
    // a list of exactly the bound still ends whole, by the page after it).
    if (received > maxRows) {
      end = 'rows'
      break
    }
    if (bytes > maxBytes) {
      end = 'bytes'
      break
    }
  }
  return {
    received,
    completeness: withUnlisted(
      completenessOf(end, { received, unlisted, total, pages, bytes, maxRows, maxBytes }),
      { received, unlisted, total, pages },
    ),
    pageLimit: limit,
  }
}

/**
 * The walk over pages of parsed answers, every certificate kept here (the CLI; tests). The
 * answers come parsed (the CLI's come through the desk's bridge, which does not carry the
 * body's size), so a page's bytes are its rows written again as JSON: one more pass over a page
 * the client already bounded (maxResponseBytes), the only size of it known here.
 */
export async function fetchAllPages(
  filter: CertificateFilter,
  listPage: (query: Record<string, unknown>) => Promise<ListAnswer>,
  options: WalkOptions = {},
): Promise<AllPages> {
  const byId = new Map<string, CertificateCacheEntry>()
  const walk = await walkPages(
    filter,
    async (query) => {
      const answer = await listPage(query)
      const before = byId.size
      let unlisted = 0
      for (const item of answer.data) {
        const entry = toCacheEntry(item)
        if (entry === null) unlisted += 1
        else byId.set(entry.row.id, entry)
      }
      return {
        rows: answer.data.length,
        added: byId.size - before,
        meta: pageInfoOf(answer),
        bytes: Buffer.byteLength(JSON.stringify(answer.data)),
        unlisted,
      }
    },
    options,
  )
  return { entries: [...byId.values()], completeness: walk.completeness }
}

/** What a page proves about the end of the list; null: ask for the next page. */
function endOf(page: {
  page: number
  rows: number
  broughtNew: boolean
  seen: number
  total: number | null
  totalPages: number | null
  reportedLimit: number | null
}): Exclude<WalkEnd, WalkBound> | null {
  if (page.rows === 0) return 'empty'
  if (!page.broughtNew) return 'repeat'
  // A total still ahead outweighs a short page: walk on until it, or an empty page.
  if (page.total !== null) return page.seen >= page.total ? 'total' : null
  if (page.totalPages !== null && page.page >= page.totalPages) return 'pages'
  if (page.reportedLimit !== null && page.rows < page.reportedLimit) return 'short'
  return null
}

function pageQuery(filter: CertificateFilter): Record<string, unknown> {
  const query: Record<string, unknown> = {}
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

interface Walked {
  received: number
  unlisted: number
  total: number | null
  pages: number
  bytes: number
  maxRows: number
  maxBytes: number
}

/** The words for what the app had taken when one of its bounds ended the walk. */
function boundWords(end: WalkBound, walked: Walked): string {
  const count = (value: number) => value.toLocaleString('en-US')
  const pages = `${count(walked.pages)} pages`
  if (end === 'rows') {
    return `the app stopped after ${pages}, past its bound of ${count(walked.maxRows)} certificates`
  }
  if (end === 'bytes') {
    const mib = (value: number) => count(Math.floor(value / (1024 * 1024)))
    return (
      `the app stopped after ${pages}, past its bound of ${mib(walked.maxBytes)} MiB ` +
      `of answers (${mib(walked.bytes)} MiB read)`
    )
  }
  return `the app stopped after ${pages}`
}

const BOUND_REASONS = {
  bound: 'page-bound',
  rows: 'row-bound',
  bytes: 'byte-bound',
} as const satisfies Record<WalkBound, ListCompleteness['reason']>

function completenessOf(end: WalkEnd, walked: Walked): ListCompleteness | null {
  const { received, total, pages } = walked
  const count = (value: number) => value.toLocaleString('en-US')
  if (end === 'bound' || end === 'rows' || end === 'bytes') {
    // The service was still sending new certificates when the app stopped asking.
    const expected = Math.max(total ?? 0, received + 1)
    return {
      reason: BOUND_REASONS[end],
      received,
      expected,
      pages,
      message:
        `${count(received)} of at least ${count(expected)}: ${boundWords(end, walked)} ` +
        'while the service was still sending new certificates',
    }
  }
  // The service's total counts the items without an id too.
  if (total === null || total === received + walked.unlisted) return null
  const message =
    received < total
      ? `${count(received)} of at least ${count(total)}: ${END_WORDS[end]}`
      : `${count(received)} arrived where the service's total said ${count(total)}: ` +
        'the list changed while it was read'
  return { reason: 'total-mismatch', received, expected: total, pages, message }
}

/** Says how many listed items have no id: beside what ended the walk short, or on its own. */
function withUnlisted(
  completeness: ListCompleteness | null,
  walked: Pick<Walked, 'received' | 'unlisted' | 'total' | 'pages'>,
): ListCompleteness | null {
  const { received, unlisted, total, pages } = walked
  if (unlisted === 0) return completeness
  const words = `${unlisted.toLocaleString('en-US')} ${
    unlisted === 1 ? 'item the service listed has' : 'items the service listed have'
  } no usable id (a string of 1 to 200 characters) and ${unlisted === 1 ? 'is' : 'are'} not shown`
  if (completeness !== null) {
    return { ...completeness, unlisted, message: `${completeness.message}; ${words}` }
  }
  return {
    reason: 'unlisted',
    received,
    expected: total ?? received + unlisted,
    pages,
    message: words,
    unlisted,
  }
}
