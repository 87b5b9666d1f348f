import { it } from 'vitest'
import type { OperationName } from '../../src/shared/api'
import { expectValidationError } from './answers'
import { call, callOperation, type SandboxProcess } from './sandbox-process'

/*
 * Tests the contract tests share: refusals every operation with a body or an id in its path
 * must make in the same way.
 */

/** A request body the contract refuses: what is wrong with it, the body, the field it names. */
export type InvalidBodyCase = [label: string, body: unknown, fieldPath: string[]]

/**
 * One test per invalid body: each is sent to operation `name` with `params()` (read when the
 * test runs) and must be refused with a 400 VALIDATION_ERROR naming its field.
 */
export function itRejectsEachInvalidBody(
  sandbox: Pick<SandboxProcess, 'url' | 'tokens'>,
  name: OperationName,
  params: () => Record<string, string>,
  cases: InvalidBodyCase[],
): void {
  it.each(cases)('400 when %s, naming the field', async (_label, body, fieldPath) => {
    const response = await callOperation(sandbox, name, { params: params(), body })
    expectValidationError(response, fieldPath)
  })
}

/**
 * A test that `path`, whose id segment is left empty, is refused with a 400 VALIDATION_ERROR
 * naming `id` (the router must not match it, nor read the empty segment as an id).
 */
export function itRejectsAnEmptyIdSegment(
  sandbox: Pick<SandboxProcess, 'url' | 'tokens'>,
  title: string,
  request: { method: 'POST' | 'PUT'; path: string; body: unknown },
): void {
  it(title, async () => {
    expectValidationError(await call(sandbox, request), ['id'])
  })
}
