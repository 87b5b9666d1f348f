import { expect } from 'vitest'
import { ServiceError } from '../../src/main/api'

/** Awaits `work`, which must fail with a ServiceError: returns it, for its code and message. */
export async function serviceErrorOf(work: Promise<unknown>): Promise<ServiceError> {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ServiceError)
  return error as ServiceError
}
