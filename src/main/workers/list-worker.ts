import { parentPort, threadId, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { z } from 'zod'
import { LIST_OPERATIONS } from '../../shared/api'
import { createListAnswerReader } from '../api/list-answer'
import type { ListAnswerReader } from '../api/list-answer'
import { certificateStatementsOn } from '../cache/certificates'
import type { CertificateCacheEntry } from '../cache/certificates'
import { knownObjectWritesOn } from '../cache/known-objects'
import { expiringListOn } from '../cache/overview'
import { expiringCsv, expiringIcs } from '../features/expiring-export'
import type { ExpiringCertificate } from '../../shared/bridge/channels/overview'
import { createListRowsWriter } from '../cache/list-rows'
import { pageInfoOf } from '../features/certificates/page-info'
import { toCacheEntry } from '../features/certificates/rows'
import { objectsOfAnswer } from '../features/known-objects/answer-objects'
import { createListSpoolsOn } from '../cache/list-spool'
import type { ListSpool } from '../cache/list-spool'
import { prepareStatements } from '../cache/statements'
import { toListWorker } from './list-protocol'
import type { FromListWorker, ToListWorker } from './list-protocol'
import { asWorkerError } from './worker-errors'
import { runThisThreadInTheBackground } from './background-priority'

// Below main's priority: the loop that serves the bridge comes first (background-priority.ts).
runThisThreadInTheBackground()

/*
 * The list worker, a worker thread (docs/ARCHITECTURE-NOTES.md, "Off main's loop: worker threads").
 * Main forwards a big list answer's bytes as they arrive; here they are split, each row
 * parsed and validated with the contract (api/list-answer.ts, the same code main used to run)
 * and spooled on disk (cache/list-spool.ts); once main says so, the spooled rows replace the
 * cached list in one transaction on this thread's own connection to the cache file (WAL: main
 * keeps reading it meanwhile). Main gets small messages back: counts, the first window, errors.
 */

const { cacheFile } = z.object({ cacheFile: z.string().min(1) }).parse(workerData)
const port = parentPort
if (port === null) throw new Error('list-worker.ts runs as a worker thread only')

const db = new Database(cacheFile)
// As the cache's own connection (cache/index.ts): the file is already WAL and migrated by main.
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
db.pragma('cache_size = -2000')
const spools = createListSpoolsOn(db)
const statements = prepareStatements(db)
const writeRows = createListRowsWriter(db, statements)
const certificates = certificateStatementsOn(db)
const knownObjects = knownObjectWritesOn(db)
/** Rows per `items` message: each is taken by main in one turn of its loop (a few ms). */

interface Job {
  spool: ListSpool
  reader: ListAnswerReader
  /** The current attempt's first window (parsed rows) and field names, for its answer. */
  window: Record<string, unknown>[]
  keys: Set<string> | null
}
const jobs = new Map<number, Job>()

/** A page of op 16 being read: its certificates join `walk` once the page read well. */
interface PageJob {
  walk: number
  reader: ListAnswerReader
  entries: CertificateCacheEntry[]
  /** The attempt's body bytes so far, counted as its chunks arrive (the walk bounds them). */
  bytes: number
  /** Items without a usable id (rows.ts): not kept, but counted, so the screen can say so. */
  unlisted: number
}
const pages = new Map<number, PageJob>()
/** Certificate walks: every certificate the pages brought so far, by id (a later page wins). */
const walks = new Map<number, Map<string, CertificateCacheEntry>>()

function post(message: FromListWorker): void {
  port!.postMessage(message)
}

function forget(id: number): void {
  jobs.get(id)?.spool.discard()
  jobs.delete(id)
  pages.delete(id)
  walks.delete(id)
}

function fail(id: number, error: unknown): void {
  forget(id)
  post({ type: 'failed', job: id, error: asWorkerError(error) })
}

/** A fresh attempt at a certificate page: the rows of an attempt that broke are void. */
function beginPage(message: Extract<ToListWorker, { type: 'begin' }>, walk: number): void {
  const entries: CertificateCacheEntry[] = []
  const page: PageJob = {
    walk,
    entries,
    bytes: 0,
    unlisted: 0,
    reader: createListAnswerReader(message.operation, {
      row(row) {
        const entry = toCacheEntry(row.value)
        if (entry !== null) entries.push(entry)
        else page.unlisted += 1
      },
    }),
  }
  pages.set(message.job, page)
}

function readPageChunk(page: PageJob, bytes: Uint8Array): void {
  page.bytes += bytes.byteLength
  page.reader.push(bytes)
}

/** The page read well: its certificates join the walk, and main learns what the walk needs. */
function endPage(page: PageJob, message: Extract<ToListWorker, { type: 'end' }>): void {
  const count = page.reader.finish(message)
  let byId = walks.get(page.walk)
  if (byId === undefined) {
    byId = new Map()
    walks.set(page.walk, byId)
  }
  const before = byId.size
  for (const entry of page.entries) byId.set(entry.row.id, entry)
  pages.delete(message.job)
  // `meta`, `pagination` or another envelope's paging numbers, read under their usual names.
  const meta = pageInfoOf(page.reader.envelope())
  post({
    type: 'page',
    job: message.job,
    count,
    added: byId.size - before,
    meta,
    bytes: page.bytes,
    unlisted: page.unlisted,
  })
}

function storeCertificates(message: Extract<ToListWorker, { type: 'storeCertificates' }>): void {
  const entries = [...(walks.get(message.job)?.values() ?? [])]
  certificates.replace(
    message.profileId,
    message.filter,
    entries,
    message.fetchedAt,
    message.completeness,
  )
  // The names beside ids elsewhere in the app (features/known-objects), as an answer read on
  // main would have recorded them.
  const answer = { data: entries.map((entry) => entry.item) }
  knownObjects.record(
    message.profileId,
    objectsOfAnswer('listCertificates', { params: {}, query: {}, answer }, message.fetchedAt),
  )
  forget(message.job)
  post({ type: 'stored', job: message.job, count: entries.length, threadId })
}

const expiringList = expiringListOn(db)

function sendExpiringFile(message: Extract<ToListWorker, { type: 'expiringFile' }>): void {
  // Rows this app wrote itself (cache/certificates.ts), as main's Expiring list reads them.
  const items = JSON.parse(
    expiringList.json(message.until).toString('utf8'),
  ) as ExpiringCertificate[]
  const input = {
    items,
    profiles: new Map(message.profiles.map((profile) => [profile.id, profile])),
    days: message.days,
    now: message.now,
  }
  const text = message.format === 'csv' ? expiringCsv(input) : expiringIcs(input)
  const bytes = new TextEncoder().encode(text)
  port!.postMessage(
    { type: 'file', job: message.job, bytes, count: items.length } satisfies FromListWorker,
    [bytes.buffer],
  )
}

function rankCertificateNames(
  message: Extract<ToListWorker, { type: 'rankCertificateNames' }>,
): void {
  certificates.rankNames(message.profileId, message.locale)
  post({ type: 'ranked', job: message.job })
}

function sendCertificatesJson(message: Extract<ToListWorker, { type: 'certificatesJson' }>): void {
  const json = certificates.listJson(message.profileId, message.filter)
  // A view of its own buffer (SQLite's Buffer may share a pool), moved to main without a copy.
  const bytes = new Uint8Array(json.byteLength)
  bytes.set(json)
  port!.postMessage({ type: 'json', job: message.job, bytes } satisfies FromListWorker, [
    bytes.buffer,
  ])
}

/** A fresh attempt: the job's spool cleared (or a new one) and a reader feeding it. */
function begin(message: Extract<ToListWorker, { type: 'begin' }>): void {
  if (message.certificates !== undefined) return beginPage(message, message.certificates)
  const { offset, limit } = message.window
  const spool = jobs.get(message.job)?.spool ?? spools.open()
  spool.clear()
  const window: Record<string, unknown>[] = []
  const keys = message.collectKeys ? new Set<string>() : null
  let index = 0
  const reader = createListAnswerReader(message.operation, {
    row(row) {
      spool.add(row.json)
      if (index >= offset && window.length < limit) window.push(row.value)
      if (keys !== null) for (const key in row.value) keys.add(key)
      index += 1
    },
  })
  jobs.set(message.job, { spool, reader, window, keys })
}

/**
 * Reads the cached list whole, each row parsed and checked against the contract (a row that no
 * longer passes, or no longer reads, is left out, as the cache's own reads do), and sends it as
 * one JSON array's bytes: main passes them on without parsing them (a 10 MB session list
 * structured-cloned into main's heap cost its loop ~40 ms per refresh, and a collection later;
 * copying 10 MB into an envelope on main cost ~35 ms more, hence `opening` and `closing`).
 */
function sendListJson(message: Extract<ToListWorker, { type: 'list' }>): void {
  const { row } = LIST_OPERATIONS[message.operation]
  const fetchedAt =
    statements.selectListMeta.get(message.profileId, message.kind)?.fetched_at ?? null
  const rows: unknown[] = []
  if (fetchedAt !== null) {
    for (const stored of statements.selectListItems.all(message.profileId, message.kind)) {
      let value: unknown
      try {
        value = JSON.parse(stored.item_json)
      } catch {
        continue
      }
      const parsed = row.safeParse(value)
      if (parsed.success) rows.push(parsed.data)
    }
  }
  const written = `${message.opening}${JSON.stringify(rows)},"fetchedAt":${JSON.stringify(fetchedAt)}${message.closing}`
  const bytes = new TextEncoder().encode(written)
  port!.postMessage(
    { type: 'listJson', job: message.job, bytes, fetchedAt } satisfies FromListWorker,
    [bytes.buffer],
  )
}

/** Runs one job's step; a throw fails that job (and only it). */
function settled(job: number, run: () => void): void {
  try {
    run()
  } catch (error) {
    fail(job, error)
  }
}

function handle(message: ToListWorker): void {
  if (message.type === 'begin') return begin(message)
  if (message.type === 'discard') return forget(message.job)
  if (message.type === 'list') return settled(message.job, () => sendListJson(message))
  if (message.type === 'expiringFile') return settled(message.job, () => sendExpiringFile(message))
  if (message.type === 'storeCertificates') {
    return settled(message.job, () => storeCertificates(message))
  }
  if (message.type === 'rankCertificateNames') {
    return settled(message.job, () => rankCertificateNames(message))
  }
  if (message.type === 'certificatesJson') {
    return settled(message.job, () => sendCertificatesJson(message))
  }
  const page = pages.get(message.job)
  if (page !== undefined && (message.type === 'chunk' || message.type === 'end')) {
    return settled(message.job, () =>
      message.type === 'chunk' ? readPageChunk(page, message.bytes) : endPage(page, message),
    )
  }
  const job = jobs.get(message.job)
  // A job that failed is gone: the chunks still on their way are dropped.
  if (job === undefined) {
    if (message.type !== 'chunk') fail(message.job, new Error(`list job ${message.job} is gone`))
    return
  }
  try {
    if (message.type === 'chunk') {
      job.reader.push(message.bytes)
    } else if (message.type === 'end') {
      const count = job.reader.finish(message)
      post({
        type: 'read',
        job: message.job,
        count,
        window: job.window,
        keys: [...(job.keys ?? [])],
      })
    } else {
      const count = writeRows(message.profileId, message.kind, job.spool.rows(), message.fetchedAt)
      forget(message.job)
      post({ type: 'stored', job: message.job, count, threadId })
    }
  } catch (error) {
    fail(message.job, error)
  }
}

port.on('message', (raw: unknown) => {
  const parsed = toListWorker.safeParse(raw)
  if (!parsed.success) {
    const jobId = (raw as { job?: unknown } | null)?.job
    if (typeof jobId === 'number') fail(jobId, new Error('the list worker got a malformed message'))
    return
  }
  handle(parsed.data)
})
