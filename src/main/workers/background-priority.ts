import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

/*
 * The desk's worker threads (lists, SQL results, the file writer's hashing) run at a lower
 * scheduling priority than main, whose event loop serves the bridge. On a machine with two
 * cores, a 1 GiB export keeps the writer thread hashing while the service's bytes arrive: with
 * every thread at the same priority the kernel time-slices main's loop with them, and the bridge
 * waited its turn (bench/README.md, `stalls`). Background work should yield to the loop a user
 * is waiting on, as an OS does for a window's thread.
 *
 * Linux only: there `setpriority` on a thread id changes that thread alone (other systems have
 * no per-thread nice value: there this does nothing and says so).
 */

/**
 * Lowers the calling thread's priority (nice 10); true when it did. Self-contained (no names
 * from this module's scope), so the file writer's evaluated thread program can carry its
 * source: `(${runThisThreadInTheBackground})(require('node:fs').readlinkSync, …)`.
 */
export function runThisThreadInTheBackground(
  readLink: (path: string) => string = readlinkSync,
  setNiceness: (pid: number, priority: number) => void = setPriority,
): boolean {
  if (process.platform !== 'linux') return false
  try {
    // `/proc/thread-self` names the calling thread: `<pid>/task/<tid>`.
    const threadId = Number(readLink('/proc/thread-self').split('/').pop())
    if (!Number.isInteger(threadId) || threadId <= 0) return false
    setNiceness(threadId, 10)
    return true
  } catch {
    // Refused by a sandbox or a seccomp profile: the thread runs at main's priority, as before.
    return false
  }
}
