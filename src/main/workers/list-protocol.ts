import { z } from 'zod'
import { LIST_OPERATIONS } from '../../shared/api'
import {
  certificateFilterSchema,
  listCompletenessSchema,
} from '../../shared/bridge/channels/certificates'
import type { ListOperationName } from '../../shared/api'

/*
 * Messages between main and the list worker (list-worker.ts), checked with zod on both sides.
 * A job is one read of a big list: its body's chunks go in as they arrive, the worker splits,
 * parses and validates the rows into a spool, and answers with the count and the first window
 * (small); `store` then writes the spooled rows over the cached list in the worker's own
 * SQLite connection to the cache file.
 */

const job = z.number().int().positive()
const listOperation = z.custom<ListOperationName>(
  (value) => typeof value === 'string' && Object.hasOwn(LIST_OPERATIONS, value),
  'not a list operation',
)

export const toListWorker = z.discriminatedUnion('type', [
  /** An attempt at the body begins (again, after a broken connection: the rows so far are void). */
  z.object({
    type: z.literal('begin'),
    job,
    operation: listOperation,
    /** Rows to hand back as parsed values (the first window), in the service's order. */
    window: z.object({ offset: z.number().int().min(0), limit: z.number().int().min(0) }),
    /** Hand back every field name the rows carry, first-seen order (the catalog's columns). */
    collectKeys: z.boolean(),
    /**
     * A page of op 16: its rows join this certificate walk (once the page read well) instead
     * of a spool, and the answer is `page`.
     */
    certificates: job.optional(),
  }),
  z.object({ type: z.literal('chunk'), job, bytes: z.instanceof(Uint8Array) }),
  z.object({
    type: z.literal('end'),
    job,
    status: z.number().int(),
    contentType: z.string().nullable(),
  }),
  z.object({
    type: z.literal('store'),
    job,
    profileId: z.string().min(1),
    kind: z.string().min(1),
    fetchedAt: z.number().finite(),
  }),
  /** The walk's certificates replace the rows `filter` selects (cache/certificates.ts). */
  z.object({
    type: z.literal('storeCertificates'),
    job,
    profileId: z.string().min(1),
    filter: certificateFilterSchema,
    fetchedAt: z.number().finite(),
    completeness: listCompletenessSchema.nullable(),
  }),
  /**
   * Work out the profile's certificates' places in the list's default order as `locale` sorts
   * it (cache/certificates.ts rankNames), so main reads a first screenful by index.
   */
  z.object({
    type: z.literal('rankCertificateNames'),
    job,
    profileId: z.string().min(1),
    locale: z.string().min(1),
  }),
  /** The cached certificate rows `filter` selects, as SQLite joins them into a JSON array. */
  z.object({
    type: z.literal('certificatesJson'),
    job,
    profileId: z.string().min(1),
    filter: certificateFilterSchema,
  }),
  /**
   * The Expiring list (every profile's certificates ending before `until`) as an export file's
   * text (features/expiring-export.ts), written here: 100,000 rows are ~1 s of parsing and
   * writing that main's loop must not hold.
   */
  z.object({
    type: z.literal('expiringFile'),
    job,
    format: z.enum(['csv', 'ics']),
    until: z.string(),
    days: z.number().int().positive(),
    now: z.number().finite(),
    profiles: z.array(z.object({ id: z.string(), name: z.string(), baseUrl: z.string() })),
  }),
  /** Frees a job: a read's spool, or a certificate walk's rows. */
  z.object({ type: z.literal('discard'), job }),
  /**
   * The whole cached list, its rows parsed and validated with `operation`'s row schema, sent
   * back as JSON bytes (moved, not copied): `opening`, the rows' array, `,"fetchedAt":…`, then
   * `closing`, so main sends the bytes without copying them into an envelope.
   */
  z.object({
    type: z.literal('list'),
    job,
    operation: listOperation,
    profileId: z.string().min(1),
    kind: z.string().min(1),
    opening: z.string(),
    closing: z.string(),
  }),
])
export type ToListWorker = z.infer<typeof toListWorker>

/** An error as it crosses: a ServiceError's fields, or another error's code (SQLITE_FULL...). */
export const workerError = z.object({
  service: z.boolean(),
  code: z.string().nullable(),
  message: z.string(),
  status: z.number().int().optional(),
  details: z.unknown().optional(),
  operation: z.string().optional(),
})
export type WorkerError = z.infer<typeof workerError>

export const fromListWorker = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('read'),
    job,
    count: z.number().int().min(0),
    window: z.array(z.record(z.string(), z.unknown())),
    keys: z.array(z.string()),
  }),
  /**
   * A certificate page read into its walk: its rows, how many were new, its envelope's meta,
   * and its body's bytes as they arrived (what the walk's bound on bytes counts).
   */
  z.object({
    type: z.literal('page'),
    job,
    count: z.number().int().min(0),
    added: z.number().int().min(0),
    meta: z.unknown(),
    bytes: z.number().int().min(0),
    /** Rows without a usable id, not kept (rows.ts). */
    unlisted: z.number().int().min(0),
  }),
  /** JSON bytes (`certificatesJson`), their buffer moved, not copied. */
  z.object({ type: z.literal('json'), job, bytes: z.instanceof(Uint8Array) }),
  z.object({
    type: z.literal('stored'),
    job,
    count: z.number().int().min(0),
    /** The worker's thread id: the write happened off main's event loop. */
    threadId: z.number().int(),
  }),
  /** A cached list's checked rows (`list`) written as asked, their buffer moved. */
  z.object({
    type: z.literal('listJson'),
    job,
    bytes: z.instanceof(Uint8Array),
    /** Null: the list was never fetched (its rows are then written as `[]`). */
    fetchedAt: z.number().nullable(),
  }),
  /** An export file's bytes (`expiringFile`), their buffer moved, and the rows it holds. */
  z.object({
    type: z.literal('file'),
    job,
    bytes: z.instanceof(Uint8Array),
    count: z.number().int().min(0),
  }),
  /** The places asked for are kept (`rankCertificateNames`). */
  z.object({ type: z.literal('ranked'), job }),
  /** The job failed (reading or storing); the worker has already freed its spool. */
  z.object({ type: z.literal('failed'), job, error: workerError }),
])
export type FromListWorker = z.infer<typeof fromListWorker>
