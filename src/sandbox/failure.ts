import { ERROR_MESSAGES, STATUS_FOR_CODE } from '../shared/api'
import type { ErrorBody, ServiceErrorCode, ValidationIssue } from '../shared/api'

/**
 * A refusal a handler means to send: one of the seven codes, the service's own message and
 * optional details. Anything else thrown while answering becomes a 500 INTERNAL_ERROR.
 */
export class ApiFailure extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    readonly details?: unknown,
    /** Overrides the status of the code; only for HTTP-level refusals such as 416. */
    readonly status: number = STATUS_FOR_CODE[code],
  ) {
    super(ERROR_MESSAGES[code])
    this.name = 'ApiFailure'
  }

  get body(): ErrorBody {
    const body: ErrorBody = { code: this.code, message: ERROR_MESSAGES[this.code] }
    if (this.details !== undefined) body.details = this.details
    return body
  }
}

export function validationFailure(issues: ValidationIssue[]): ApiFailure {
  return new ApiFailure('VALIDATION_ERROR', issues)
}

/** A validation failure on one field, e.g. `invalidField(['maxRows'], 'Must be at most 100000')`. */
export function invalidField(path: string[], message: string): ApiFailure {
  return validationFailure([{ path, message }])
}

export function notFound(details?: unknown): ApiFailure {
  return new ApiFailure('NOT_FOUND', details)
}

export function conflict(details?: unknown): ApiFailure {
  return new ApiFailure('CONFLICT', details)
}

export function unprocessable(details?: unknown): ApiFailure {
  return new ApiFailure('UNPROCESSABLE_ENTITY', details)
}

export function forbidden(permission: string, details: Record<string, unknown> = {}): ApiFailure {
  return new ApiFailure('FORBIDDEN', { permission, ...details })
}

export function unauthorized(): ApiFailure {
  return new ApiFailure('UNAUTHORIZED')
}
