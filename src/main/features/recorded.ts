import type { OperationName, ResponseOf } from '../../shared/api'
import { describeWorkFailure, reportedWorkFailure, WORK_FAILED } from '../../shared/api'
import type { CallInput } from '../api'
import { ServiceError } from '../api'
import type { DeskContext } from './context'
import { recordActivity, requireProfile, withProfileClient } from './context'

/** What a recorded write sends, and how its activity-log line reads. */
export interface RecordedWrite<N extends OperationName> {
  input: CallInput
  /**
   * The id the line names; a function when only the answer tells it (an upload's new id), in
   * which case a failure names none.
   */
  target: string | null | ((answer: ResponseOf<N>) => string | null)
  /** The answer as the line's message (the outcome in words); none when left out. */
  describe?: (answer: ResponseOf<N>) => string | null
}

/**
 * Calls one operation that changes something and writes its line in the activity log, success
 * or failure. Every write a feature makes goes through here, so none is left out of the log.
 * A 2xx answer whose `data` reports the work failed (shared/api/work-failure.ts) is a failure
 * here too: logged as one and thrown as WORK_FAILED, the answer's `data` kept in its details.
 */
export async function recordedCall<N extends OperationName>(
  context: DeskContext,
  profileId: string,
  operation: N,
  { input, target, describe = () => null }: RecordedWrite<N>,
): Promise<ResponseOf<N>> {
  const profile = requireProfile(context, profileId)
  let answer: ResponseOf<N>
  try {
    answer = await withProfileClient(context, profileId, (client) => client.call(operation, input))
  } catch (error) {
    recordActivity(context, profile, operation, typeof target === 'function' ? null : target, {
      error,
    })
    throw error
  }
  const failure = reportedWorkFailure(answer)
  if (failure !== null) {
    const error = new ServiceError(WORK_FAILED, describeWorkFailure(failure), {
      operation,
      details: { status: failure.status, lastError: failure.lastError, data: failure.data },
    })
    recordActivity(context, profile, operation, typeof target === 'function' ? null : target, {
      error,
    })
    throw error
  }
  recordActivity(
    context,
    profile,
    operation,
    typeof target === 'function' ? describeSafely(target, answer) : target,
    { message: describeSafely(describe, answer) },
  )
  return answer
}

function describeSafely<T>(describe: (answer: T) => string | null, answer: T): string | null {
  try {
    return describe(answer)
  } catch {
    // The answer's extra fields are the service's business; a line without a message is fine.
    return null
  }
}

/** A field of a loose object as text, when it is a non-empty string or a number. */
export function textField(value: unknown, key: string): string | null {
  if (typeof value !== 'object' || value === null) return null
  const field = (value as Record<string, unknown>)[key]
  if (typeof field === 'string' && field !== '') return field
  if (typeof field === 'number' && Number.isFinite(field)) return String(field)
  return null
}
