import { randomUUID } from 'node:crypto'

export const MINUTE_MS = 60 * 1000
export const HOUR_MS = 60 * MINUTE_MS
export const DAY_MS = 24 * HOUR_MS

/** Seed times are relative to when the sandbox starts, so "expires in 12 days" stays true. */
export interface SeedClock {
  now: number
  /** ISO 8601 of now + offset (negative = in the past). */
  iso(offsetMs: number): string
  ms(offsetMs: number): number
  date(offsetMs: number): Date
}

export function seedClock(now: number): SeedClock {
  return {
    now,
    iso: (offsetMs) => new Date(now + offsetMs).toISOString(),
    ms: (offsetMs) => now + offsetMs,
    date: (offsetMs) => new Date(now + offsetMs),
  }
}

/** A fresh id; the seed is built once per sandbox, so ids stay the same across resets. */
export const newId = (): string => randomUUID()

/** A hex string of `length` derived from a label: stable fake commit hashes and the like. */
export function hexFrom(label: string, length: number): string {
  let hash = 0x811c9dc5
  let out = ''
  for (let round = 0; out.length < length; round += 1) {
    for (const char of `${label}#${round}`) {
      hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0
    }
    out += hash.toString(16).padStart(8, '0')
  }
  return out.slice(0, length)
}
