import { parentPort } from 'node:worker_threads'
import { compareResults, comparisonWindow, ComparisonStore } from '../sql/compare'
import { formatResult } from '../sql/formats'
import { parseSqlAnswer } from '../sql/parse-result'
import { ResultStore } from '../sql/result-store'
import { toSqlWorker } from './sql-protocol'
import type { FromSqlWorker, ToSqlWorker } from './sql-protocol'
import { asWorkerError } from './worker-errors'
import { runThisThreadInTheBackground } from './background-priority'

// Below main's priority: the loop that serves the bridge comes first (background-priority.ts).
runThisThreadInTheBackground()

/*
 * The SQL worker (docs/ARCHITECTURE-NOTES.md, "Off main's loop: worker threads"): op 5's
 * answer, 25 MB for 100,000 rows x 20, is decoded, parsed and kept here, in the same
 * ResultStore main used to hold; main asks for windows of display text, cells, sorts, copies and
 * a save's text, one message each. Main's loop never holds the rows (or collects them).
 */

const port = parentPort
if (port === null) throw new Error('sql-worker.ts runs as a worker thread only')

const textDecoder = new TextDecoder()
const results = new ResultStore()
const comparisons = new ComparisonStore()
/** Saves being written: the formatted chunks not yet asked for, by job. */
const streams = new Map<number, Iterator<string>>()
/** Chunks of a save are joined to about this many characters per message. */
const STREAM_CHUNK_CHARS = 256 * 1024

function post(message: FromSqlWorker): void {
  port!.postMessage(message)
}

function sendChunk(job: number): void {
  const chunks = streams.get(job)
  if (chunks === undefined) throw new Error(`sql job ${job} is gone`)
  let text = ''
  let last = false
  while (text.length < STREAM_CHUNK_CHARS) {
    const next = chunks.next()
    if (next.done === true) {
      last = true
      break
    }
    text += next.value
  }
  if (last) streams.delete(job)
  post({ type: 'chunk', job, text, last })
}

function handle(message: ToSqlWorker): void {
  const { job } = message
  switch (message.type) {
    case 'keep': {
      const { rows, ...summary } = parseSqlAnswer(
        textDecoder.decode(message.bytes),
        message.parse ?? {},
      )
      results.put(message, { fields: summary.fields, rows }, message.id)
      const firstRows = results.window(message.id, 0, message.firstRows)
      return post({ type: 'kept', job, summary: { ...summary, rows: rows.length }, firstRows })
    }
    case 'window':
      return post({
        type: 'rows',
        job,
        rows: results.window(message.id, message.offset, message.limit),
      })
    case 'cell':
      return post({
        type: 'value',
        job,
        value: results.cell(message.id, message.row, message.column),
      })
    case 'sort':
      results.sort(message.id, message.column, message.direction)
      return post({ type: 'done', job })
    case 'format': {
      const kept = results.get(message.id)
      const rows = [...results.rowsInOrder(message.id, message.from, message.to)]
      const text = [...formatResult(message.format, kept.fields, rows, message)].join('')
      return post({ type: 'text', job, text, rows: rows.length })
    }
    case 'stream': {
      const kept = results.get(message.id)
      const rows = results.rowsInOrder(message.id)
      streams.set(job, formatResult(message.format, kept.fields, rows, { headers: true }))
      return sendChunk(job)
    }
    case 'more':
      return sendChunk(job)
    case 'endStream':
      streams.delete(job)
      return post({ type: 'done', job })
    case 'info': {
      const kept = results.get(message.id)
      return post({
        type: 'info',
        job,
        databaseId: kept.databaseId,
        fields: kept.fields,
        rows: kept.rows.length,
      })
    }
    case 'compare': {
      const compared = compareResults(
        results.get(message.before),
        results.get(message.after),
        message.keyColumn,
        message.id,
      )
      comparisons.put(compared)
      const { added, removed, changed, unchanged } = compared
      return post({ type: 'compared', job, counts: { added, removed, changed, unchanged } })
    }
    case 'compareWindow':
      return post({
        type: 'diffRows',
        job,
        rows: comparisonWindow(comparisons.get(message.id), message.offset, message.limit),
      })
    case 'release':
      results.release(message.ids)
      comparisons.release(message.ids)
      return post({ type: 'done', job })
    case 'releaseTab':
      results.releaseTab(message.tabId)
      comparisons.releaseTab(message.tabId)
      return post({ type: 'done', job })
  }
}

port.on('message', (raw: unknown) => {
  const message = toSqlWorker.safeParse(raw)
  if (!message.success) {
    const jobId = (raw as { job?: unknown } | null)?.job
    if (typeof jobId === 'number') {
      post({
        type: 'failed',
        job: jobId,
        error: asWorkerError(new Error('the SQL worker got a malformed message')),
      })
    }
    return
  }
  try {
    handle(message.data)
  } catch (error) {
    streams.delete(message.data.job)
    post({ type: 'failed', job: message.data.job, error: asWorkerError(error) })
  }
})
