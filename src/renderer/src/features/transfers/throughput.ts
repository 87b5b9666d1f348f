/*
 * A running transfer's throughput over time, from the progress events main already sends:
 * each event is a sample of bytes written so far; the rate between two
 * samples is drawn as a sparkline beside the current rate (main's, over its last seconds) and the
 * average since the start. Pure, so its arithmetic is tested without a page.
 */

export interface ThroughputSample {
  /** When the event arrived (epoch ms, the page's clock). */
  at: number
  bytesDone: number
}

/** Samples kept per transfer: the sparkline shows the most recent ones. */
export const MAX_SAMPLES = 60
/** Events closer together than this are merged, so a burst does not crowd the picture. */
const MIN_SPACING_MS = 250

/** `samples` with `next` added (a new array), the oldest dropped past MAX_SAMPLES. */
export function addSample(
  samples: readonly ThroughputSample[] | undefined,
  next: ThroughputSample,
): ThroughputSample[] {
  const kept = samples ?? []
  const last = kept.at(-1)
  // A restart from zero (a server that ignored Range) begins a new history.
  if (last !== undefined && next.bytesDone < last.bytesDone) return [next]
  // Closer than MIN_SPACING_MS to the sample before the last: the last moves to `next`.
  const beforeLast = kept.at(-2)
  if (beforeLast !== undefined && next.at - beforeLast.at < MIN_SPACING_MS) {
    return [...kept.slice(0, -1), next]
  }
  const added = [...kept, next]
  return added.length > MAX_SAMPLES ? added.slice(added.length - MAX_SAMPLES) : added
}

/** Bytes per second between each pair of samples (one fewer than the samples). */
export function ratesOf(samples: readonly ThroughputSample[]): number[] {
  const rates: number[] = []
  for (let index = 1; index < samples.length; index += 1) {
    const before = samples[index - 1] as ThroughputSample
    const after = samples[index] as ThroughputSample
    const seconds = (after.at - before.at) / 1000
    if (seconds <= 0) continue
    rates.push(Math.max(0, after.bytesDone - before.bytesDone) / seconds)
  }
  return rates
}

/** Bytes per second since the transfer started; null before a second has passed. */
export function averageRate(bytesDone: number, startedAt: number, now: number): number | null {
  const seconds = (now - startedAt) / 1000
  return seconds < 1 ? null : bytesDone / seconds
}

/**
 * When the figures were last true: the latest progress event, or `now` if that is later. The
 * screen's shared clock ticks every 30 s, so by itself it would leave the average unknown for a
 * transfer's first half minute.
 */
export function readingTime(samples: readonly ThroughputSample[] | undefined, now: number): number {
  const last = samples?.at(-1)
  return last === undefined ? now : Math.max(now, last.at)
}
