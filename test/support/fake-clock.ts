import type { PowerSource, SchedulerClock } from '../../src/main/refresh/scheduler'

/*
 * Time for the background refresh's tests: a clock whose timers fire only when the test moves
 * time on, and power events the test raises. No real waiting anywhere.
 */

/** A clock whose timers fire only when `advance` walks past their due time, in due order. */
export function fakeClock(start = 1_700_000_000_000) {
  let now = start
  let nextId = 1
  const timers = new Map<number, { at: number; run: () => void }>()
  const clock: SchedulerClock & {
    advance(ms: number): Promise<void>
    jump(ms: number): void
    pending(): number
  } = {
    now: () => now,
    setTimeout(run, ms) {
      const id = nextId++
      timers.set(id, { at: now + Math.max(0, ms), run })
      return id
    },
    clearTimeout(handle) {
      timers.delete(handle as number)
    },
    /** Moves time forward, firing each timer due on the way at its own instant. */
    async advance(ms) {
      const end = now + ms
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, timer]) => timer.at <= end)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0]
        if (due === undefined) break
        timers.delete(due[0])
        now = Math.max(now, due[1].at)
        due[1].run()
        await flush()
      }
      now = end
      await flush()
    },
    /** A sleep: time moves on and no timer runs; those due meanwhile fire late, at the next advance. */
    jump(ms) {
      now += ms
    },
    pending: () => timers.size,
  }
  return clock
}

/** Lets settled promises' callbacks run (the scheduler reacts to a refresh's end in a then). */
export async function flush() {
  for (let i = 0; i < 5; i += 1) await Promise.resolve()
}

export function fakePower() {
  const suspend = new Set<() => void>()
  const resume = new Set<() => void>()
  const power: PowerSource & { sleep(): void; wake(): void } = {
    onSuspend(listener) {
      suspend.add(listener)
      return () => suspend.delete(listener)
    },
    onResume(listener) {
      resume.add(listener)
      return () => resume.delete(listener)
    },
    sleep: () => suspend.forEach((listener) => listener()),
    wake: () => resume.forEach((listener) => listener()),
  }
  return power
}
