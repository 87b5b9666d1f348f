/*
 * JSON from the service, with its numbers kept as sent. JSON.parse turns 9007199254740993 into
 * 9007199254740992 and 1e400 into Infinity (which then crosses the bridge as null): an id, a
 * counter or a byte count shown to the user would be silently wrong. Where a number cannot be
 * held exactly (an integer beyond 2^53, or one outside the double range), it is kept as the
 * string of digits the service sent; every other number stays a number.
 */

/** Runs of 16+ digits or a 3-digit exponent: the only texts where a number can lose itself. */
const MAYBE_INEXACT = /\d{16}|[eE][+-]?\d{3}/

interface ReviverContext {
  /** The number's text as it appears in the JSON (V8 11.4+, Node 21+: JSON.parse source). */
  source?: string
}

function keepInexactNumbers(_key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value
  if (!Number.isFinite(value)) return context.source
  const isIntegerLiteral = /^-?\d+$/.test(context.source)
  if (isIntegerLiteral && !Number.isSafeInteger(value)) return context.source
  return value
}

export function parseServiceJson(text: string): unknown {
  // The reviver costs a call per value, so the common case (no long numbers) skips it.
  if (!MAYBE_INEXACT.test(text)) return JSON.parse(text)
  // The third reviver argument is newer than TypeScript's lib: the cast adds it.
  return JSON.parse(text, keepInexactNumbers as Parameters<typeof JSON.parse>[1])
}
