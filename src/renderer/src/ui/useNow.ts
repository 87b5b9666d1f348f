import { useSyncExternalStore } from 'react'

/*
 * One shared clock for every relative time on screen: a single interval, started with the
 * first subscriber and stopped with the last, so a table of 200 rows does not run 200 timers.
 */

const TICK_MS = 30_000
const subscribers = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | null = null

function subscribe(onChange: () => void): () => void {
  subscribers.add(onChange)
  if (timer === null) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const notify of subscribers) notify()
    }, TICK_MS)
  }
  return () => {
    subscribers.delete(onChange)
    if (subscribers.size === 0 && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  }
}

/** The current time in epoch ms, refreshed every 30 s while anything on screen uses it. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now)
}
