import { isServiceError } from '../api'

/*
 * Op 5's row bound, as a service states it. The spec leaves maxRows' bounds open;
 * published code of this service refuses more than 2,000 with a VALIDATION_ERROR on maxRows.
 * The console learns the bound from that refusal (features/sql/send.ts) and asks within it.
 */

/**
 * The message of a VALIDATION_ERROR whose details name `maxRows` (path "maxRows", ["maxRows"]
 * or ["body", "maxRows"]); null for any other error.
 */
export function maxRowsRefusal(error: unknown): string | null {
  return isServiceError(error) ? fieldRefusal(error, 'maxRows') : null
}

/**
 * The message of a VALIDATION_ERROR (code and details of a refusal) whose details name `field`
 * as the last step of an issue's path (a dotted string, or an array); '' when that issue has no
 * message; null for any other refusal. Op 5's maxRows and op 16's limit are read alike.
 */
export function fieldRefusal(
  refusal: { code: string; details?: unknown },
  field: string,
): string | null {
  if (refusal.code !== 'VALIDATION_ERROR' || !Array.isArray(refusal.details)) return null
  for (const issue of refusal.details as unknown[]) {
    if (typeof issue !== 'object' || issue === null) continue
    const { path: where, message } = issue as { path?: unknown; message?: unknown }
    const last = Array.isArray(where) ? where[where.length - 1] : where
    if (typeof last === 'string' && last.split('.').pop() === field) {
      return typeof message === 'string' ? message : ''
    }
  }
  return null
}

/**
 * The bound a maxRows refusal states ("Must be at most 2000", "Number must be less than or
 * equal to 2000", "maxRows must be <= 2,000", "less than 2001"), when it is below what was
 * asked; else null.
 */
export function boundOf(message: string, asked: number): number | null {
  const number = '(\\d[\\d,_]*)'
  const inclusive = new RegExp(
    `(?:at most|<=|≤|less than or equal to|no more than|maximum(?: is| of)?|max(?:imum)?:?|up to|not exceed)\\s*${number}`,
    'i',
  ).exec(message)
  const exclusive = new RegExp(`(?:less than|<)\\s*${number}`, 'i').exec(message)
  const digits = (text: string) => Number(text.replace(/[,_]/g, ''))
  let bound: number | null = null
  if (inclusive) bound = digits(inclusive[1]!)
  else if (exclusive) bound = digits(exclusive[1]!) - 1
  else {
    // A message with one number in it names the bound, whatever its words.
    const numbers = message.match(/\d[\d,_]*/g) ?? []
    if (numbers.length === 1) bound = digits(numbers[0]!)
  }
  return bound !== null && Number.isInteger(bound) && bound >= 1 && bound < asked ? bound : null
}
