import { describe, expect, it } from 'vitest'
import type { BridgeTransport } from '../../src/shared/bridge'
import { createBridge } from '../../src/renderer/src/bridge-client'
import { firstCallsFor, sendFirstCalls } from '../../src/renderer/src/first-calls'

/*
 * The page's first calls leave before the bulk of its script evaluates (page-start.ts); the
 * app's own calls then take those answers instead of asking again. The far side is a scripted
 * transport that counts what reached it; the bridge client on top is the real one.
 */

function countingTransport() {
  const sent: string[] = []
  let answers = 0
  const transport: BridgeTransport = {
    invoke(channel) {
      sent.push(channel)
      answers += 1
      if (channel === 'broken') return Promise.reject(new Error('the host went away'))
      return Promise.resolve({
        ok: true,
        value: { mode: 'web', version: `answer ${answers}`, notices: [] },
      })
    },
    subscribe: () => () => undefined,
  }
  return { transport, sent }
}

describe("the page's first calls", () => {
  it('are sent at once, in order, before the app asks', () => {
    const far = countingTransport()
    sendFirstCalls(far.transport, firstCallsFor('overview'))
    expect(far.sent).toEqual(['overview.summary', 'app.info', 'profiles.list', 'settings.get'])
  })

  it("include the Overview's summary only when the page opens on the Overview", () => {
    expect(firstCallsFor('certificates').map(([channel]) => channel)).toEqual([
      'app.info',
      'profiles.list',
      'settings.get',
    ])
  })

  it("answer the app's same call once, without sending it again", async () => {
    const far = countingTransport()
    const first = sendFirstCalls(far.transport, [['app.info', {}]])
    const bridge = createBridge(first.transport)
    await expect(bridge.call('app.info', {})).resolves.toMatchObject({ version: 'answer 1' })
    expect(far.sent).toEqual(['app.info'])
    // A second call is a new one: the answer sent ahead is not handed out twice.
    await expect(bridge.call('app.info', {})).resolves.toMatchObject({ version: 'answer 2' })
    expect(far.sent).toEqual(['app.info', 'app.info'])
  })

  it('are not taken by a call with another input', async () => {
    const far = countingTransport()
    const first = sendFirstCalls(far.transport, [['overview.expiring', {}]])
    await first.transport.invoke('overview.expiring', { days: 7 })
    expect(far.sent).toEqual(['overview.expiring', 'overview.expiring'])
  })

  it('are dropped once the app has made its first calls (a later call asks afresh)', async () => {
    const far = countingTransport()
    const first = sendFirstCalls(far.transport, [['overview.summary', {}]])
    first.close()
    await first.transport.invoke('overview.summary', {})
    expect(far.sent).toEqual(['overview.summary', 'overview.summary'])
  })

  it("hand a failed call's failure to the app's call that takes it", async () => {
    const far = countingTransport()
    const first = sendFirstCalls(far.transport, [['broken', {}]])
    await expect(first.transport.invoke('broken', {})).rejects.toThrow('the host went away')
    expect(far.sent).toEqual(['broken'])
  })
})
