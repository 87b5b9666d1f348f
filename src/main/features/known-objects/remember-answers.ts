import type { OperationName } from '../../../shared/api'
import type { ServiceClient } from '../../api'
import type { KnownObjects } from '../../cache/known-objects'
import { objectsOfAnswer } from './answer-objects'

/*
 * Every answer a feature reads with `call` passes through the profile's client
 * (withProfileClient): this wraps that client so the objects each answer carried are
 * remembered for the profile, whichever feature asked. Remembering never fails a call.
 */
export function rememberingAnswers(
  client: ServiceClient,
  profileId: string,
  known: KnownObjects,
): ServiceClient {
  return {
    ...client,
    async call(name, input, options) {
      const answer = await client.call(name, input, options)
      remember(known, profileId, name, input, answer)
      return answer
    },
  }
}

function remember(
  known: KnownObjects,
  profileId: string,
  operation: OperationName,
  input: Parameters<ServiceClient['call']>[1],
  answer: unknown,
): void {
  try {
    const objects = objectsOfAnswer(
      operation,
      { params: input?.params ?? {}, query: input?.query ?? {}, answer },
      Date.now(),
    )
    known.record(profileId, objects)
  } catch (error) {
    // The cache may be closing with the desk; the answer still goes to its caller.
    console.warn(`Objects of a ${operation} answer were not remembered:`, error)
  }
}
