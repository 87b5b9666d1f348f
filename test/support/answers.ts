import { expect } from 'vitest'
import { z } from 'zod'
import {
  ERROR_MESSAGES,
  errorBodySchema,
  operations,
  STATUS_FOR_CODE,
  validationIssuesOf,
} from '../../src/shared/api'
import type { ErrorBody, OperationName, ResponseOf, ServiceErrorCode } from '../../src/shared/api'
import type { CallResult } from './sandbox-process'

/*
 * What the contract tests assert about the sandbox's answers (docs/SERVICE.md, sections 2 and
 * 7): a body the operation's schema accepts, or the error body with its code, status and
 * message. Kept apart from the process and its client in sandbox-process.ts.
 */

function describeResponse(response: CallResult): string {
  return `${response.status} ${response.text().slice(0, 2_000)}`
}

/** Asserts a 2xx whose body parses with the operation's response schema; returns it parsed. */
export function expectSuccess<N extends OperationName>(
  name: N,
  response: CallResult,
  status = 200,
): ResponseOf<N> {
  expect(response.status, describeResponse(response)).toBe(status)
  const parsed = operations[name].response.safeParse(response.json)
  if (!parsed.success) {
    throw new Error(
      `${name}: body does not match the contract:\n${z.prettifyError(parsed.error)}\n${describeResponse(response)}`,
    )
  }
  return parsed.data as ResponseOf<N>
}

/** Asserts the error body of section 7 with the code's status and message; returns the body. */
export function expectError(response: CallResult, code: ServiceErrorCode): ErrorBody {
  expect(response.status, describeResponse(response)).toBe(STATUS_FOR_CODE[code])
  const body = errorBodySchema.parse(response.json)
  expect(body.code).toBe(code)
  expect(body.message).toBe(ERROR_MESSAGES[code])
  // Anything unexpected is a 500 without internals: no stack trace ever reaches the body.
  expect(response.text()).not.toMatch(/\n\s+at .+:\d+:\d+/)
  return body
}

/**
 * Asserts the error body of section 7 with `code`, whatever the HTTP status: for tests run
 * against the variant, whose statuses are its own choice (docs/SERVICE.md "Status codes").
 */
export function expectErrorCode(response: CallResult, code: ServiceErrorCode): ErrorBody {
  expect(response.status, describeResponse(response)).toBeGreaterThanOrEqual(400)
  const body = errorBodySchema.parse(response.json)
  expect(body.code, describeResponse(response)).toBe(code)
  return body
}

/** Asserts 400 VALIDATION_ERROR whose details name exactly `path` (among possibly others). */
export function expectValidationError(response: CallResult, fieldPath: string[]): void {
  const body = expectError(response, 'VALIDATION_ERROR')
  const issues = validationIssuesOf(body.details)
  expect(
    issues.length,
    `details must be [{ path, message }]: ${JSON.stringify(body.details)}`,
  ).toBeGreaterThan(0)
  expect(issues.map((issue) => issue.path)).toContainEqual(fieldPath)
}
