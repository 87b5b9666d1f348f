import { beforeEach, describe, expect, it, vi } from 'vitest'
import type * as ContractModule from '../../src/shared/bridge/contract'

/*
 * The bridge contract builds a channel's (or an event's) schemas on its first use, not when the
 * module is evaluated, and keeps them: main validates every call with the one schema object the
 * renderer's client checks answers with. Each test imports a fresh copy of the module, so no
 * other test's use has built anything yet.
 */

type Contract = typeof ContractModule

async function freshContract(): Promise<Contract> {
  vi.resetModules()
  return import('../../src/shared/bridge/contract')
}

/** Whether the entry is still only its builder (an accessor), or built (a plain value). */
function isBuilt(record: object, key: string): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(record, key)
  if (!descriptor) throw new Error(`no entry ${key}`)
  return 'value' in descriptor
}

describe('bridge contract: schemas built on first use', () => {
  let contract: Contract
  beforeEach(async () => {
    contract = await freshContract()
  })

  it('builds no channel defined in the contract until it is used', () => {
    expect(isBuilt(contract.channels, 'profiles.add')).toBe(false)
    expect(isBuilt(contract.channels, 'service.call')).toBe(false)
    expect(isBuilt(contract.events, 'auth.required')).toBe(false)
    // Names are known without building anything.
    expect(contract.CHANNEL_NAMES).toContain('profiles.add')
    expect(contract.isChannelName('profiles.add')).toBe(true)
    expect(isBuilt(contract.channels, 'profiles.add')).toBe(false)
  })

  it('builds a channel once, on its first read, and only that channel', () => {
    const first = contract.channels['profiles.signIn']
    expect(isBuilt(contract.channels, 'profiles.signIn')).toBe(true)
    expect(isBuilt(contract.channels, 'profiles.add')).toBe(false)
    const again = contract.channels['profiles.signIn']
    expect(again).toBe(first)
    expect(again.input).toBe(first.input)
    expect(again.output).toBe(first.output)
  })

  it('validates with the built schema as the eager contract did', () => {
    const { input } = contract.channels['profiles.signIn']
    expect(input.safeParse({ id: 'p1', token: '  abc ' })).toEqual({
      success: true,
      data: { id: 'p1', token: 'abc', sessionOnly: false },
    })
    expect(input.safeParse({ id: 'p1', token: '   ' }).success).toBe(false)
    const event = contract.events['auth.required']
    expect(contract.events['auth.required']).toBe(event)
    expect(event.safeParse({ profileId: 'p1' }).success).toBe(false)
  })

  it('lists every entry, and reading them all builds them all', () => {
    const entries = Object.values(contract.channels)
    expect(entries).toHaveLength(contract.CHANNEL_NAMES.length)
    for (const name of contract.CHANNEL_NAMES) {
      expect(isBuilt(contract.channels, name)).toBe(true)
      expect(entries).toContain(contract.channels[name])
    }
  })
})
