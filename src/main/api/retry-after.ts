/*
 * Waiting out a service's rate limit (429) or a brief unavailability (503) on a read. The
 * service says when to come back in `Retry-After` (RFC 9110: delay-seconds or an HTTP date);
 * the client waits that long, but only within a budget, so a read never hangs for minutes
 * behind a limit: past it the call fails at once with RATE_LIMITED naming when to retry.
 * Writes are never retried (the service may have acted on a request it then refused to answer).
 */

/** At most this many waits for one call. */
export const MAX_RATE_LIMIT_WAITS = 3
/** At most this long waited in all for one call. */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000

/** Statuses whose answer asks the caller to come back later. */
export function asksToComeBack(status: number): boolean {
  return status === 429 || status === 503
}

/**
 * When `Retry-After` says to come back, or null when it is absent or unreadable. Seconds are
 * whole and non-negative; a date in the past means now.
 */
export function retryAtOf(header: string | null, now: Date): Date | null {
  if (header === null) return null
  const text = header.trim()
  if (/^\d+$/.test(text)) return new Date(now.getTime() + Number(text) * 1000)
  const date = Date.parse(text)
  if (Number.isNaN(date)) return null
  return new Date(Math.max(date, now.getTime()))
}

export interface WaitBudget {
  waits: number
  waitedMs: number
}

/**
 * How long to wait before trying again, or null when the budget does not allow it (too many
 * waits, or a wait that would pass the total). `fallbackMs` is used when the service named no
 * time (a 503 without `Retry-After` keeps the client's usual backoff).
 */
export function nextWaitMs(
  retryAt: Date | null,
  now: Date,
  budget: WaitBudget,
  fallbackMs: number,
): number | null {
  if (budget.waits >= MAX_RATE_LIMIT_WAITS) return null
  const ms = retryAt === null ? fallbackMs : Math.max(0, retryAt.getTime() - now.getTime())
  if (budget.waitedMs + ms > MAX_RATE_LIMIT_WAIT_MS) return null
  return ms
}
