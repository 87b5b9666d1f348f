import type { BridgeError, Transfer } from '../../shared/bridge'
import type { TransferProgress } from '../../shared/bridge/channels/volumes'
import { APP_ERROR_CODES } from '../../shared/bridge'
import type { TransferLog } from '../cache/transfers'
import type { CommittedFile } from './atomic-file'
import { createRateMeter, secondsLeft } from './rate'

/*
 * The transfers running in this process: each has an id (its row in the transfers log), an
 * AbortController, and progress pushed as throttled events. The job's work does the bytes; this
 * module does the bookkeeping around it: the log row's end state, the `transfers.finished`
 * event, cancel by id, and stopping everything when the desk closes.
 */

/** Progress events at most this often (the last one is never dropped, only delayed). */
export const PROGRESS_INTERVAL_MS = 100
/** The log row's byte count is saved this often: it only matters to a run that died. */
const LOG_PROGRESS_INTERVAL_MS = 2_000

export interface JobProgress {
  bytesDone: number
  bytesTotal: number | null
  resumes: number
  restarts: number
}

export interface JobReporter {
  progress(progress: JobProgress): void
  /** The bytes are all there; fsync, checks and rename follow. */
  verifying(): void
}

export interface JobDeps {
  transfers: TransferLog
  emitProgress(progress: TransferProgress): void
  emitFinished(transfer: Transfer): void
  /** The bridge form of an error, with every known token cut out. */
  toBridgeError(error: unknown): BridgeError
}

export interface TransferJobs {
  /** Runs `work` for a transfer already logged as running; settles the row when it ends. */
  run(
    transfer: Transfer,
    work: (signal: AbortSignal, report: JobReporter) => Promise<CommittedFile>,
  ): Promise<Transfer | undefined>
  cancel(transferId: string): boolean
  active(): TransferProgress[]
  /** Stops every transfer (they end `interrupted`) and waits for their files to be removed. */
  closeAll(): Promise<void>
}

interface RunningJob {
  controller: AbortController
  latest: TransferProgress
  done: Promise<Transfer | undefined>
}

export function createTransferJobs(deps: JobDeps): TransferJobs {
  const running = new Map<string, RunningJob>()
  let closing = false

  function run(
    transfer: Transfer,
    work: (signal: AbortSignal, report: JobReporter) => Promise<CommittedFile>,
  ): Promise<Transfer | undefined> {
    const controller = new AbortController()
    const meter = createRateMeter()
    let lastEmit = 0
    let lastLogged = 0
    let trailing: ReturnType<typeof setTimeout> | undefined
    const job: RunningJob = {
      controller,
      latest: {
        transferId: transfer.id,
        bytesDone: 0,
        bytesTotal: transfer.bytesTotal,
        bytesPerSecond: null,
        secondsLeft: null,
        resumes: 0,
        restarts: 0,
        phase: 'downloading',
      },
      done: Promise.resolve(undefined),
    }

    const emit = () => {
      clearTimeout(trailing)
      trailing = undefined
      lastEmit = performance.now()
      deps.emitProgress(job.latest)
    }
    const reporter: JobReporter = {
      progress(progress) {
        const now = performance.now()
        meter.sample(progress.bytesDone, now)
        const rate = meter.bytesPerSecond()
        job.latest = {
          ...job.latest,
          ...progress,
          bytesPerSecond: rate,
          secondsLeft: secondsLeft(progress.bytesDone, progress.bytesTotal, rate),
        }
        if (now - lastLogged >= LOG_PROGRESS_INTERVAL_MS) {
          lastLogged = now
          deps.transfers.progress(transfer.id, progress.bytesDone, progress.bytesTotal)
        }
        if (now - lastEmit >= PROGRESS_INTERVAL_MS) emit()
        else trailing ??= setTimeout(emit, PROGRESS_INTERVAL_MS - (now - lastEmit))
      },
      verifying() {
        job.latest = { ...job.latest, phase: 'verifying', secondsLeft: null }
        emit()
      },
    }

    job.done = (async () => {
      let ended: Transfer | undefined
      try {
        const file = await work(controller.signal, reporter)
        ended = deps.transfers.finish(transfer.id, {
          state: 'completed',
          destination: file.path,
          bytesDone: file.size,
          sha256: file.sha256,
        })
      } catch (error) {
        const bridgeError = deps.toBridgeError(error)
        const cancelled =
          controller.signal.aborted || bridgeError.code === APP_ERROR_CODES.CANCELLED
        ended = deps.transfers.finish(transfer.id, {
          state: cancelled ? (closing ? 'interrupted' : 'cancelled') : 'failed',
          errorCode: bridgeError.code,
          errorMessage: closing
            ? 'Infradesk closed before the transfer finished'
            : bridgeError.message,
        })
      } finally {
        clearTimeout(trailing)
        running.delete(transfer.id)
      }
      if (ended !== undefined) deps.emitFinished(ended)
      return ended
    })()
    running.set(transfer.id, job)
    return job.done
  }

  return {
    run,
    cancel(transferId) {
      const job = running.get(transferId)
      if (job === undefined || job.controller.signal.aborted) return false
      job.controller.abort()
      return true
    },
    active: () => [...running.values()].map((job) => job.latest),
    async closeAll() {
      closing = true
      const jobs = [...running.values()]
      for (const job of jobs) job.controller.abort()
      await Promise.all(jobs.map((job) => job.done.catch(() => undefined)))
    },
  }
}
