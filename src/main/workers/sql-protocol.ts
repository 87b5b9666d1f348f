import { z } from 'zod'
import { sqlFieldSchema } from '../../shared/bridge/channels/sql'
import { workerError } from './list-protocol'

/*
 * Messages between main and the SQL parse worker (sql-worker.ts), checked with zod on both
 * sides. Main sends op 5's answer bytes; the worker decodes and parses them (sql/parse-result.ts, as main did)
 * and keeps the rows, which main takes one slice at a time, each asked for on a turn of its own.
 */

const job = z.number().int().positive()

export const toSqlWorker = z.discriminatedUnion('type', [
  /** Op 5's answer as the service sent it (UTF-8 JSON), its buffer moved to the worker. */
  z.object({ type: z.literal('parse'), job, bytes: z.instanceof(Uint8Array) }),
  z.object({ type: z.literal('more'), job }),
  z.object({ type: z.literal('drop'), job }),
])
export type ToSqlWorker = z.infer<typeof toSqlWorker>

const meta = z.object({
  command: z.string(),
  rowCount: z.number().nullable(),
  fields: z.array(sqlFieldSchema),
  truncated: z.boolean(),
  durationMs: z.number().nullable(),
  columnsFrom: z.enum(['fields', 'rows']),
  rowShape: z.enum(['arrays', 'objects', 'mixed', 'none']),
  notes: z.array(z.string()),
})

export const fromSqlWorker = z.discriminatedUnion('type', [
  /** The answer parsed: its meta with the first slice of rows. */
  z.object({
    type: z.literal('rows'),
    job,
    /** Sent with the first slice only. */
    meta: meta.nullable(),
    // Each row an array; the cells are the worker's own parse, not checked again one by one
    // (20,000 checks a slice, on main's loop).
    rows: z.custom<unknown[][]>(
      (value) => Array.isArray(value) && value.every((row) => Array.isArray(row)),
      'rows must be arrays',
    ),
    /** Cells hold tagged exact numbers (sql/exact-cells.ts). */
    exact: z.boolean(),
    last: z.boolean(),
  }),
  z.object({ type: z.literal('failed'), job, error: workerError }),
])
export type FromSqlWorker = z.infer<typeof fromSqlWorker>
