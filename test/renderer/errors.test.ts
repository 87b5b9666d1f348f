import { describe, expect, it } from 'vitest'
import {
  errorHeadline,
  fieldErrorsFrom,
  isAuthError,
  isConnectivityError,
  missingPermissionOf,
} from '../../src/renderer/src/lib/errors'

describe('errorHeadline', () => {
  it('names the code, what it means and the HTTP status', () => {
    expect(
      errorHeadline({ code: 'UNAUTHORIZED', message: 'Authentication required', status: 401 }),
    ).toBe('UNAUTHORIZED — the service refused the token (401)')
    expect(errorHeadline({ code: 'OFFLINE', message: 'connect ECONNREFUSED' })).toBe(
      'OFFLINE — the service could not be reached',
    )
  })

  it('says more than the code repeated: a cancel is not "CANCELLED — cancelled"', () => {
    expect(errorHeadline({ code: 'CANCELLED', message: 'Cancelled' })).toBe(
      'CANCELLED — stopped before it finished',
    )
  })

  it("keeps the service's own code beside the app's when they differ (status first)", () => {
    expect(
      errorHeadline({
        code: 'FORBIDDEN',
        message: 'Missing required scope: ssl:cert:list (HTTP 403, HTTP_ERROR)',
        status: 403,
        serviceCode: 'HTTP_ERROR',
      }),
    ).toBe('FORBIDDEN — the token lacks a permission this needs (403, HTTP_ERROR)')
    expect(
      errorHeadline({ code: 'NOT_FOUND', message: 'x', status: 404, serviceCode: 'NOT_FOUND' }),
    ).toBe('NOT_FOUND — the service does not know this resource (404)')
  })

  it('words the service-side timeout and cancel (408, 499) and the rate limit', () => {
    expect(errorHeadline({ code: 'SERVICE_TIMEOUT', message: 'x', status: 408 })).toMatch(
      /time budget/,
    )
    expect(errorHeadline({ code: 'SERVICE_CANCELLED', message: 'x', status: 499 })).toMatch(
      /cancelled the request/,
    )
    expect(errorHeadline({ code: 'RATE_LIMITED', message: 'x', status: 429 })).toMatch(/rate limit/)
  })

  it('keeps an unknown code as it came', () => {
    expect(errorHeadline({ code: 'TEAPOT', message: 'short and stout', status: 418 })).toBe(
      'TEAPOT (418)',
    )
  })
})

describe('missingPermissionOf', () => {
  it('finds the permission a 403 names, in an object or a list', () => {
    expect(missingPermissionOf({ permission: 'docker:containers:edit' })).toBe(
      'docker:containers:edit',
    )
    expect(missingPermissionOf([{ requiredPermission: 'ssl:write' }])).toBe('ssl:write')
    expect(missingPermissionOf(undefined)).toBeNull()
    expect(missingPermissionOf({ permission: 42 })).toBeNull()
  })
})

describe('fieldErrorsFrom', () => {
  const fields = ['name', 'baseUrl', 'token'] as const

  it('puts each VALIDATION_ERROR detail on the field its path names', () => {
    const placed = fieldErrorsFrom(
      [
        { path: ['baseUrl'], message: 'Enter an http:// or https:// URL' },
        { path: ['body', 'name'], message: 'Too long' },
        { path: ['name'], message: 'second message for name is dropped' },
      ],
      fields,
    )
    expect(placed.fields).toEqual({ baseUrl: 'Enter an http:// or https:// URL', name: 'Too long' })
    expect(placed.other).toEqual([])
  })

  it('keeps details that name no field of the form', () => {
    const placed = fieldErrorsFrom([{ path: ['query', 'page'], message: 'Too small' }], fields)
    expect(placed.fields).toEqual({})
    expect(placed.other).toEqual(['query.page: Too small'])
  })

  it("places a real deployment's dotted path (items.0.sortOrder) on its field, like an array", () => {
    const placed = fieldErrorsFrom(
      [
        { path: 'body.name', message: 'Too long' },
        { path: 'items.0.sortOrder', message: 'Expected integer' },
        { path: '', message: 'Body is not an object' },
      ],
      [...fields, 'sortOrder'],
    )
    expect(placed.fields).toEqual({ name: 'Too long', sortOrder: 'Expected integer' })
    expect(placed.other).toEqual(['Body is not an object'])
  })

  it('ignores details that are not validation issues', () => {
    expect(fieldErrorsFrom({ permission: 'x' }, fields)).toEqual({ fields: {}, other: [] })
  })
})

describe('error classes', () => {
  it('tells "out of reach" from "said no"', () => {
    expect(isConnectivityError({ code: 'OFFLINE' })).toBe(true)
    expect(isConnectivityError({ code: 'TIMEOUT' })).toBe(true)
    expect(isConnectivityError({ code: 'UNAUTHORIZED' })).toBe(false)
    expect(isAuthError({ code: 'NOT_SIGNED_IN' })).toBe(true)
    expect(isAuthError({ code: 'FORBIDDEN' })).toBe(false)
    expect(isAuthError(null)).toBe(false)
  })
})

describe('headlines of the codes the app makes of what a service said', () => {
  it('words a 200 that says the work failed, and a desktop page without its preload', () => {
    expect(errorHeadline({ code: 'WORK_FAILED', message: 'x' })).toMatch(/says the work failed/)
    expect(errorHeadline({ code: 'DESKTOP_BRIDGE_MISSING', message: 'x' })).toMatch(/preload/)
  })
})
