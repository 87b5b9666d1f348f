/*
 * Polling with a deadline. A test that waits for something must end, and when the thing never
 * happens it must fail saying what it waited for, not hang until vitest's timeout kills the
 * whole file with no word about where.
 */

export interface PollOptions {
  /** What is awaited, for the failure message: "the run to be in flight". */
  what: string
  /** How long to keep trying; the default fits a busy 2-core machine. */
  timeoutMs?: number
  /** The pause between tries. */
  intervalMs?: number
}

/** Resolves once `condition` holds; rejects naming `what` after `timeoutMs`. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  { what, timeoutMs = 10_000, intervalMs = 10 }: PollOptions,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await condition()) return
    if (Date.now() >= deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
