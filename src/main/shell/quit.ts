/*
 * Quitting in bounded time. Closing the desk (SQLite, the embedded sandbox, the connection pools)
 * normally takes milliseconds, but a pool waits for the requests in flight, and a download from a
 * server that stopped answering would hold the quit until its timeout: the window is gone, the
 * process stays, and a relaunch meanwhile reaches a process that can show nothing. After
 * QUIT_LIMIT_MS the app leaves anyway: SQLite's journal keeps the cache consistent, and an
 * unfinished transfer's temp file is what a cancelled one leaves (resumed or removed next time).
 * Plain Node, so it is tested without Electron.
 */

/** How long quitting waits for the desk to close before the process leaves anyway. */
export const QUIT_LIMIT_MS = 5_000

export type CloseOutcome = 'closed' | 'failed' | 'timed-out'

/** Runs `close`, and settles when it does or when `limitMs` has passed, whichever is first. */
export async function closeWithin(
  close: () => Promise<void>,
  limitMs: number = QUIT_LIMIT_MS,
): Promise<CloseOutcome> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<CloseOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), limitMs)
  })
  const closing = close().then(
    (): CloseOutcome => 'closed',
    (): CloseOutcome => 'failed',
  )
  try {
    return await Promise.race([closing, limit])
  } finally {
    clearTimeout(timer)
  }
}
