import { describe, expect, it } from 'vitest'
import {
  assertEveryChannelHandled,
  deferredHandlers,
} from '../../src/main/bridge/deferred-handlers'
import type { BridgeHandlers } from '../../src/main/bridge/dispatcher'
import { CHANNEL_NAMES } from '../../src/shared/bridge'
import { recentsChannels } from '../../src/shared/bridge/channels/recents'
import { sqlChannels } from '../../src/shared/bridge/channels/sql'
import { volumeChannels } from '../../src/shared/bridge/channels/volumes'
import { openTestDesk } from '../support/desk'

type Two = Pick<BridgeHandlers, 'recents.list' | 'recents.remember'>

/** A feature that is never built: what its stand-ins are, before any call. */
const neverBuilt = () => Promise.reject(new Error('not called in this test'))

describe('deferred handlers', () => {
  it('builds the feature at its first call, once, and each stand-in answers for its own channel', async () => {
    let builds = 0
    const handlers = deferredHandlers(recentsChannels, async () => {
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
    const handlers = deferredHandlers(recentsChannels, async () => {
      builds += 1
      if (builds === 1) throw new Error('the module did not load')
      return { 'recents.list': async () => ({ values: ['second'] }) } as unknown as Pick<
        BridgeHandlers,
        'recents.list'
      >
    }, ['recents.remember'])
    await expect(handlers['recents.list']({} as never)).rejects.toThrow('the module did not load')
    expect(await handlers['recents.list']({} as never)).toEqual({ values: ['second'] })
    expect(builds).toBe(2)
  })

  it('stands in for every channel of the group but those answered elsewhere', () => {
    expect(Object.keys(deferredHandlers(sqlChannels, neverBuilt))).toEqual(Object.keys(sqlChannels))
    const volumes = deferredHandlers(volumeChannels, neverBuilt, ['transfers.downloadTicket'])
    expect(Object.keys(volumes)).toEqual(
      Object.keys(volumeChannels).filter((name) => name !== 'transfers.downloadTicket'),
    )
  })

  it('refuses a handler map that leaves a channel of the contract unanswered, naming it', () => {
    const all = Object.fromEntries(CHANNEL_NAMES.map((name) => [name, async () => null]))
    expect(() => assertEveryChannelHandled(all)).not.toThrow()
    const { 'transfers.downloadTicket': _answeredElsewhere, ...withoutOne } = all
    expect(() => assertEveryChannelHandled(withoutOne)).toThrow(
      'No handler for transfers.downloadTicket',
    )
  })

  // The desk's own lists: a channel of the SQL or volume group missing from its stand-ins (or
  // set aside as answered elsewhere when nothing answers it) and the desk does not open.
  it('the desk opens only with a handler for every channel, the deferred ones answering', async () => {
    const harness = await openTestDesk('deferred-handlers', { backgroundRefresh: false })
    try {
      expect(await harness.call('transfers.list', {})).toEqual({ ok: true, value: [] })
      expect(await harness.call('sql.tabs.list', { profileId: 'no-such-profile' })).toEqual({
        ok: true,
        value: [],
      })
    } finally {
      await harness.close()
    }
  })
})
