import { createHash } from 'node:crypto'
import type { Hash } from 'node:crypto'
import { fdatasync, ftruncateSync, writeSync } from 'node:fs'
import { parentPort } from 'node:worker_threads'
import type { Dispatcher } from 'undici'
import { createServiceClient } from '../api/client'
import type { ClientNetwork, NetworkRoute } from '../net'
import { loadUndici } from '../net/undici'
import { secureContextFor } from '../net/trust'
import { fileSystemError } from '../transfers/atomic-file'
import { downloadToFile } from '../transfers/download'
import type { DownloadFile, DownloadProgress } from '../transfers/download'
import { WriteBack } from '../transfers/write-back'
import { toDownloadWorker } from './download-protocol'
import type { FromDownloadWorker, RouteData, ToDownloadWorker } from './download-protocol'
import { asWorkerError, errorOf } from './worker-errors'

/*
 * The download worker (docs/ARCHITECTURE-NOTES.md, "Off main's loop: worker threads"): a volume
 * archive's whole download, on this thread. The connection, the HTTP parsing, the SHA-256 and
 * the writes all happen here, one read after another, as curl does: each read is hashed and
 * written before the next. On two cores shared with the server, handing every read from main
 * to a writer thread made the client drain the socket unevenly, and the server's TCP (bbr,
 * which paces by timer) slowed down for it: 0.74 of curl where one thread doing all of it made
 * 1.0 (bench/results/HISTORY.md, export). Main's loop sees none of the bytes.
 *
 * The download engine is the same code main ran (transfers/download.ts: resumes, restarts,
 * stalls, signed links renewed) with a client made like main's (api/client.ts: the token only to
 * the profile's origin, redirects, the headers timeout). What only main knows it is asked: each
 * URL's route (the proxy: the desktop's system proxy is Electron's) and a fresh link. The file
 * is main's AtomicFile: this thread writes through its descriptor's number, and main fsyncs,
 * checks and names it once this thread has said it is done.
 *
 * At main's priority, unlike the list and SQL workers (background-priority.ts): this thread is
 * the download the user waits for, paced by the network, and at nice 10 it lost its core to
 * any busy process beside it (a proxy on the same machine: 0.80 of the direct download where
 * curl through it made 0.85-0.98). Main's loop still gets the core when it wakes: it sleeps
 * far more than it runs, and the scheduler favours such a thread (`npm run bench -- stalls`).
 */

const port = parentPort
if (port === null) throw new Error('download-worker.ts runs as a worker thread only')

function send(message: FromDownloadWorker) {
  port?.postMessage(message)
}

type StartMessage = Extract<ToDownloadWorker, { type: 'start' }>

interface Job {
  controller: AbortController
  /** Questions asked of main, by their number. */
  asked: Map<number, { resolve(answer: unknown): void; reject(error: Error): void }>
}

const jobs = new Map<number, Job>()
let lastSeq = 0
/**
 * Progress is sent every PROGRESS_EVERY_BYTES or PROGRESS_EVERY_MS, whichever comes first: a
 * thousand messages a GiB at most (main throttles what reaches the window), and a cancel made
 * from a progress report still lands midway through a small file.
 */
const PROGRESS_EVERY_MS = 100
const PROGRESS_EVERY_BYTES = 1024 * 1024

/** Asks main something about `job`; resolves with main's answer. */
function ask<T>(job: number, question: { type: 'route?'; url: string } | { type: 'renew?' }) {
  const state = jobs.get(job)
  if (state === undefined) return Promise.reject(new Error('no such download'))
  lastSeq += 1
  const seq = lastSeq
  return new Promise<T>((resolve, reject) => {
    state.asked.set(seq, { resolve: (answer) => resolve(answer as T), reject })
    send({ ...question, job, seq })
  })
}

let dispatcher: Promise<Dispatcher> | null = null
/** A route's fetch transport: the client needs one, though downloads use raw-http.ts only. */
function sharedDispatcher(): Promise<Dispatcher> {
  dispatcher ??= loadUndici().then(({ Agent }) => new Agent())
  return dispatcher
}

/** Routes decided by main (proxy, login), with the profile's trust built here. */
function networkOf(job: number, trustedCas: readonly string[]): ClientNetwork {
  const trust = secureContextFor(trustedCas)
  return {
    trustedCas,
    async route(url): Promise<NetworkRoute> {
      const data = await ask<RouteData>(job, { type: 'route?', url: url.href })
      return { ...data, secureContext: trust.context, dispatcher: await sharedDispatcher() }
    },
  }
}

/**
 * The AtomicFile's bytes, written here: each chunk at the next position and into the SHA-256
 * before the next read. As AtomicFile does, a background fdatasync now and then (write-back.ts)
 * starts the disk's write-back while the download still arrives, so main's fsync at the end is
 * short.
 */
class WorkerFile implements DownloadFile {
  size = 0
  private hash: Hash = createHash('sha256')
  private readonly writeBack: WriteBack

  constructor(
    private readonly fd: number,
    private readonly folder: string,
  ) {
    this.writeBack = new WriteBack(
      () =>
        new Promise<void>((resolve, reject) =>
          fdatasync(fd, (error) => (error ? reject(error) : resolve())),
        ),
    )
  }

  async write(bytes: Uint8Array): Promise<void> {
    try {
      let done = 0
      while (done < bytes.length) {
        done += writeSync(this.fd, bytes, done, bytes.length - done, this.size + done)
      }
    } catch (error) {
      throw fileSystemError(error, this.folder)
    }
    this.hash.update(bytes)
    this.size += bytes.length
    this.writeBack.wrote(this.size)
  }

  async restart(): Promise<void> {
    await this.settled()
    try {
      ftruncateSync(this.fd, 0)
    } catch (error) {
      throw fileSystemError(error, this.folder)
    }
    this.hash = createHash('sha256')
    this.size = 0
    this.writeBack.restarted()
  }

  /** After the background flush: main may close the descriptor once this thread is done. */
  async settled(): Promise<void> {
    await this.writeBack.settled()
  }

  digest(): string {
    return this.hash.digest('hex')
  }
}

async function run(message: StartMessage, job: Job): Promise<void> {
  const { client: spec } = message
  const client = createServiceClient({
    baseUrl: spec.baseUrl,
    token: spec.token,
    userAgent: spec.userAgent,
    timeoutMs: spec.timeoutMs,
    network: networkOf(message.job, spec.trustedCas),
  })
  const file = new WorkerFile(message.fd, message.folder)

  /** The last report sent, and when. */
  let last: DownloadProgress | null = null
  let lastAt = 0
  const progress = (state: DownloadProgress) => {
    const now = performance.now()
    const due =
      last === null ||
      now - lastAt >= PROGRESS_EVERY_MS ||
      Math.abs(state.bytesDone - last.bytesDone) >= PROGRESS_EVERY_BYTES ||
      state.resumes !== last.resumes ||
      state.restarts !== last.restarts ||
      state.bytesTotal !== last.bytesTotal
    if (!due) return
    last = state
    lastAt = now
    send({ type: 'progress', job: message.job, progress: state })
  }
  try {
    const result = await downloadToFile({
      url: message.url,
      fetch: (url, request) =>
        client.fetchRaw(url, {
          ...request,
          authenticated: true,
          headersTimeoutMs: message.headersTimeoutMs,
        }),
      file,
      signal: job.controller.signal,
      expectedSize: message.expectedSize,
      ...(message.stallTimeoutMs === undefined ? {} : { stallTimeoutMs: message.stallTimeoutMs }),
      ...(message.retryDelayMs === undefined ? {} : { retryDelayMs: message.retryDelayMs }),
      onProgress: progress,
      renewUrl: () => ask<string>(message.job, { type: 'renew?' }),
    })
    await file.settled()
    send({ type: 'done', job: message.job, result, sha256: file.digest() })
  } catch (error) {
    await file.settled()
    send({ type: 'failed', job: message.job, error: asWorkerError(error) })
  }
}

port.on('message', (raw: unknown) => {
  const parsed = toDownloadWorker.safeParse(raw)
  // Main's own messages: a malformed one is a bug of ours, with no job to tell.
  if (!parsed.success) throw new Error('the download worker got a malformed message')
  const message = parsed.data
  if (message.type === 'start') {
    const job: Job = { controller: new AbortController(), asked: new Map() }
    jobs.set(message.job, job)
    void run(message, job).finally(() => jobs.delete(message.job))
    return
  }
  const job = jobs.get(message.job)
  if (job === undefined) return
  if (message.type === 'cancel') {
    job.controller.abort()
    return
  }
  const waiter = job.asked.get(message.seq)
  if (waiter === undefined) return
  job.asked.delete(message.seq)
  if (message.type === 'route') waiter.resolve(message.route)
  else if (message.type === 'renewed') waiter.resolve(message.url)
  else waiter.reject(errorOf(message.error))
})
