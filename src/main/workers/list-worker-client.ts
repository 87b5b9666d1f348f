import type { ListOperationName } from '../../shared/api'
import type { CertificateFilter, ListCompleteness } from '../../shared/bridge'
import type { PageSummary } from '../features/certificates/paging'
import { ServiceError } from '../api/errors'
import { SinkFailure } from '../api/list-answer'
import type { ForwardingSink } from '../api/list-answer'
import { fromListWorker } from './list-protocol'
import type { FromListWorker, ToListWorker } from './list-protocol'
import { createWorkerPort } from './worker-port'

/*
 * Main's side of the list worker (list-worker.ts): main's event loop only forwards a big list
 * answer's chunks and gets small messages back, so a 10 MB list neither stalls the bridge
 * while it is parsed nor while it is written to the cache. One worker per desk, started on the
 * first big list and ended with the desk (worker-port.ts).
 */

/** What a read gathered, beside its row count: the first window and the rows' field names. */
export interface ListReadAnswer {
  count: number
  window: Record<string, unknown>[]
  keys: string[]
}

export interface ListRead {
  /** For `client.callRows`: the body goes to the worker as it arrives. */
  readonly sink: ForwardingSink
  /** The answer of the last attempt that ended well (after `sink.end` resolved). */
  answer(): ListReadAnswer
  /** Writes the rows read over the cached list, in the worker; resolves with the row count. */
  store(
    profileId: string,
    kind: string,
    fetchedAt: number,
  ): Promise<{ count: number; threadId: number }>
  /** Frees the rows read (nothing is stored). */
  discard(): void
}

export interface ListWorker {
  read(operation: ListOperationName, options: ListReadOptions): ListRead
  /**
   * The whole cached list of `kind`, its rows checked with `operation`'s row schema in the
   * worker, written as `opening` + the rows' JSON array + `,"fetchedAt":…` + `closing`;
   * `fetchedAt` null when never fetched (the rows then `[]`).
   */
  cachedListJson(
    operation: ListOperationName,
    profileId: string,
    kind: string,
    frame: { opening: string; closing: string },
  ): Promise<{ json: Buffer; fetchedAt: number | null }>
  /** Reads a certificate refresh's pages into the worker (see CertificateWalk). */
  certificateWalk(): CertificateWalk
  /** The cached certificate rows `filter` selects as a JSON array, read in the worker. */
  certificatesJson(profileId: string, filter: CertificateFilter): Promise<Buffer>
  /**
   * Works out the profile's certificates' places in the default order as `locale` sorts it,
   * in the worker (~45 ms for 10,000), so main reads a first screenful by index.
   */
  rankCertificateNames(profileId: string, locale: string): Promise<void>
  /** The Expiring list's export file, read and written in the worker, and its row count. */
  expiringFile(request: ExpiringFileRequest): Promise<{ bytes: Buffer; count: number }>
  close(): Promise<void>
}

/** One certificate refresh's pages, read and kept in the worker until `store` writes them. */
export interface CertificateWalk {
  /** A sink for one page of op 16 (`client.callRows`), and what the page brought once read. */
  page(): { sink: ForwardingSink; summary(): PageSummary }
  /** Replaces the cached rows `filter` selects with the walk's certificates, in the worker. */
  store(
    profileId: string,
    filter: CertificateFilter,
    fetchedAt: number,
    completeness: ListCompleteness | null,
  ): Promise<{ count: number; threadId: number }>
  /** Frees the walk's certificates (nothing is stored). */
  discard(): void
}

/** A page's envelope `meta` when it is an object (the walk reads its numbers leniently). */
function pageMetaOf(meta: unknown): PageSummary['meta'] {
  return meta !== null && typeof meta === 'object' ? (meta as PageSummary['meta']) : undefined
}

export type ExpiringFileRequest = Omit<
  Extract<ToListWorker, { type: 'expiringFile' }>,
  'type' | 'job'
>

export interface ListReadOptions {
  window: { offset: number; limit: number }
  collectKeys: boolean
}

export function createListWorker(cacheFile: string): ListWorker {
  const port = createWorkerPort<ToListWorker, FromListWorker>('list-worker', fromListWorker, {
    cacheFile,
  })
  let lastJob = 0

  /** The job's next answer, of the type expected. */
  async function ask<T extends FromListWorker['type']>(
    message: ToListWorker,
    type: T,
  ): Promise<Extract<FromListWorker, { type: T }>> {
    const answer = await port.ask(message)
    if (answer.type !== type)
      throw new Error(`the list worker answered ${answer.type}, not ${type}`)
    return answer as Extract<FromListWorker, { type: T }>
  }

  /**
   * A sink for `client.callRows` that moves the body's chunks to the worker as they arrive;
   * `finish` asks the worker for the job's answer once the body has ended.
   */
  function forwardingSink(
    job: number,
    begin: Extract<ToListWorker, { type: 'begin' }>,
    finish: (answer: { status: number; contentType: string | null }) => Promise<number>,
  ): ForwardingSink {
    return {
      forwards: true,
      begin() {
        port.takeFailure(job)
        port.send(begin)
      },
      chunk(bytes) {
        // The worker refused the answer already: the rest of the body is not wanted.
        const failed = port.takeFailure(job)
        if (failed !== undefined) {
          throw failed instanceof ServiceError ? failed : new SinkFailure(failed)
        }
        // A copy of its own, moved (not cloned) to the worker: fetch's chunk may be a view.
        const copy = new Uint8Array(bytes)
        port.send({ type: 'chunk', job, bytes: copy }, [copy.buffer])
      },
      async end(answer) {
        try {
          return await finish(answer)
        } catch (error) {
          // A contract failure is the service's answer; anything else is ours, passed on as is.
          throw error instanceof ServiceError ? error : new SinkFailure(error)
        }
      },
    }
  }

  /**
   * A forwarding sink whose end asks the worker for the job's answer (`finish`), kept for
   * `answer()`: asked before the body has ended, it throws (`what` names the job).
   */
  function answeringSink<A>(
    job: number,
    begin: Extract<ToListWorker, { type: 'begin' }>,
    finish: (ended: { status: number; contentType: string | null }) => Promise<{
      count: number
      answer: A
    }>,
    what: string,
  ): { sink: ForwardingSink; answer(): A } {
    let kept: { answer: A } | null = null
    const sink = forwardingSink(job, begin, async (ended) => {
      const { count, answer } = await finish(ended)
      kept = { answer }
      return count
    })
    const answer = (): A => {
      if (kept === null) throw new Error(`${what} has no answer yet`)
      return kept.answer
    }
    return { sink, answer }
  }

  return {
    certificateWalk() {
      lastJob += 1
      const walk = lastJob
      return {
        page() {
          lastJob += 1
          const job = lastJob
          const { sink, answer } = answeringSink(
            job,
            {
              type: 'begin',
              job,
              operation: 'listCertificates',
              window: { offset: 0, limit: 0 },
              collectKeys: false,
              certificates: walk,
            },
            async ({ status, contentType }) => {
              const page = await ask({ type: 'end', job, status, contentType }, 'page')
              const summary: PageSummary = {
                rows: page.count,
                added: page.added,
                meta: pageMetaOf(page.meta),
                bytes: page.bytes,
                unlisted: page.unlisted,
              }
              return { count: page.count, answer: summary }
            },
            `certificate page ${job}`,
          )
          return { sink, summary: answer }
        },
        async store(profileId, filter, fetchedAt, completeness) {
          const stored = await ask(
            { type: 'storeCertificates', job: walk, profileId, filter, fetchedAt, completeness },
            'stored',
          )
          return { count: stored.count, threadId: stored.threadId }
        },
        discard() {
          port.takeFailure(walk)
          if (port.running) port.send({ type: 'discard', job: walk })
        },
      }
    },

    async rankCertificateNames(profileId, locale) {
      lastJob += 1
      await ask({ type: 'rankCertificateNames', job: lastJob, profileId, locale }, 'ranked')
    },

    async certificatesJson(profileId, filter) {
      lastJob += 1
      const job = lastJob
      const answer = await ask({ type: 'certificatesJson', job, profileId, filter }, 'json')
      return Buffer.from(answer.bytes.buffer, answer.bytes.byteOffset, answer.bytes.byteLength)
    },

    async expiringFile(request) {
      lastJob += 1
      const answer = await ask({ type: 'expiringFile', job: lastJob, ...request }, 'file')
      const { bytes } = answer
      return {
        bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        count: answer.count,
      }
    },

    read(operation, options) {
      lastJob += 1
      const job = lastJob
      const { sink, answer } = answeringSink(
        job,
        { type: 'begin', job, operation, ...options },
        async ({ status, contentType }) => {
          const read = await ask({ type: 'end', job, status, contentType }, 'read')
          const kept: ListReadAnswer = { count: read.count, window: read.window, keys: read.keys }
          return { count: read.count, answer: kept }
        },
        `list job ${job}`,
      )
      return {
        sink,
        answer,
        async store(profileId, kind, fetchedAt) {
          const stored = await ask({ type: 'store', job, profileId, kind, fetchedAt }, 'stored')
          return { count: stored.count, threadId: stored.threadId }
        },
        discard() {
          port.takeFailure(job)
          if (port.running) port.send({ type: 'discard', job })
        },
      }
    },

    async cachedListJson(operation, profileId, kind, frame) {
      lastJob += 1
      const job = lastJob
      const answer = await ask(
        { type: 'list', job, operation, profileId, kind, ...frame },
        'listJson',
      )
      const { bytes } = answer
      return {
        json: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        fetchedAt: answer.fetchedAt,
      }
    },

    close: () => port.close(),
  }
}
