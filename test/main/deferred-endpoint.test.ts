import { describe, expect, it } from 'vitest'
import { deferredEndpoint } from '../../src/main/bridge/deferred-endpoint'
import { createEventHub } from '../../src/main/bridge/events'
import type { BridgeEventListener } from '../../src/main/bridge/events'
import type { Result } from '../../src/shared/bridge'
import type { BridgeEndpoint } from '../../src/main/web/host'

/*
 * The endpoint web mode's host (and the Electron window) use while the core is still opening:
 * calls made before it is open wait for it, event subscriptions made before it is open take
 * effect once it is, and a core that fails to open fails the calls that waited.
 */

function endpointWithHub() {
  const hub = createEventHub()
  const calls: [unknown, unknown][] = []
  const endpoint: BridgeEndpoint = {
    dispatch(channel, input): Promise<Result<unknown>> {
      calls.push([channel, input])
      return Promise.resolve({ ok: true, value: { channel } })
    },
    dispatchJson(channel, input): Promise<Buffer> {
      calls.push([channel, input])
      return Promise.resolve(Buffer.from(JSON.stringify({ ok: true, value: { channel } })))
    },
    onEvent: (listener) => hub.subscribe(listener),
  }
  return { hub, calls, endpoint }
}

function opening() {
  let open: (endpoint: BridgeEndpoint) => void = () => undefined
  let fail: (error: Error) => void = () => undefined
  const ready = new Promise<BridgeEndpoint>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { ready, open, fail }
}

describe('deferredEndpoint', () => {
  it('holds a call made before the core is open and answers it once it is', async () => {
    const core = opening()
    const { endpoint, calls } = endpointWithHub()
    const deferred = deferredEndpoint(core.ready)
    let answered = false
    const answer = deferred.dispatch('profiles.list', {}).then((result) => {
      answered = true
      return result
    })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(answered).toBe(false)
    expect(calls).toEqual([])

    core.open(endpoint)
    expect(await answer).toEqual({ ok: true, value: { channel: 'profiles.list' } })
    expect(calls).toEqual([['profiles.list', {}]])
  })

  it('tells that the core is wanted at every call, before waiting for it', async () => {
    const core = opening()
    const { endpoint } = endpointWithHub()
    let wanted = 0
    const deferred = deferredEndpoint(core.ready, () => (wanted += 1))
    const unsubscribe = deferred.onEvent(() => undefined)
    // Listening for events is no call: nothing is wanted yet.
    expect(wanted).toBe(0)
    const answers = [deferred.dispatch('profiles.list', {}), deferred.dispatchJson('app.info', {})]
    expect(wanted).toBe(2)
    core.open(endpoint)
    await Promise.all(answers)
    unsubscribe()
  })

  it('holds a call for JSON bytes the same way', async () => {
    const core = opening()
    const { endpoint, calls } = endpointWithHub()
    const answer = deferredEndpoint(core.ready).dispatchJson('certificates.cached', { a: 1 })
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(calls).toEqual([])

    core.open(endpoint)
    expect(JSON.parse((await answer).toString('utf8'))).toEqual({
      ok: true,
      value: { channel: 'certificates.cached' },
    })
    expect(calls).toEqual([['certificates.cached', { a: 1 }]])
  })

  it('delivers events to a listener that subscribed before the core was open', async () => {
    const core = opening()
    const { endpoint, hub } = endpointWithHub()
    const seen: string[] = []
    const listener: BridgeEventListener = (event) => seen.push(event)
    deferredEndpoint(core.ready).onEvent(listener)

    core.open(endpoint)
    await core.ready
    hub.emit('settings.changed', {} as never)
    expect(seen).toEqual(['settings.changed'])
  })

  it('never subscribes a listener removed before the core was open', async () => {
    const core = opening()
    const { endpoint, hub } = endpointWithHub()
    const seen: string[] = []
    const unsubscribe = deferredEndpoint(core.ready).onEvent((event) => seen.push(event))
    unsubscribe()

    core.open(endpoint)
    await core.ready
    hub.emit('settings.changed', {} as never)
    expect(seen).toEqual([])
    expect(hub.size()).toBe(0)
  })

  it('fails the waiting calls when the core cannot open, without an unhandled rejection', async () => {
    const core = opening()
    const deferred = deferredEndpoint(core.ready)
    deferred.onEvent(() => undefined)
    const answer = deferred.dispatch('profiles.list', {})
    core.fail(new Error('the data folder is not writable'))
    await expect(answer).rejects.toThrow('the data folder is not writable')
  })
})
