import type { z } from 'zod'
import { operations, toValidationIssues } from '../../shared/api'
import type { OperationName } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import { ServiceError } from './errors'
import { parseServiceJson } from './json'

/*
 * What the client says about an answer it cannot use: BAD_RESPONSE naming the operation and
 * what is wrong (not JSON, which fields break the contract). Shared by whole answers
 * (client.ts) and list answers read row by row (list-answer.ts).
 */

export function badResponse(name: OperationName, what: string, details?: unknown): ServiceError {
  const number = operations[name].number
  return new ServiceError(
    APP_ERROR_CODES.BAD_RESPONSE,
    `The service's answer to ${name} (operation ${number}) is not usable: ${what}`,
    { details },
  )
}

export function mainMediaType(header: string | null): string | null {
  const type = header?.split(';')[0]?.trim().toLowerCase()
  return type ? type : null
}

/** A whole body as JSON (numbers kept exact), or BAD_RESPONSE saying what it is instead. */
export function parseJsonBody(
  name: OperationName,
  status: number,
  contentType: string | null,
  text: string,
): unknown {
  if (text.length === 0) throw badResponse(name, `HTTP ${status} with an empty body`)
  try {
    return parseServiceJson(text)
  } catch {
    const mediaType = mainMediaType(contentType)
    throw badResponse(name, `the body is not JSON (content type ${mediaType ?? 'not given'})`)
  }
}

/** Lenient parse with the operation's response schema; a mismatch names the fields. */
export function parseAnswer<S extends z.ZodType>(
  name: OperationName,
  schema: S,
  value: unknown,
): z.output<S> {
  const parsed = schema.safeParse(value)
  if (parsed.success) return parsed.data
  const issues = toValidationIssues(parsed.error)
  const summary = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ')
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : ''
  throw badResponse(name, `${summary}${more}`, issues)
}
