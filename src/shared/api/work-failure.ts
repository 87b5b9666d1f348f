/*
 * A 2xx answer that says the work failed. Ops 8 and 14 of a real deployment answer 200 with the
 * resource as it now is; when the work did not succeed the resource says so itself: a managed
 * database whose rotation failed is `status: "error"` (its status set: creating, updating,
 * ready, paused, stopped, error, deleting), an additional route whose retry failed again is
 * `status: "failed"` (staging, provisioning, ready, disabled, failed, cleanup_pending), each with
 * `lastError` saying why. Every caller (the screens, the activity log, the CLI's exit code)
 * reads this one rule: main's recordedCall turns such an answer into a WORK_FAILED error.
 */

/** The statuses of an answer's `data` that mean the work it reports failed. */
export const FAILED_WORK_STATUSES: ReadonlySet<string> = new Set(['error', 'failed'])

/** The error code of a 2xx answer that reports failed work (an app code: the service sent 2xx). */
export const WORK_FAILED = 'WORK_FAILED'

/** What a failed-work answer said: its status, its reason (when given) and its `data`, whole. */
export interface WorkFailure {
  status: string
  lastError: string | null
  data: Record<string, unknown>
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The failure a 2xx answer reports in `data.status`, or null when it reports none. */
export function reportedWorkFailure(answer: unknown): WorkFailure | null {
  if (!isRecord(answer)) return null
  const data = answer['data']
  if (!isRecord(data)) return null
  const status = data['status']
  if (typeof status !== 'string' || !FAILED_WORK_STATUSES.has(status.trim().toLowerCase())) {
    return null
  }
  const reason = data['lastError']
  const lastError = typeof reason === 'string' && reason.trim() !== '' ? reason : null
  return { status, lastError, data }
}

/** One line for the activity log, the error banner and the CLI's standard error. */
export function describeWorkFailure(failure: WorkFailure): string {
  const reason = failure.lastError ?? 'the service gave no reason (no lastError)'
  return `The service answered, but reports the work ${failure.status}: ${reason}`
}

/** A WORK_FAILED error's details, read back (the renderer gets them across the bridge). */
export function workFailureOf(details: unknown): WorkFailure | null {
  return reportedWorkFailure(isRecord(details) ? { data: details['data'] } : null)
}
