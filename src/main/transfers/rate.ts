/*
 * Transfer rate over a sliding window: steady enough to read, quick to follow a change (a
 * resume after a stall). A byte count that goes down (a restart from zero) starts over.
 */

const WINDOW_MS = 3_000
/** Below this much history the rate is not worth showing. */
const MIN_SPAN_MS = 500

export interface RateMeter {
  sample(bytes: number, at?: number): void
  /** Bytes per second, or null until the window holds enough. */
  bytesPerSecond(): number | null
}

export function createRateMeter(): RateMeter {
  let samples: { at: number; bytes: number }[] = []
  return {
    sample(bytes, at = performance.now()) {
      const last = samples[samples.length - 1]
      if (last !== undefined && bytes < last.bytes) samples = []
      samples.push({ at, bytes })
      // Keep one sample older than the window so the window is always fully covered.
      while (samples.length > 2 && (samples[1]?.at ?? at) <= at - WINDOW_MS) samples.shift()
    },
    bytesPerSecond() {
      const first = samples[0]
      const last = samples[samples.length - 1]
      if (first === undefined || last === undefined) return null
      const span = last.at - first.at
      if (span < MIN_SPAN_MS) return null
      return ((last.bytes - first.bytes) * 1000) / span
    },
  }
}

/** Seconds until `total`, at `rate`; null when either is unknown or the rate is zero. */
export function secondsLeft(done: number, total: number | null, rate: number | null) {
  if (total === null || rate === null || rate <= 0) return null
  return Math.max(0, (total - done) / rate)
}
