import type { SandboxState } from '../state'

/*
 * A reset restores the seed as a fresh sandbox would build it at the moment of the reset: its
 * times (built relative to the start, seed/time.ts) moved on by the time since, so "expires in
 * 7 days" is still 7 days after a reset late in a test run. Ids and certificate material stay
 * (they are the seed's for the sandbox's lifetime; a PEM's own validity is not re-signed).
 */

/** How the seed writes an instant into a string: `Date.prototype.toISOString`. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * The seed's times held as numbers (state.ts: sessions in epoch milliseconds, the inference
 * catalogue's `created` in epoch seconds); every string or Date time is found by its shape.
 */
const EPOCH_MS_FIELDS = {
  sessions: ['createdAt', 'lastSeenAt', 'expiresAt', 'mfaSatisfiedAt', 'endedAt'],
} as const satisfies Partial<Record<keyof SandboxState, readonly string[]>>
const EPOCH_SECONDS_FIELDS = {
  inferenceModels: ['created'],
} as const satisfies Partial<Record<keyof SandboxState, readonly string[]>>

/** A copy of `seed` with every time in it `shiftMs` later. */
export function rebasedSeed(seed: SandboxState, shiftMs: number): SandboxState {
  const state = shiftInstants(structuredClone(seed), shiftMs) as SandboxState
  shiftNumbers(state, EPOCH_MS_FIELDS, shiftMs)
  // A fresh seed floors its seconds (seed/people.ts): so does a shifted one.
  shiftNumbers(state, EPOCH_SECONDS_FIELDS, shiftMs / 1000, Math.floor)
  return state
}

/** Shifts ISO instants and Dates anywhere in `value` (a clone: changed in place). */
function shiftInstants(value: unknown, shiftMs: number): unknown {
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    return new Date(Date.parse(value) + shiftMs).toISOString()
  }
  if (value instanceof Date) return new Date(value.getTime() + shiftMs)
  if (Array.isArray(value)) {
    value.forEach((item, index) => (value[index] = shiftInstants(item, shiftMs)))
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) record[key] = shiftInstants(record[key], shiftMs)
  }
  return value
}

function shiftNumbers(
  state: SandboxState,
  fields: Partial<Record<keyof SandboxState, readonly string[]>>,
  by: number,
  round: (value: number) => number = (value) => value,
): void {
  for (const [collection, names] of Object.entries(fields)) {
    for (const record of state[collection as keyof SandboxState] as unknown as Record<
      string,
      unknown
    >[]) {
      for (const name of names) {
        const value = record[name]
        if (typeof value === 'number') record[name] = round(value + by)
      }
    }
  }
}
