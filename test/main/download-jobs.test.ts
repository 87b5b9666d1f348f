import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ServiceError } from '../../src/main/api'
import { openCache } from '../../src/main/cache'
import type { Cache } from '../../src/main/cache'
import { createTransferLog } from '../../src/main/cache/transfers'
import type { TransferLog } from '../../src/main/cache/transfers'
import { createTransferJobs, PROGRESS_INTERVAL_MS } from '../../src/main/transfers/jobs'
import type { JobReporter } from '../../src/main/transfers/jobs'
import type { Transfer } from '../../src/shared/bridge'
import type { TransferProgress } from '../../src/shared/bridge/channels/volumes'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The bookkeeping around a download (src/main/transfers/jobs.ts) with a real SQLite transfers
 * log: the row's end state, the finished event, progress events throttled without losing the
 * last one, cancel by id, and a desk closing mid-transfer leaving the row `interrupted`.
 */

let temp: TempDir
let cache: Cache
let log: TransferLog

beforeAll(async () => {
  temp = await makeTempDir('infradesk-jobs')
  cache = openCache(path.join(temp.dir, 'cache.sqlite')).cache
  log = createTransferLog(cache)
})

afterAll(async () => {
  cache?.close()
  await temp?.remove()
})

function setup() {
  const progress: TransferProgress[] = []
  const finished: Transfer[] = []
  const jobs = createTransferJobs({
    transfers: log,
    emitProgress: (item) => progress.push(item),
    emitFinished: (transfer) => finished.push(transfer),
    toBridgeError: (error) =>
      error instanceof ServiceError
        ? { code: error.code, message: error.message }
        : { code: 'INTERNAL_ERROR', message: String(error) },
  })
  const start = () =>
    log.start({
      profileId: 'p1',
      profileName: 'Staging',
      kind: 'volume',
      label: 'node / vol',
      source: { nodeId: 'node', name: 'vol' },
      bytesTotal: 1000,
    })
  return { jobs, progress, finished, start }
}

/** A job that waits until aborted, reporting progress on demand. */
function waitingWork(onStart: (report: JobReporter) => void) {
  return (signal: AbortSignal, report: JobReporter) =>
    new Promise<never>((_, reject) => {
      onStart(report)
      signal.addEventListener('abort', () =>
        reject(new ServiceError('CANCELLED', 'Cancelled: no file was written')),
      )
    })
}

describe('transfer jobs', () => {
  it('logs a completed transfer with its file facts and announces it', async () => {
    const { jobs, finished, start } = setup()
    const transfer = start()
    const ended = await jobs.run(transfer, async (_signal, report) => {
      report.progress({ bytesDone: 1000, bytesTotal: 1000, resumes: 0, restarts: 0 })
      report.verifying()
      return { path: '/tmp/x/vol.tar.gz', size: 1000, sha256: 'ab'.repeat(32) }
    })
    expect(ended).toMatchObject({
      state: 'completed',
      destination: '/tmp/x/vol.tar.gz',
      bytesDone: 1000,
      sha256: 'ab'.repeat(32),
    })
    expect(log.get(transfer.id)?.state).toBe('completed')
    expect(finished.map((item) => item.id)).toEqual([transfer.id])
    expect(jobs.active()).toEqual([])
  })

  it('logs a failure with its code and message', async () => {
    const { jobs, start } = setup()
    const transfer = start()
    const ended = await jobs.run(transfer, async () => {
      throw new ServiceError('DISK_FULL', 'The disk holding /x is full')
    })
    expect(ended).toMatchObject({
      state: 'failed',
      errorCode: 'DISK_FULL',
      errorMessage: 'The disk holding /x is full',
    })
  })

  it('throttles progress events but always delivers the latest', async () => {
    const { jobs, progress, start } = setup()
    const transfer = start()
    let reporter: JobReporter | undefined
    const done = jobs.run(
      transfer,
      waitingWork((report) => {
        reporter = report
      }),
    )
    for (let bytes = 1; bytes <= 500; bytes += 1) {
      reporter?.progress({ bytesDone: bytes, bytesTotal: 1000, resumes: 0, restarts: 0 })
    }
    // 500 reports in one go: one event now, the last one after the interval.
    expect(progress.length).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, PROGRESS_INTERVAL_MS * 3))
    expect(progress.length).toBe(2)
    expect(progress.at(-1)?.bytesDone).toBe(500)
    expect(jobs.active()).toEqual([
      expect.objectContaining({ transferId: transfer.id, bytesDone: 500 }),
    ])

    expect(jobs.cancel(transfer.id)).toBe(true)
    const ended = await done
    expect(ended?.state).toBe('cancelled')
    expect(jobs.cancel(transfer.id)).toBe(false)
  })

  it('a desk closing mid-transfer leaves the row interrupted', async () => {
    const { jobs, start } = setup()
    const transfer = start()
    const done = jobs.run(
      transfer,
      waitingWork(() => undefined),
    )
    await jobs.closeAll()
    expect((await done)?.state).toBe('interrupted')
    expect(log.get(transfer.id)).toMatchObject({
      state: 'interrupted',
      errorMessage: 'Infradesk closed before the transfer finished',
    })
  })
})
