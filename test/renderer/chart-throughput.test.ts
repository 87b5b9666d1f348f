import { describe, expect, it } from 'vitest'
import {
  addSample,
  averageRate,
  MAX_SAMPLES,
  ratesOf,
  readingTime,
  type ThroughputSample,
} from '../../src/renderer/src/features/transfers/throughput'

/*
 * A running transfer's throughput sparkline as data: samples of bytes
 * written from the progress events, rates between them, the average since the start.
 */

const MIB = 1024 * 1024

function feed(events: [at: number, bytesDone: number][]): ThroughputSample[] {
  let samples: ThroughputSample[] | undefined
  for (const [at, bytesDone] of events) samples = addSample(samples, { at, bytesDone })
  return samples ?? []
}

describe('throughput samples', () => {
  it('gives the rate between each pair of samples', () => {
    const samples = feed([
      [0, 0],
      [1_000, 2 * MIB],
      [2_000, 3 * MIB],
      [4_000, 7 * MIB],
    ])
    expect(ratesOf(samples)).toEqual([2 * MIB, 1 * MIB, 2 * MIB])
  })

  it('merges events closer than a quarter second, keeping the bytes of the latest', () => {
    // Every 100 ms, 1 MiB each: one sample every ~300 ms, the total never lost.
    const events: [number, number][] = Array.from({ length: 11 }, (_, index) => [
      index * 100,
      index * MIB,
    ])
    const samples = feed(events)
    expect(samples[0]).toEqual({ at: 0, bytesDone: 0 })
    expect(samples.at(-1)).toEqual({ at: 1_000, bytesDone: 10 * MIB })
    expect(samples.length).toBeLessThan(events.length)
    expect(samples.length).toBeGreaterThanOrEqual(4)
    for (const rate of ratesOf(samples)) expect(rate).toBeCloseTo(10 * MIB, -3)
  })

  it('keeps the most recent samples only', () => {
    const samples = feed(Array.from({ length: 200 }, (_, index) => [index * 1_000, index * MIB]))
    expect(samples).toHaveLength(MAX_SAMPLES)
    expect(samples.at(-1)?.at).toBe(199_000)
  })

  it('starts again when the transfer restarts from zero', () => {
    const samples = feed([
      [0, 0],
      [1_000, 5 * MIB],
      [2_000, 1 * MIB],
    ])
    expect(samples).toEqual([{ at: 2_000, bytesDone: 1 * MIB }])
    expect(ratesOf(samples)).toEqual([])
  })

  it('averages over the time since the start, once a second has passed', () => {
    expect(averageRate(10 * MIB, 0, 4_000)).toBe(2.5 * MIB)
    expect(averageRate(1 * MIB, 0, 500)).toBeNull()
  })

  it("reads the average at the latest progress event, not at the screen clock's last 30 s tick", () => {
    const samples: ThroughputSample[] = [
      { at: 1_000, bytesDone: 1 * MIB },
      { at: 5_000, bytesDone: 10 * MIB },
    ]
    // The shared clock last ticked when the transfer began (0): the average is still known.
    expect(averageRate(10 * MIB, 0, readingTime(samples, 0))).toBe(2 * MIB)
    expect(readingTime(samples, 9_000)).toBe(9_000)
    expect(readingTime(undefined, 3_000)).toBe(3_000)
  })
})
