import { z } from 'zod'
import { SQL_COPY_FORMATS, sqlFieldSchema } from '../../shared/bridge/channels/sql'
import { workerError } from './list-protocol'

/*
 * Messages between main and the SQL worker (sql-worker.ts), checked with zod on both sides.
 * The worker keeps the results (sql/result-store.ts): main sends op 5's answer bytes, the worker
 * decodes, parses and keeps them, and every later read of a result (a window of rows, a cell,
 * a sort, a copy, a save's text) is a message that names the result's id. The rows never cross
 * to main: 100,000 rows of 20 cells held there were two million objects for its collector.
 */

const job = z.number().int().positive()
const resultId = z.string().min(1)
/** Every format a result is written in (a save's are among a copy's). */
const resultFormatSchema = z.enum(SQL_COPY_FORMATS)
/** A row or column number, an offset or a count. */
const index = z.number().int().min(0)

/** A message about one kept result: its type, the job its reply answers, the result's id. */
function aboutResult<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.object({ type: z.literal(type), job, id: resultId, ...shape })
}

export const toSqlWorker = z.discriminatedUnion('type', [
  /**
   * Op 5's answer as the service sent it (UTF-8 JSON), its buffer moved to the worker: parsed
   * and kept as result `id` (replacing one of that id), owned by the tab and database.
   */
  aboutResult('keep', {
    tabId: z.string(),
    databaseId: z.string(),
    bytes: z.instanceof(Uint8Array),
    /** Rows to send back at once as display text (the grid's first screen). */
    firstRows: index,
    /** Which result of a `results[]` answer (parse-result.ts ParseOptions). */
    parse: z.object({ wrapped: z.boolean().optional(), pick: index.optional() }).optional(),
  }),
  aboutResult('window', { offset: index, limit: index }),
  aboutResult('cell', { row: index, column: index }),
  aboutResult('sort', { column: index.nullable(), direction: z.enum(['asc', 'desc']) }),
  /** The rows [from, to) in display order, written in `format` (one text: a copy). */
  aboutResult('format', {
    format: resultFormatSchema,
    headers: z.boolean(),
    from: index.optional(),
    to: index.optional(),
  }),
  /** The whole result in `format`, sent a chunk at a time: the next when main asks (`more`). */
  aboutResult('stream', { format: resultFormatSchema }),
  z.object({ type: z.literal('more'), job }),
  /** A save that stopped before its last chunk (written elsewhere, failed): its rows are let go. */
  z.object({ type: z.literal('endStream'), job }),
  /** What a result is (its database, fields and row count), to name a saved file. */
  aboutResult('info', {}),
  /**
   * Compares result `after` with the pinned result `before` by the column `keyColumn`;
   * the comparison is kept as `id` and read by window (`compareWindow`), released as results are.
   */
  aboutResult('compare', { before: resultId, after: resultId, keyColumn: index }),
  aboutResult('compareWindow', { offset: index, limit: index }),
  z.object({ type: z.literal('release'), job, ids: z.array(resultId) }),
  z.object({ type: z.literal('releaseTab'), job, tabId: z.string() }),
])
export type ToSqlWorker = z.infer<typeof toSqlWorker>

/** A parsed answer without its rows: what main records and tells the renderer. */
export const resultSummary = z.object({
  command: z.string(),
  rowCount: z.number().nullable(),
  fields: z.array(sqlFieldSchema),
  truncated: z.boolean(),
  truncatedBy: z.enum(['rows', 'size']).nullable(),
  durationMs: z.number().nullable(),
  columnsFrom: z.enum(['fields', 'rows']),
  rowShape: z.enum(['arrays', 'objects', 'mixed', 'none']),
  notes: z.array(z.string()),
  answer: z.object({
    shape: z.enum(['single', 'results']),
    results: index,
    resultLimit: z.number().int().positive().nullable(),
  }),
  /** How many rows the worker keeps. */
  rows: index,
})
export type ResultSummary = z.infer<typeof resultSummary>

const displayRows = z.array(z.array(z.string().nullable()))

export const comparisonCounts = z.object({
  added: index,
  removed: index,
  changed: index,
  unchanged: index,
})
export type ComparisonCounts = z.infer<typeof comparisonCounts>

/** A row of a comparison (sql/compare.ts DiffRow), as display text. */
export const diffRowSchema = z.object({
  kind: z.enum(['added', 'removed', 'changed']),
  cells: z.array(z.string().nullable()),
  previous: z.array(z.string().nullable()).nullable(),
  changed: z.array(index),
})

export const fromSqlWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('kept'), job, summary: resultSummary, firstRows: displayRows }),
  z.object({ type: z.literal('rows'), job, rows: displayRows }),
  z.object({ type: z.literal('value'), job, value: z.string().nullable() }),
  z.object({ type: z.literal('text'), job, text: z.string(), rows: index }),
  /** A chunk of a streamed result; `last` when it ends it (its text may be empty). */
  z.object({ type: z.literal('chunk'), job, text: z.string(), last: z.boolean() }),
  z.object({
    type: z.literal('info'),
    job,
    databaseId: z.string(),
    fields: z.array(sqlFieldSchema),
    rows: index,
  }),
  z.object({ type: z.literal('compared'), job, counts: comparisonCounts }),
  z.object({ type: z.literal('diffRows'), job, rows: z.array(diffRowSchema) }),
  z.object({ type: z.literal('done'), job }),
  z.object({ type: z.literal('failed'), job, error: workerError }),
])
export type FromSqlWorker = z.infer<typeof fromSqlWorker>
