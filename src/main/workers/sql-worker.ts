import { parentPort } from 'node:worker_threads'
import { tagExactNumbers } from '../sql/exact-cells'
import { parseSqlAnswer } from '../sql/parse-result'
import { ExactNumber } from '../sql/values'
import { toSqlWorker } from './sql-protocol'
import type { FromSqlWorker } from './sql-protocol'
import { asWorkerError } from './worker-errors'

/*
 * The SQL parse worker (docs/ARCHITECTURE-NOTES.md, "Off main's loop: worker threads"): op 5's
 * answer, 25 MB for 100,000 rows x 20, is decoded and parsed here instead of on main's loop, and its rows go
 * back in slices that main asks for one at a time (each a few milliseconds to take in).
 */

const port = parentPort
if (port === null) throw new Error('sql-worker.ts runs as a worker thread only')

/** Rows per slice: 1,000 rows of 20 cells take main a few milliseconds to receive. */
const ROWS_PER_SLICE = 1_000

const textDecoder = new TextDecoder()
const parsed = new Map<number, { rows: unknown[][]; exact: boolean }>()

function post(message: FromSqlWorker): void {
  port!.postMessage(message)
}

function holdsExactNumber(value: unknown): boolean {
  if (value instanceof ExactNumber) return true
  if (value === null || typeof value !== 'object') return false
  return Object.values(value).some(holdsExactNumber)
}

function sendSlice(job: number, meta: Extract<FromSqlWorker, { type: 'rows' }>['meta']): void {
  const held = parsed.get(job)
  if (held === undefined) throw new Error(`sql job ${job} is gone`)
  const slice = held.rows.splice(0, ROWS_PER_SLICE)
  const last = held.rows.length === 0
  if (last) parsed.delete(job)
  const rows = held.exact ? tagExactNumbers(slice) : slice
  post({ type: 'rows', job, meta, rows, exact: held.exact, last })
}

port.on('message', (raw: unknown) => {
  const message = toSqlWorker.safeParse(raw)
  if (!message.success) return
  const { job } = message.data
  try {
    if (message.data.type === 'drop') {
      parsed.delete(job)
    } else if (message.data.type === 'more') {
      sendSlice(job, null)
    } else {
      const { rows, ...meta } = parseSqlAnswer(textDecoder.decode(message.data.bytes))
      parsed.set(job, { rows, exact: rows.some((row) => row.some(holdsExactNumber)) })
      sendSlice(job, meta)
    }
  } catch (error) {
    parsed.delete(job)
    post({ type: 'failed', job, error: asWorkerError(error) })
  }
})
