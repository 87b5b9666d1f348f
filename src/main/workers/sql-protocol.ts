import { z } from 'zod'
import { sqlFieldSchema } from '../../shared/bridge/channels/sql'
import { workerError } from './list-protocol'

/*
 * Messages between main and the SQL parse worker (sql-worker.ts), checked with zod on both
 * sides. Main sends op 5's answer text; the worker parses it (sql/parse-result.ts, as main did)
 * and keeps the rows, which main takes one slice at a time, each asked for on a turn of its own.
 */

const job = z.number().int().positive()

export const toSqlWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('parse'), job, text: z.string() }),
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
    rows: z.array(z.array(z.unknown())),
    /** Cells hold tagged exact numbers (sql/exact-cells.ts). */
    exact: z.boolean(),
    last: z.boolean(),
  }),
  z.object({ type: z.literal('failed'), job, error: workerError }),
])
export type FromSqlWorker = z.infer<typeof fromSqlWorker>
