import type { SqlField } from '../../shared/bridge/channels/sql'
import type { ResultFormat } from '../sql/formats'
import type { ParseOptions } from '../sql/parse-result'
import { fromSqlWorker } from './sql-protocol'
import type { DiffRow } from '../sql/compare'
import type { ComparisonCounts, FromSqlWorker, ResultSummary, ToSqlWorker } from './sql-protocol'
import { createWorkerPort } from './worker-port'

/*
 * Main's side of the SQL worker (sql-worker.ts), which parses and keeps the SQL results: each
 * method is one message and its answer. One worker per desk, started on the first result
 * (worker-port.ts); a worker that died took its results with it, and a read of one then fails
 * as a released result does (RESULT_RELEASED from the new worker's empty store).
 */

export type DisplayRows = (string | null)[][]

export interface SqlResults {
  /**
   * Parses op 5's answer bytes in the worker and keeps them as result `id` (the buffer is
   * moved there: `body` is emptied); resolves with what the answer said and its first rows.
   */
  keep(
    id: string,
    owner: { tabId: string; databaseId: string },
    body: Buffer,
    firstRows: number,
    parse?: ParseOptions,
  ): Promise<{ summary: ResultSummary; firstRows: DisplayRows }>
  /** Rows [offset, offset + limit) in display order, as clipped display text. */
  window(id: string, offset: number, limit: number): Promise<DisplayRows>
  cell(id: string, row: number, column: number): Promise<string | null>
  sort(id: string, column: number | null, direction: 'asc' | 'desc'): Promise<void>
  /** Rows [from, to) in display order written in `format`, as one text. */
  format(
    id: string,
    format: ResultFormat,
    options: { headers: boolean; from?: number; to?: number },
  ): Promise<{ text: string; rows: number }>
  /** The whole result in `format` with headers, a chunk at a time (each asked for in turn). */
  stream(id: string, format: ResultFormat): AsyncGenerator<string>
  info(id: string): Promise<{ databaseId: string; fields: SqlField[]; rows: number }>
  /**
   * Compares result `after` with `before` by the column `keyColumn`, kept as comparison `id`
   * (released with `release`); refuses (COMPARE_REFUSED) what cannot be compared.
   */
  compare(
    id: string,
    results: { before: string; after: string },
    keyColumn: number,
  ): Promise<ComparisonCounts>
  /** Rows [offset, offset + limit) of a kept comparison. */
  compareWindow(id: string, offset: number, limit: number): Promise<DiffRow[]>
  release(ids: readonly string[]): Promise<void>
  releaseTab(tabId: string): Promise<void>
  close(): Promise<void>
}

export function createSqlResults(): SqlResults {
  const port = createWorkerPort<ToSqlWorker, FromSqlWorker>('sql-worker', fromSqlWorker)
  let lastJob = 0
  const nextJob = () => (lastJob += 1)

  /** The job's answer, of the type expected. */
  async function ask<T extends FromSqlWorker['type']>(
    message: ToSqlWorker,
    type: T,
    transfer?: ArrayBuffer[],
  ): Promise<Extract<FromSqlWorker, { type: T }>> {
    const answer = await port.ask(message, transfer)
    if (answer.type !== type) throw new Error(`the SQL worker answered ${answer.type}, not ${type}`)
    return answer as Extract<FromSqlWorker, { type: T }>
  }

  return {
    async keep(id, owner, body, firstRows, parse) {
      // A buffer of its own to move: a small body may sit in Node's shared pool.
      const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
      const bytes =
        whole && body.buffer instanceof ArrayBuffer
          ? new Uint8Array(body.buffer)
          : new Uint8Array(body)
      const kept = await ask(
        { type: 'keep', job: nextJob(), id, ...owner, bytes, firstRows, parse },
        'kept',
        [bytes.buffer],
      )
      return { summary: kept.summary, firstRows: kept.firstRows }
    },
    async window(id, offset, limit) {
      return (await ask({ type: 'window', job: nextJob(), id, offset, limit }, 'rows')).rows
    },
    async cell(id, row, column) {
      return (await ask({ type: 'cell', job: nextJob(), id, row, column }, 'value')).value
    },
    async sort(id, column, direction) {
      await ask({ type: 'sort', job: nextJob(), id, column, direction }, 'done')
    },
    async format(id, format, options) {
      const answer = await ask({ type: 'format', job: nextJob(), id, format, ...options }, 'text')
      return { text: answer.text, rows: answer.rows }
    },
    async *stream(id, format) {
      const job = nextJob()
      let chunk = await ask({ type: 'stream', job, id, format }, 'chunk')
      try {
        for (;;) {
          if (chunk.text !== '') yield chunk.text
          if (chunk.last) return
          chunk = await ask({ type: 'more', job }, 'chunk')
        }
      } finally {
        // A consumer that stopped early (a failed write) leaves the worker's iterator behind.
        if (!chunk.last && port.running) await ask({ type: 'endStream', job }, 'done')
      }
    },
    async info(id) {
      const answer = await ask({ type: 'info', job: nextJob(), id }, 'info')
      return { databaseId: answer.databaseId, fields: answer.fields, rows: answer.rows }
    },
    async compare(id, { before, after }, keyColumn) {
      const message = { type: 'compare', job: nextJob(), id, before, after, keyColumn } as const
      return (await ask(message, 'compared')).counts
    },
    async compareWindow(id, offset, limit) {
      const message = { type: 'compareWindow', job: nextJob(), id, offset, limit } as const
      return (await ask(message, 'diffRows')).rows
    },
    async release(ids) {
      // Nothing is kept in a worker that is not running: nothing to start it for.
      if (port.running) await ask({ type: 'release', job: nextJob(), ids: [...ids] }, 'done')
    },
    async releaseTab(tabId) {
      if (port.running) await ask({ type: 'releaseTab', job: nextJob(), tabId }, 'done')
    },
    close: () => port.close(),
  }
}
