import { z } from 'zod'
import { workerError } from './list-protocol'

/*
 * Messages between main and the download worker (download-worker.ts). Main says which download
 * to make and answers the worker's questions (a URL's route: proxy and its login, which only
 * main can decide, the desktop's system proxy being Electron's; a fresh signed link); the
 * worker reports progress and the end: the bytes written and their SHA-256, or the error.
 * Both directions are checked with zod.
 */

const job = z.number().int().positive()
const seq = z.number().int().positive()

const proxyAddress = z.object({
  origin: z.string(),
  host: z.string(),
  port: z.number().int(),
  credentials: z.object({ username: z.string(), password: z.string() }).nullable(),
})

/** A route as data: what NetworkRoute says, less what does not cross (TLS context, dispatcher). */
export const routeData = z.object({
  proxy: proxyAddress.nullable(),
  proxyAuthorization: z.string().nullable(),
  proxySource: z.enum(['environment', 'profile', 'system']).nullable(),
})
export type RouteData = z.infer<typeof routeData>

export const toDownloadWorker = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('start'),
    job,
    url: z.string(),
    /** The AtomicFile's descriptor, open for writing: the worker writes through its number. */
    fd: z.number().int().min(0),
    /** For error messages (a full disk, a folder that went away). */
    folder: z.string(),
    expectedSize: z.number().int().min(0).nullable(),
    headersTimeoutMs: z.number().int().min(0),
    stallTimeoutMs: z.number().int().positive().optional(),
    retryDelayMs: z.number().int().min(0).optional(),
    client: z.object({
      baseUrl: z.string(),
      token: z.string(),
      userAgent: z.string(),
      timeoutMs: z.number().int().min(0),
      trustedCas: z.array(z.string()),
    }),
  }),
  z.object({ type: z.literal('cancel'), job }),
  z.object({ type: z.literal('route'), job, seq, route: routeData }),
  z.object({ type: z.literal('renewed'), job, seq, url: z.string() }),
  z.object({ type: z.literal('refused'), job, seq, error: workerError }),
])
export type ToDownloadWorker = z.infer<typeof toDownloadWorker>

const progress = z.object({
  bytesDone: z.number().int().min(0),
  bytesTotal: z.number().int().min(0).nullable(),
  resumes: z.number().int().min(0),
  restarts: z.number().int().min(0),
})

export const fromDownloadWorker = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), job, progress }),
  z.object({ type: z.literal('route?'), job, seq, url: z.string() }),
  z.object({ type: z.literal('renew?'), job, seq }),
  z.object({
    type: z.literal('done'),
    job,
    result: progress.extend({ bytesTotal: z.number().int().min(0) }),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  z.object({ type: z.literal('failed'), job, error: workerError }),
])
export type FromDownloadWorker = z.infer<typeof fromDownloadWorker>
