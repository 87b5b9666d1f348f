import { Worker } from 'node:worker_threads'
import type { ClientSpec, ServiceClient } from '../api'
import type { NetworkRoute } from '../net'
import { transportError } from '../net/errors'
import { fromDownloadWorker } from '../workers/download-protocol'
import type { FromDownloadWorker, ToDownloadWorker } from '../workers/download-protocol'
import { workerEntry } from '../workers/entry'
import { liveHost, ThreadHost } from '../workers/thread-host'
import { asWorkerError, errorOf } from '../workers/worker-errors'
import type { AtomicFile } from './atomic-file'
import type { DownloadProgress, DownloadResult } from './download'

/*
 * Main's end of the download worker (workers/download-worker.ts): a download into an
 * AtomicFile, made on that thread from the first byte to the last, so main's loop never sees
 * the bytes. Main answers what only it can (each URL's route, a fresh link) and gets progress,
 * then the size and SHA-256 the thread wrote, which the AtomicFile takes for its commit.
 *
 * One worker for the process, started on the first download and not keeping the process alive
 * while idle. A worker that dies fails the downloads under way (its writes stop with it); the
 * next download starts a new one.
 */

export interface WorkerDownloadOptions {
  url: string
  /** The client whose download this is: its settings are copied to the worker, its routes asked. */
  client: ServiceClient
  file: AtomicFile
  signal: AbortSignal
  expectedSize: number | null
  headersTimeoutMs: number
  stallTimeoutMs?: number
  retryDelayMs?: number
  onProgress?(progress: DownloadProgress): void
  renewUrl?(): Promise<string>
}

export interface WorkerDownloadResult extends DownloadResult {
  sha256: string
}

interface Running {
  options: WorkerDownloadOptions
  /** The client's settings, read once: its routes are asked for each URL of the download. */
  spec: ClientSpec
  resolve(result: WorkerDownloadResult): void
  reject(error: Error): void
}

class DownloadWorker extends ThreadHost<FromDownloadWorker, Running> {
  constructor(onGone: () => void) {
    const entry = workerEntry('download-worker')
    super(
      new Worker(entry.url, { execArgv: entry.execArgv }),
      'download worker',
      fromDownloadWorker,
      onGone,
    )
  }

  start(job: number, options: WorkerDownloadOptions): Promise<WorkerDownloadResult> {
    if (this.failure !== null) return Promise.reject(this.failure)
    const spec = options.client.downloadSpec()
    return new Promise((resolve, reject) => {
      const cancel = () => this.post({ type: 'cancel', job })
      options.signal.addEventListener('abort', cancel, { once: true })
      const forget = () => options.signal.removeEventListener('abort', cancel)
      this.wait(job, {
        options,
        spec,
        resolve: (result) => (forget(), resolve(result)),
        reject: (error) => (forget(), reject(error)),
      })
      this.post({
        type: 'start',
        job,
        url: options.url,
        fd: options.file.descriptor,
        folder: options.file.folder,
        expectedSize: options.expectedSize,
        headersTimeoutMs: options.headersTimeoutMs,
        ...(options.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: options.stallTimeoutMs }),
        ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
        client: {
          baseUrl: spec.baseUrl,
          token: spec.token,
          userAgent: spec.userAgent,
          timeoutMs: spec.timeoutMs,
          trustedCas: [...spec.network.trustedCas],
        },
      })
      if (options.signal.aborted) cancel()
    })
  }

  private post(message: ToDownloadWorker) {
    this.worker.postMessage(message)
  }

  protected receive(message: FromDownloadWorker): void {
    const job = this.waiters.get(message.job)
    if (job === undefined) return
    const { options, spec } = job
    switch (message.type) {
      case 'progress':
        options.onProgress?.(message.progress)
        return
      case 'route?':
        void this.answer(message.job, message.seq, async () => {
          const url = new URL(message.url)
          // A setting that cannot be used (a SOCKS proxy, say) is said as fetchRaw says it on
          // main: the error's class does not cross the thread, its ServiceError does.
          let route: NetworkRoute
          try {
            route = await spec.network.route(url)
          } catch (error) {
            throw await transportError(error, url, null, {})
          }
          return {
            type: 'route',
            route: {
              proxy: route.proxy,
              proxyAuthorization: route.proxyAuthorization,
              proxySource: route.proxySource,
            },
          }
        })
        return
      case 'renew?':
        void this.answer(message.job, message.seq, async () => {
          if (options.renewUrl === undefined) throw new Error('this download has no fresh link')
          return { type: 'renewed', url: await options.renewUrl() }
        })
        return
      case 'done':
        this.settle(message.job)
        // The last report may have been skipped by the worker's throttle: the end is always told.
        options.onProgress?.(message.result)
        job.resolve({ ...message.result, sha256: message.sha256 })
        return
      case 'failed':
        this.settle(message.job)
        job.reject(errorOf(message.error))
        return
    }
  }

  /** Answers the worker's question `seq`, or tells it why not. */
  private async answer(
    job: number,
    seq: number,
    work: () => Promise<
      | { type: 'route'; route: Extract<ToDownloadWorker, { type: 'route' }>['route'] }
      | { type: 'renewed'; url: string }
    >,
  ) {
    try {
      this.post({ ...(await work()), job, seq })
    } catch (error) {
      this.post({ type: 'refused', job, seq, error: asWorkerError(error) })
    }
  }
}

const currentWorker = liveHost((onGone) => new DownloadWorker(onGone))
let lastJob = 0

/**
 * Downloads `options.url` into `options.file` on the download worker (resumes, restarts and
 * renewed links as downloadToFile does); resolves with what was written, hash included.
 */
export function downloadInWorker(options: WorkerDownloadOptions): Promise<WorkerDownloadResult> {
  lastJob += 1
  return currentWorker().start(lastJob, options)
}
