import type { OperationName, ResponseOf } from '../../../shared/api'
import type { CallInput } from '../../api'
import type { DeskContext } from '../context'
import { recordActivity, requireProfile, withProfileClient } from '../context'

/**
 * Calls one operation that changes something and writes its line in the activity log, success
 * or failure; `describe` turns the answer into the line's message (the outcome in words).
 */
export async function recordedCall<N extends OperationName>(
  context: DeskContext,
  profileId: string,
  operation: N,
  input: CallInput,
  targetId: string | null,
  describe: (answer: ResponseOf<N>) => string | null,
): Promise<ResponseOf<N>> {
  const profile = requireProfile(context, profileId)
  try {
    const answer = await withProfileClient(context, profileId, (client) =>
      client.call(operation, input),
    )
    recordActivity(context, profile, operation, targetId, {
      message: describeSafely(describe, answer),
    })
    return answer
  } catch (error) {
    recordActivity(context, profile, operation, targetId, { error })
    throw error
  }
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
