import { describe, expect, it } from 'vitest'
import { deferredHandlers } from '../../src/main/bridge/deferred-handlers'
import type { BridgeHandlers } from '../../src/main/bridge/dispatcher'

type Two = Pick<BridgeHandlers, 'recents.list' | 'recents.remember'>

describe('deferred handlers', () => {
  it('builds the feature at its first call, once, and each stand-in answers for its own channel', async () => {
    let builds = 0
    const handlers = deferredHandlers(['recents.list', 'recents.remember'], async () => {
      builds += 1
      return {
        'recents.list': async () => ({ values: ['listed'] }),
        'recents.remember': async () => ({ values: ['remembered'] }),
      } as unknown as Two
    })
    expect(builds).toBe(0)
    const calls = [handlers['recents.list']({} as never), handlers['recents.remember']({} as never)]
    expect(await Promise.all(calls)).toEqual([{ values: ['listed'] }, { values: ['remembered'] }])
    await handlers['recents.list']({} as never)
    expect(builds).toBe(1)
  })

  it('reports a failed build to the call, and builds again at the next one', async () => {
    let builds = 0
    const handlers = deferredHandlers(['recents.list'], async () => {
      builds += 1
      if (builds === 1) throw new Error('the module did not load')
      return { 'recents.list': async () => ({ values: ['second'] }) } as unknown as Pick<
        BridgeHandlers,
        'recents.list'
      >
    })
    await expect(handlers['recents.list']({} as never)).rejects.toThrow('the module did not load')
    expect(await handlers['recents.list']({} as never)).toEqual({ values: ['second'] })
    expect(builds).toBe(2)
  })
})
