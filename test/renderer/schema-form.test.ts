import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { operations } from '../../src/shared/api'
import { settingsSchema } from '../../src/shared/bridge'
import { resolveFormSchema } from '../../src/renderer/src/features/migrations/form-schema'
import { checkValues } from '../../src/renderer/src/lib/schema-form'

describe('checkValues (the form hook’s check with a contract schema)', () => {
  it('returns the schema output when every field is valid', () => {
    const id = '0b6c0d8e-4f0a-4f7b-9a55-1f1d1c9e2a10'
    expect(checkValues(operations.cancelCopyJob.params, { id })).toEqual({
      data: { id },
      fields: {},
    })
  })

  it('words the contract’s issues for people, one message per field', () => {
    const checked = checkValues(resolveFormSchema, { id: '', authoritativeSide: 'both' })
    expect(checked.data).toBeNull()
    expect(checked.fields).toEqual({
      id: 'Required',
      authoritativeSide: 'Choose one of: source, target',
    })
    expect(checkValues(operations.cancelCopyJob.params, { id: 'job-1' }).fields).toEqual({
      id: 'Enter a UUID (8-4-4-4-12 hexadecimal digits)',
    })
  })

  it('words bounds and wrong types of numbers', () => {
    const timeout = settingsSchema.pick({ requestTimeoutMs: true, defaultMaxRows: true })
    expect(checkValues(timeout, { requestTimeoutMs: 10, defaultMaxRows: 200_000 }).fields).toEqual({
      requestTimeoutMs: 'At least 1000',
      defaultMaxRows: 'At most 100000',
    })
    expect(
      checkValues(timeout, { requestTimeoutMs: Number.NaN, defaultMaxRows: 1 }).fields,
    ).toEqual({ requestTimeoutMs: 'Enter a number' })
  })

  it('keeps a schema’s own message', () => {
    const named = z.object({ name: z.string().min(1, 'Enter a name') })
    expect(checkValues(named, { name: '' }).fields).toEqual({ name: 'Enter a name' })
  })
})
