import { useCallback, useEffect, useState, type DependencyList } from 'react'
import type { BridgeError } from '../../../shared/bridge'
import { asBridgeError } from '../bridge'

/*
 * A screen's read through the bridge, with its failure kept for the screen to show. Every load
 * effect of the renderer goes through this one hook, so none can drop an error on the floor:
 *
 *   const history = useBridgeRead(() => bridge.call('databases.rotations', { profileId }), [profileId], [])
 *   {history.error ? <ErrorBanner error={history.error} context="Could not read …" /> : null}
 *
 * - `value` starts as `initial` and keeps the last good answer while a newer read is under
 *   way (lists do not flash empty at each keystroke); a caller that must not show another
 *   key's answer tags the value with its key.
 * - `error` is the last read's failure; a later good answer clears it.
 * - An answer that arrives after the inputs changed (or the screen went away) is dropped.
 * - `reload()` reads again with the same inputs; `setValue` lets the screen put a newer value it
 *   got otherwise (e.g. a write's answer) in place of the read one.
 */

export interface BridgeReadOptions {
  /** Read only while true (e.g. until the form holds enough to ask). */
  enabled?: boolean
  /** Waits this long after the inputs change before reading, so typing does not ask each time. */
  delayMs?: number
}

export interface BridgeReadCallbacks<T> {
  /** Also hands each live answer on (e.g. to a parent that keeps it too). */
  onValue?(value: T): void
}

export interface BridgeRead<T> {
  value: T
  error: BridgeError | null
  /** A read is under way. */
  loading: boolean
  reload(): void
  setValue(next: T | ((current: T) => T)): void
}

export function useBridgeRead<T>(
  read: () => Promise<T>,
  deps: DependencyList,
  initial: T,
  { enabled = true, delayMs = 0, onValue }: BridgeReadOptions & BridgeReadCallbacks<T> = {},
): BridgeRead<T> {
  const [value, setValue] = useState<T>(initial)
  const [error, setError] = useState<BridgeError | null>(null)
  const [loading, setLoading] = useState(false)
  const [round, setRound] = useState(0)

  useEffect(() => {
    if (!enabled) return
    let live = true
    const start = () => {
      setLoading(true)
      read().then(
        (answer) => {
          if (!live) return
          setValue(() => answer)
          setError(null)
          setLoading(false)
          onValue?.(answer)
        },
        (caught: unknown) => {
          if (!live) return
          setError(asBridgeError(caught))
          setLoading(false)
        },
      )
    }
    const timer = delayMs > 0 ? setTimeout(start, delayMs) : null
    if (timer === null) start()
    return () => {
      live = false
      if (timer !== null) clearTimeout(timer)
    }
    // `read` and `onValue` are given inline by callers: the caller's deps say when it asks
    // something else.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, enabled, delayMs, round])

  const reload = useCallback(() => setRound((current) => current + 1), [])
  return { value, error, loading, reload, setValue }
}
