import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { operations } from '../../src/shared/api'
import { checkOne, checkValues, namesFields } from '../../src/renderer/src/lib/schema-form'

/*
 * The one form system's checks as the operation screens use them (they left their own
 * `checkWith`/`useFieldChecks` for lib/schema-form): the contract's schemas, worded for people.
 */

const uuid = '0b6c0d8e-4f0a-4f7b-9a55-1f1d1c9e2a10'
const enterUuid = 'Enter a UUID (8-4-4-4-12 hexadecimal digits)'

describe('checkOne (a value checked outside any form)', () => {
  it('says what a UUID field wants, empty or not', () => {
    expect(checkOne(z.uuid(), 'not-a-uuid')).toBe(enterUuid)
    expect(checkOne(z.uuid(), '')).toBe(enterUuid)
    expect(checkOne(z.uuid(), uuid)).toBeUndefined()
  })

  it('calls an empty required text "Required"', () => {
    expect(checkOne(z.string().min(1), '')).toBe('Required')
    expect(checkOne(z.string().min(1), 'x')).toBeUndefined()
  })
})

describe('the operation screens’ forms, checked with the contract', () => {
  it('cancel a copy job: the id is a UUID', () => {
    expect(checkValues(operations.cancelCopyJob.params, { id: 'job-1' }).fields).toEqual({
      id: enterUuid,
    })
    expect(checkValues(operations.cancelCopyJob.params, { id: uuid }).data).toEqual({ id: uuid })
  })

  it('retry a proxy route: each field gets its own message', () => {
    const checked = checkValues(operations.retryProxyRoute.params, { id: '', routeId: '' })
    expect(checked.data).toBeNull()
    expect(Object.keys(checked.fields).sort()).toEqual(['id', 'routeId'])
  })

  it('resolve a deployment’s source: valid ids give the params to send', () => {
    const params = { nodeId: 'node-1', deploymentId: uuid }
    const checked = checkValues(operations.resolveDeploymentSource.params, params)
    expect(checked.fields).toEqual({})
    expect(checked.data).toEqual(params)
  })
})

describe('namesFields (whether a refusal goes on the form)', () => {
  const issues = [{ path: ['body', 'parentId'], message: 'Unknown folder' }]

  it('takes a 400 and a 422 that name fields', () => {
    expect(namesFields({ code: 'VALIDATION_ERROR', message: 'bad', details: issues })).toBe(true)
    expect(namesFields({ code: 'UNPROCESSABLE_ENTITY', message: 'no', details: issues })).toBe(true)
  })

  it('leaves other refusals, and a 400 without issues, to the banner', () => {
    expect(namesFields({ code: 'CONFLICT', message: 'taken', details: issues })).toBe(false)
    expect(namesFields({ code: 'VALIDATION_ERROR', message: 'bad' })).toBe(false)
    expect(namesFields({ code: 'UNPROCESSABLE_ENTITY', message: 'no', details: {} })).toBe(false)
  })
})
