import { Worker } from 'node:worker_threads'
import type { z } from 'zod'
import { workerEntry } from './entry'
import type { WorkerError } from './list-protocol'
import { errorOf } from './worker-errors'

/*
 * Main's end of one of the desk's worker threads (list-worker.ts, sql-worker.ts): started on the
 * first message, `unref`ed (an idle worker never keeps a script's process alive), ended with the
 * desk. Messages carry a job number; `ask` waits for a job's next answer, a `failed` answer
 * rejects it with the error rebuilt (worker-errors.ts), and one nobody was waiting for is kept
 * for `failureOf`. Every answer is checked with zod. A worker that dies fails the jobs under
 * way; the next message starts a new one.
 */

type Failed = { type: 'failed'; job: number; error: WorkerError }

export interface WorkerPort<In extends { job: number }, Out extends { type: string; job: number }> {
  send(message: In, transfer?: ArrayBuffer[]): void
  /** Sends `message` (moving `transfer`) and resolves with its job's next answer (not a failure). */
  ask(message: In, transfer?: ArrayBuffer[]): Promise<Exclude<Out, Failed>>
  /** A failure the worker reported for `job` while nobody waited; forgotten once read. */
  takeFailure(job: number): Error | undefined
  readonly running: boolean
  close(): Promise<void>
}

export function createWorkerPort<
  In extends { job: number },
  Out extends { type: string; job: number },
>(name: string, answers: z.ZodType<Out | Failed>, workerData?: unknown): WorkerPort<In, Out> {
  let worker: Worker | null = null
  type Waiter = { resolve(message: Exclude<Out, Failed>): void; reject(error: Error): void }
  const waiters = new Map<number, Waiter>()
  const failures = new Map<number, Error>()

  function failAll(error: Error) {
    for (const [job, waiter] of waiters) {
      waiters.delete(job)
      waiter.reject(error)
    }
  }

  function isFailed(message: Out | Failed): message is Failed {
    return message.type === 'failed'
  }

  function started(): Worker {
    if (worker !== null) return worker
    const entry = workerEntry(name)
    const next = new Worker(entry.url, { execArgv: entry.execArgv, workerData })
    next.unref()
    next.on('message', (raw: unknown) => {
      const parsed = answers.safeParse(raw)
      if (!parsed.success) return failAll(new Error(`the ${name} sent a malformed message`))
      const message = parsed.data
      const waiter = waiters.get(message.job)
      waiters.delete(message.job)
      if (isFailed(message)) {
        const error = errorOf(message.error)
        if (waiter === undefined) failures.set(message.job, error)
        else waiter.reject(error)
      } else {
        waiter?.resolve(message as Exclude<Out, Failed>)
      }
    })
    const gone = (error: Error) => {
      if (worker === next) worker = null
      failAll(error)
    }
    next.on('error', gone)
    next.on('exit', (code) => gone(new Error(`the ${name} stopped (exit code ${code})`)))
    worker = next
    return next
  }

  function send(message: In, transfer: ArrayBuffer[] = []) {
    started().postMessage(message, transfer)
  }

  return {
    send,
    ask(message, transfer) {
      const failed = failures.get(message.job)
      if (failed !== undefined) {
        failures.delete(message.job)
        return Promise.reject(failed)
      }
      return new Promise((resolve, reject) => {
        waiters.set(message.job, { resolve, reject })
        send(message, transfer)
      })
    },
    takeFailure(job) {
      const failed = failures.get(job)
      failures.delete(job)
      return failed
    },
    get running() {
      return worker !== null
    },
    async close() {
      const running = worker
      worker = null
      failAll(new Error('the desk closed'))
      if (running !== null) await running.terminate()
    },
  }
}
