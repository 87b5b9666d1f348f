import { describe, expect, it } from 'vitest'
import {
  buildPath,
  foldsToDotSegment,
  OPERATION_NAMES,
  operations,
  pathParamNames,
  toValidationIssues,
} from '../../src/shared/api'
import type { OperationDef } from '../../src/shared/api'

/*
 * A path parameter that a URL parser or a server folds into a dot segment would make the request
 * name another operation (`exportVolume {nodeId:'..', name:'..'}` was sent as
 * `GET /api/docker/export`, with the token). The contract's params schemas refuse such values on
 * the field, for every operation with a path parameter, and buildPath refuses them as well.
 */

/** Every spelling that is, or decodes to, a dot segment, or holds one beside a separator. */
const DOT_VALUES = [
  '.',
  '..',
  '%2e',
  '%2E',
  '%2e%2e',
  '%2E%2e',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '%25252e',
  '../x',
  'x/..',
  '..%2f',
  '%2e%2e%2F',
  '..\\',
  'x%5c%2e',
  './',
]

/** Values that only look dotty: they name a resource and must still be accepted. */
const FINE_VALUES = ['...', '.hidden', 'v1.2', 'a..b', '100%', '%2e%2ex', 'x.', 'node-1', 'a/b']

/** Valid for every path parameter (uuid ones included), so only the one under test is wrong. */
const VALID = '6f1c2b4e-8a3d-4c5e-9f70-1a2b3c4d5e6f'

function allParams(def: OperationDef, value: string): Record<string, string> {
  return Object.fromEntries(pathParamNames(def.path).map((name) => [name, value]))
}

const PATH_PARAMS = OPERATION_NAMES.flatMap((operation) => {
  const def: OperationDef = operations[operation]
  return pathParamNames(def.path).map((param) => ({ operation, param, def }))
})

describe('path parameters that fold into dot segments', () => {
  it('covers every operation with a path parameter', () => {
    const operationsWithParams = new Set(PATH_PARAMS.map((entry) => entry.operation))
    expect(operationsWithParams.size).toBe(13)
  })

  describe.each(PATH_PARAMS)('$operation: $param', ({ def, param }) => {
    it.each(DOT_VALUES)('refuses %j on params.%s', (value) => {
      const params = { ...allParams(def, VALID), [param]: value }
      const parsed = def.params.safeParse(params)
      expect(parsed.success).toBe(false)
      if (parsed.success) return
      expect(toValidationIssues(parsed.error).map((issue) => issue.path)).toEqual([[param]])
    })

    it.each(DOT_VALUES)('buildPath refuses %j', (value) => {
      const params = { ...allParams(def, 'x'), [param]: value }
      expect(() => buildPath(def.path, params)).toThrow(new RegExp(`"${param}"`))
    })
  })

  it.each(FINE_VALUES)('accepts %j, encoded as one segment', (value) => {
    const def: OperationDef = operations.exportVolume
    expect(def.params.safeParse({ nodeId: value, name: value }).success).toBe(true)
    expect(buildPath(def.path, { nodeId: value, name: value })).toBe(
      `/api/docker/nodes/${encodeURIComponent(value)}/volumes/${encodeURIComponent(value)}/export`,
    )
  })

  const verdicts: Array<[string, boolean]> = [
    ...DOT_VALUES.map((value): [string, boolean] => [value, true]),
    ...FINE_VALUES.map((value): [string, boolean] => [value, false]),
  ]
  it.each(verdicts)('foldsToDotSegment(%j) is %s', (value, expected) => {
    expect(foldsToDotSegment(value)).toBe(expected)
  })

  it('refuses escapes nested deeper than any server decodes', () => {
    expect(foldsToDotSegment(`%${'25'.repeat(10)}2e`)).toBe(true)
  })
})
