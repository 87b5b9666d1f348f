import { ServiceError, isServiceError } from '../api/errors'
import { SinkFailure } from '../api/list-answer'
import type { WorkerError } from './list-protocol'

/*
 * Errors across the worker boundary. A ServiceError (a contract failure, BAD_RESPONSE) crosses
 * with its fields and is a ServiceError again on main; any other error crosses as its message
 * and code (SQLITE_FULL, ENOSPC...), so main's error mapping (toBridgeError) still tells a full
 * disk from a bug, and the desk logs it by class and code.
 */

/** In the worker: what to send for `error`. */
export function asWorkerError(error: unknown): WorkerError {
  const reason = error instanceof SinkFailure ? error.reason : error
  if (isServiceError(reason)) {
    return {
      service: true,
      code: reason.code,
      message: reason.message,
      ...(reason.status === undefined ? {} : { status: reason.status }),
      ...(reason.details === undefined ? {} : { details: reason.details }),
      ...(reason.operation === undefined ? {} : { operation: reason.operation }),
    }
  }
  const code = (reason as { code?: unknown } | null)?.code
  return {
    service: false,
    code: typeof code === 'string' ? code : null,
    message: reason instanceof Error ? reason.message : String(reason),
  }
}

/** A worker's failure that is not the service's: its message and code, as the worker saw them. */
export class WorkerFailure extends Error {
  override name = 'WorkerFailure'
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** On main: the error a worker reported. */
export function errorOf(error: WorkerError): Error {
  if (error.service && error.code !== null) {
    return new ServiceError(error.code, error.message, {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.details === undefined ? {} : { details: error.details }),
      ...(error.operation === undefined ? {} : { operation: error.operation }),
    })
  }
  return new WorkerFailure(error.message, error.code ?? undefined)
}
