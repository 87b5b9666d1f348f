import { z } from 'zod'

/** The seven error codes of the spec's section 7, with the message the service sends for each. */
export const ERROR_MESSAGES = {
  VALIDATION_ERROR: 'Request validation failed',
  UNAUTHORIZED: 'Authentication required',
  FORBIDDEN: 'Insufficient permissions',
  NOT_FOUND: 'Resource not found',
  CONFLICT: 'Resource already exists',
  UNPROCESSABLE_ENTITY: 'Request could not be processed',
  INTERNAL_ERROR: 'Internal server error',
} as const

export type ServiceErrorCode = keyof typeof ERROR_MESSAGES
export const SERVICE_ERROR_CODES = Object.keys(ERROR_MESSAGES) as ServiceErrorCode[]

/**
 * The HTTP status the sandbox sends for each code. The spec does not fix them
 * (docs/SERVICE.md, "Status codes"): clients decide by `code`, and use
 * `codeForStatus` only when a body carries no recognisable code.
 */
export const STATUS_FOR_CODE: Record<ServiceErrorCode, number> = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNPROCESSABLE_ENTITY: 422,
  INTERNAL_ERROR: 500,
}

export function codeForStatus(status: number): ServiceErrorCode {
  const match = SERVICE_ERROR_CODES.find((code) => STATUS_FOR_CODE[code] === status)
  if (match) return match
  return status >= 500 ? 'INTERNAL_ERROR' : 'UNPROCESSABLE_ENTITY'
}

export function isServiceErrorCode(value: unknown): value is ServiceErrorCode {
  return typeof value === 'string' && value in ERROR_MESSAGES
}

/**
 * A validation issue's `path` as services send it: the spec's array of strings, an array with
 * numeric indexes, or a real deployment's dotted string (`items.0.sortOrder`, zod's
 * `path.join('.')`). Read once here, always as an array of strings, so a form places the issue
 * on its field whichever way it came. An empty string names the body itself (`[]`).
 */
const issuePathSchema = z
  .union([z.array(z.union([z.string(), z.number()])), z.string()])
  .transform((path) =>
    typeof path === 'string' ? (path === '' ? [] : path.split('.')) : path.map(String),
  )

/** One entry of `details` on a VALIDATION_ERROR: the offending field's path and what is wrong. */
export const validationIssueSchema = z.lazy(() =>
  z.looseObject({
    path: issuePathSchema,
    message: z.string(),
  }),
)
export type ValidationIssue = z.infer<typeof validationIssueSchema>

/** The error body every operation answers with on failure (section 7). Parsed leniently. */
export const errorBodySchema = z.lazy(() =>
  z.looseObject({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
  }),
)
export type ErrorBody = z.infer<typeof errorBodySchema>

/** Turns zod issues into the service's `details` shape, paths as arrays of strings. */
export function toValidationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String)
    // An unknown key is reported on the key itself, so a form can point at it.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...base, key],
        message: `Unrecognized key "${key}"`,
      }))
    }
    return [{ path: base, message: issue.message }]
  })
}

/** Reads `details` as validation issues when it has that shape, else returns []. */
export function validationIssuesOf(details: unknown): ValidationIssue[] {
  const parsed = z.array(validationIssueSchema).safeParse(details)
  return parsed.success ? parsed.data : []
}
