/*
 * Waiting for a value that an event delivers later (a transfer's end, say): the polling and
 * deadline of `waitUntil`, returning what was found instead of a bare "it held".
 */
import { waitUntil } from './poll'

/** Resolves with `read()`'s first defined value; rejects naming `what` after `timeoutMs`. */
export async function waitForValue<T>(
  read: () => T | undefined,
  { what, timeoutMs = 60_000 }: { what: string; timeoutMs?: number },
): Promise<T> {
  let found: T | undefined
  await waitUntil(
    () => {
      found = read()
      return found !== undefined
    },
    { what, timeoutMs, intervalMs: 50 },
  )
  return found as T // defined: waitUntil returned only once read() gave a value
}
