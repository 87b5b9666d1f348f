import { describe, expect, it } from 'vitest'
import type { BridgeTransport } from '../../src/shared/bridge'
import { decodeEventFrame } from '../../src/shared/bridge/web-event-frame'
import { encodeEventMessage } from '../../src/shared/bridge/web-protocol'
import { asBridgeError, BridgeCallError, createBridge } from '../../src/renderer/src/bridge-client'

/**
 * A transport that answers every call with the given value and lets the test push events:
 * the client under test is the real one, only the far side of the wire is scripted.
 */
function scriptedTransport(answer: unknown) {
  const listeners = new Set<(event: string, payload: unknown) => void>()
  const calls: { channel: string; input: unknown }[] = []
  const transport: BridgeTransport = {
    async invoke(channel, input) {
      calls.push({ channel, input })
      if (answer instanceof Error) throw answer
      return answer
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const push = (event: string, payload: unknown) => {
    for (const listener of listeners) listener(event, payload)
  }
  return { transport, calls, push, listenerCount: () => listeners.size }
}

const PROFILE = {
  id: 'p1',
  name: 'Staging',
  baseUrl: 'https://staging.example.com',
  color: '#2563eb',
  protected: false,
  kind: 'service',
  signedIn: true,
  tokenStorage: 'keychain',
  createdAt: 1,
}

describe('bridge.call', () => {
  it('returns the validated value of an ok Result', async () => {
    const { transport, calls } = scriptedTransport({ ok: true, value: PROFILE })
    const bridge = createBridge(transport)
    await expect(bridge.call('profiles.activate', { id: 'p1' })).resolves.toEqual(PROFILE)
    expect(calls).toEqual([{ channel: 'profiles.activate', input: { id: 'p1' } }])
  })

  it('reads a Result sent as JSON text, as the desktop preload hands it on', async () => {
    const { transport } = scriptedTransport(JSON.stringify({ ok: true, value: PROFILE }))
    await expect(createBridge(transport).call('profiles.activate', { id: 'p1' })).resolves.toEqual(
      PROFILE,
    )
    const broken = scriptedTransport('{"ok": tru')
    await expect(
      createBridge(broken.transport).call('profiles.activate', { id: 'p1' }),
    ).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('throws a BridgeCallError carrying code, status and details of a failed Result', async () => {
    const details = [{ path: ['token'], message: 'bad' }]
    const { transport } = scriptedTransport({
      ok: false,
      error: { code: 'UNAUTHORIZED', message: 'Authentication required', status: 401, details },
    })
    const error = await createBridge(transport)
      .call('profiles.signIn', { id: 'p1', token: 't' })
      .catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(BridgeCallError)
    expect(error).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
      details,
      message: 'Authentication required',
    })
  })

  it('keeps the operation that answered, so the headline can be worded for it', async () => {
    const error = {
      code: 'CONFLICT',
      message: 'Resource already exists',
      status: 409,
      operation: 'retryProxyRoute',
    }
    const { transport } = scriptedTransport({ ok: false, error })
    const thrown = await createBridge(transport)
      .call('profiles.activate', { id: 'p1' })
      .catch((caught: unknown) => caught)
    expect(asBridgeError(thrown)).toEqual({ ...error, details: undefined })
  })

  it('refuses a value that breaks the channel output schema', async () => {
    const { transport } = scriptedTransport({ ok: true, value: { ...PROFILE, signedIn: 'yes' } })
    await expect(
      createBridge(transport).call('profiles.activate', { id: 'p1' }),
    ).rejects.toMatchObject({ code: 'BAD_RESPONSE' })
  })

  it('refuses an answer that is not a Result', async () => {
    const { transport } = scriptedTransport('<html>login</html>')
    await expect(createBridge(transport).call('app.info', {})).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    })
  })

  it('reports a transport that cannot be reached as BRIDGE_UNAVAILABLE', async () => {
    const { transport } = scriptedTransport(new Error('socket hang up'))
    await expect(createBridge(transport).call('app.info', {})).rejects.toMatchObject({
      code: 'BRIDGE_UNAVAILABLE',
      message: 'socket hang up',
    })
  })
})

describe('bridge.on', () => {
  it('delivers only its own event, with a payload that matches the schema', () => {
    const { transport, push, listenerCount } = scriptedTransport(null)
    const seen: unknown[] = []
    const unsubscribe = createBridge(transport).on('auth.required', (payload) => seen.push(payload))
    push('notice', { id: 'n', level: 'info', message: 'hello' })
    push('auth.required', { profileId: 'p1' }) // malformed: no message
    push('auth.required', { profileId: 'p1', message: 'Token expired' })
    expect(seen).toEqual([{ profileId: 'p1', message: 'Token expired' }])
    unsubscribe()
    expect(listenerCount()).toBe(0)
  })
})

describe('web protocol frames', () => {
  it('round-trips an event through one SSE data line', () => {
    const message = encodeEventMessage('notice', { id: 'n', level: 'info', message: 'a\nb' })
    expect(message.startsWith('data: ')).toBe(true)
    expect(message.endsWith('\n\n')).toBe(true)
    expect(message.slice(0, -2)).not.toContain('\n')
    expect(decodeEventFrame(message.slice('data: '.length, -2))).toEqual({
      event: 'notice',
      payload: { id: 'n', level: 'info', message: 'a\nb' },
    })
    expect(decodeEventFrame('not json')).toBeNull()
    expect(decodeEventFrame('{"payload":1}')).toBeNull()
  })
})
