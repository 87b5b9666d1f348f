import type { ParsedResult } from '../sql/parse-result'
import { untagExactNumbers } from '../sql/exact-cells'
import { fromSqlWorker } from './sql-protocol'
import type { FromSqlWorker, ToSqlWorker } from './sql-protocol'
import { createWorkerPort } from './worker-port'

/*
 * Main's side of the SQL parse worker (sql-worker.ts): `parse(body)` resolves with what
 * parseSqlAnswer(body as text) would have returned, its rows taken in slices, one per turn of main's
 * loop, so the bridge's calls go in between. One worker per desk, started on the first big
 * answer (worker-port.ts).
 */

export interface SqlParseWorker {
  /** Parses op 5's answer bytes; their buffer is moved to the worker (`body` is emptied). */
  parse(body: Buffer): Promise<ParsedResult>
  close(): Promise<void>
}

export function createSqlParseWorker(): SqlParseWorker {
  const port = createWorkerPort<ToSqlWorker, FromSqlWorker>('sql-worker', fromSqlWorker)
  let lastJob = 0

  return {
    async parse(body) {
      lastJob += 1
      const job = lastJob
      // A buffer of its own to move: a small body may sit in Node's shared pool.
      const whole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength
      const bytes =
        whole && body.buffer instanceof ArrayBuffer
          ? new Uint8Array(body.buffer)
          : new Uint8Array(body)
      let slice = await port.ask({ type: 'parse', job, bytes }, [bytes.buffer])
      const { meta } = slice
      if (meta === null) throw new Error(`sql job ${job}: the first slice has no meta`)
      const rows: unknown[][] = []
      try {
        for (;;) {
          for (const row of slice.exact ? untagExactNumbers(slice.rows) : slice.rows) rows.push(row)
          if (slice.last) break
          // The next slice is asked for on the next turn: the bridge's calls go in between.
          await new Promise((resolve) => setImmediate(resolve))
          slice = await port.ask({ type: 'more', job })
        }
      } catch (error) {
        if (port.running) port.send({ type: 'drop', job })
        throw error
      }
      return { ...meta, rows }
    },
    close: () => port.close(),
  }
}
