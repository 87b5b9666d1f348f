import { describe, expect, it } from 'vitest'
import { ServiceError, toBridgeError } from '../../src/main/api'
import {
  answersAsJson,
  createDispatcher,
  describeUnexpectedError,
} from '../../src/main/bridge/dispatcher'
import type { BridgeHandlers } from '../../src/main/bridge/dispatcher'
import { createEventHub } from '../../src/main/bridge/events'
import { appEntryUrl, isAppUrl } from '../../src/main/shell/app-url'
import { CHANNEL_NAMES } from '../../src/shared/bridge'
import type { ChannelName } from '../../src/shared/bridge'

/*
 * The dispatcher is the main process's gate for every bridge call: the renderer is not trusted,
 * so the channel name and the input are checked against the contract before any handler runs,
 * and whatever a handler throws comes back as a Result without a token in it.
 */

const TOKEN = 'tok_live_5f2b9c8e1d7a4e3f9b6c0a1d2e3f4a5b'

/** A handler table that records what each handler received and answers a fixed value. */
function recordingHandlers() {
  const received: Array<{ channel: ChannelName; input: unknown }> = []
  const handlers = Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      async (input: unknown) => {
        received.push({ channel, input })
        return { handledBy: channel }
      },
    ]),
  ) as unknown as BridgeHandlers
  return { handlers, received }
}

function dispatcherWith(overrides: Partial<BridgeHandlers> = {}) {
  const { handlers, received } = recordingHandlers()
  const dispatcher = createDispatcher(
    { ...handlers, ...overrides },
    { toBridgeError: (error) => toBridgeError(error, [TOKEN]) },
  )
  return { dispatcher, received }
}

describe('bridge dispatcher', () => {
  it('refuses a channel the contract does not name, without running anything', async () => {
    const { dispatcher, received } = dispatcherWith()
    for (const channel of ['profiles.drop', '__proto__', 'constructor', '', 42, null, undefined]) {
      const result = await dispatcher.dispatch(channel, {})
      expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } })
    }
    expect(received).toEqual([])
  })

  it('does not echo a long or odd channel name back', async () => {
    const { dispatcher } = dispatcherWith()
    const result = await dispatcher.dispatch(`x${TOKEN}${'y'.repeat(100)}`, {})
    expect(JSON.stringify(result)).not.toContain(TOKEN)
  })

  it.each([
    [
      'profiles.add',
      { name: '', baseUrl: 'ftp://files.example.com', color: 'red', protected: 'yes', token: ' ' },
      [['name'], ['baseUrl'], ['color'], ['protected'], ['token']],
    ],
    ['profiles.add', 'not an object', [[]]],
    ['profiles.update', { name: 'Staging' }, [['id']]],
    ['profiles.update', { id: 'p1', color: '#12345' }, [['color']]],
    ['profiles.remove', { id: 5 }, [['id']]],
    ['profiles.activate', { id: '' }, [['id']]],
    ['profiles.signIn', { id: 'p1', token: '', sessionOnly: 'no' }, [['token'], ['sessionOnly']]],
    ['sessions.refresh', {}, [['profileId']]],
    ['sessions.logout', { profileId: 'x'.repeat(201) }, [['profileId']]],
    ['inference.list', { profileId: null }, [['profileId']]],
    ['activity.list', { limit: 0 }, [['limit']]],
    ['activity.list', { limit: 1.5 }, [['limit']]],
    ['service.call', { profileId: 'p1', operation: 'dropDatabase' }, [['operation']]],
    [
      'service.call',
      { profileId: 'p1', operation: 'resolveIncident', params: { id: 7 } },
      [['params', 'id']],
    ],
    ['shell.openExternal', { url: `https://example.com/${'a'.repeat(5000)}` }, [['url']]],
  ] as const)('%s rejects malformed input %j', async (channel, input, paths) => {
    const { dispatcher, received } = dispatcherWith()
    const result = await dispatcher.dispatch(channel, input)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('VALIDATION_ERROR')
    expect(result.error.message).toBe('Request validation failed')
    const details = result.error.details as Array<{ path: string[]; message: string }>
    expect(details.map((issue) => issue.path)).toEqual(paths)
    for (const issue of details) expect(issue.message).toEqual(expect.any(String))
    expect(received).toEqual([])
  })

  it('passes the parsed input, defaults filled in, to the handler', async () => {
    const { dispatcher, received } = dispatcherWith()
    const added = await dispatcher.dispatch('profiles.add', {
      name: '  Staging ',
      baseUrl: 'https://staging.example.com',
      color: '#2563eb',
      protected: false,
      token: 'abc',
    })
    expect(added).toEqual({ ok: true, value: { handledBy: 'profiles.add' } })
    await dispatcher.dispatch('activity.list', undefined)
    await dispatcher.dispatch('service.call', { profileId: 'p1', operation: 'listSessions' })
    expect(received).toEqual([
      {
        channel: 'profiles.add',
        input: {
          name: 'Staging',
          baseUrl: 'https://staging.example.com',
          color: '#2563eb',
          protected: false,
          token: 'abc',
          sessionOnly: false,
          checkLater: false,
        },
      },
      { channel: 'activity.list', input: { limit: 200 } },
      {
        channel: 'service.call',
        input: {
          profileId: 'p1',
          operation: 'listSessions',
          params: {},
          query: {},
          confirmedWrite: false,
        },
      },
    ])
  })

  it('turns a thrown ServiceError into a Result with its code, status and details', async () => {
    const { dispatcher } = dispatcherWith({
      'sessions.refresh': async () => {
        throw new ServiceError('FORBIDDEN', 'Insufficient permissions', {
          status: 403,
          details: { permission: 'docker:containers:edit' },
        })
      },
    })
    expect(await dispatcher.dispatch('sessions.refresh', { profileId: 'p1' })).toEqual({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: 'Insufficient permissions',
        status: 403,
        details: { permission: 'docker:containers:edit' },
      },
    })
  })

  it('never lets a token through in an error message or details', async () => {
    const { dispatcher } = dispatcherWith({
      'sessions.refresh': async () => {
        throw new ServiceError('BAD_RESPONSE', `The service echoed Bearer ${TOKEN}`, {
          details: { header: `Authorization: Bearer ${TOKEN}`, nested: [TOKEN] },
        })
      },
      'inference.list': async () => {
        // A bug's raw error: its text must not cross at all.
        throw new TypeError(`Cannot read properties of undefined (token ${TOKEN})`)
      },
      'activity.list': async () => {
        throw `a thrown string with ${TOKEN}`
      },
    })
    const results = [
      await dispatcher.dispatch('sessions.refresh', { profileId: 'p1' }),
      await dispatcher.dispatch('inference.list', { profileId: 'p1' }),
      await dispatcher.dispatch('activity.list', {}),
    ]
    for (const result of results) {
      expect(result.ok).toBe(false)
      expect(JSON.stringify(result)).not.toContain(TOKEN)
    }
    expect(results[0]).toMatchObject({ error: { code: 'BAD_RESPONSE' } })
    expect(results[1]).toMatchObject({ error: { code: 'INTERNAL_ERROR' } })
  })
})

describe('bridge dispatcher, answers as JSON bytes (the web host)', () => {
  const parsed = async (bytes: Promise<Buffer>) => JSON.parse((await bytes).toString('utf8'))

  it('serialises what dispatch answers for a channel whose handler writes no JSON', async () => {
    const { dispatcher } = dispatcherWith({
      'sessions.refresh': async () => {
        throw new ServiceError('FORBIDDEN', 'Insufficient permissions', { status: 403 })
      },
    })
    const calls: [unknown, unknown][] = [
      ['profiles.list', {}],
      ['profiles.drop', {}],
      ['profiles.activate', { id: 42 }],
      ['sessions.refresh', { profileId: 'p1' }],
    ]
    for (const [channel, input] of calls) {
      expect(await parsed(dispatcher.dispatchJson(channel, input))).toEqual(
        JSON.parse(JSON.stringify(await dispatcher.dispatch(channel, input))),
      )
    }
  })

  it("sends a handler's own JSON bytes inside the ok envelope, its input parsed first", async () => {
    const received: unknown[] = []
    const { dispatcher } = dispatcherWith({
      'certificates.cached': answersAsJson<'certificates.cached'>(
        async () => {
          throw new Error('dispatchJson must not call the object handler')
        },
        async (input) => {
          received.push(input)
          return Buffer.from('{"rows":[{"name":"é ✓"}],"folders":[]}')
        },
      ),
    })
    expect(
      await parsed(dispatcher.dispatchJson('certificates.cached', { profileId: 'p1' })),
    ).toEqual({ ok: true, value: { rows: [{ name: 'é ✓' }], folders: [] } })
    // The contract's default filled in, as for dispatch.
    expect(received).toEqual([{ profileId: 'p1', filter: {} }])
    // An input the contract refuses never reaches it.
    expect(await parsed(dispatcher.dispatchJson('certificates.cached', {}))).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR' },
    })
    expect(received).toHaveLength(1)
  })

  it('turns a failing JSON handler into the same failure Result, without the token', async () => {
    const failing = async () => {
      throw new ServiceError('BAD_RESPONSE', `The service echoed Bearer ${TOKEN}`, { status: 502 })
    }
    const { dispatcher } = dispatcherWith({
      'certificates.refresh': answersAsJson<'certificates.refresh'>(failing, failing),
    })
    const input = { profileId: 'p1' }
    const bytes = await dispatcher.dispatchJson('certificates.refresh', input)
    expect(bytes.toString('utf8')).not.toContain(TOKEN)
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(
      JSON.parse(JSON.stringify(await dispatcher.dispatch('certificates.refresh', input))),
    )
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ ok: false, error: { status: 502 } })
  })
})

describe('bridge events', () => {
  it('fans an event out to every listener, and a failing listener does not stop the rest', () => {
    const errors: unknown[] = []
    const hub = createEventHub((error) => errors.push(error))
    const seen: string[] = []
    hub.subscribe(() => {
      throw new Error('window gone')
    })
    const stop = hub.subscribe((event, payload) => seen.push(`${event}:${JSON.stringify(payload)}`))
    hub.emit('profiles.changed', {})
    stop()
    hub.emit('profiles.changed', {})
    expect(seen).toEqual(['profiles.changed:{}'])
    expect(errors).toHaveLength(2)
    expect(hub.size()).toBe(1)
  })
})

describe('IPC sender check: is a URL the app page?', () => {
  const built = {
    kind: 'file',
    indexHtml: '/opt/Infradesk/resources/app.asar/out/renderer/index.html',
  } as const
  const dev = { kind: 'dev-server', url: 'http://localhost:5173' } as const

  it('accepts the built index.html (any hash or query) and the dev server origin', () => {
    expect(isAppUrl(built, appEntryUrl(built))).toBe(true)
    expect(isAppUrl(built, `${appEntryUrl(built)}#/sessions`)).toBe(true)
    expect(isAppUrl(dev, 'http://localhost:5173/')).toBe(true)
    expect(isAppUrl(dev, 'http://localhost:5173/src/main.tsx?t=1')).toBe(true)
  })

  it.each([
    'file:///opt/Infradesk/resources/app.asar/out/renderer/index.html.evil',
    'file:///opt/Infradesk/resources/app.asar/out/renderer/other.html',
    'file:///opt/Infradesk/resources/app.asar/out/renderer/%2e%2e/renderer/../../../../etc/passwd',
    'file://evil.test/opt/Infradesk/resources/app.asar/out/renderer/index.html',
    'http://localhost:5173.evil.test/',
    'http://localhost:51730/',
    'https://localhost:5173/',
    'http://evil.test/?http://localhost:5173',
    'about:blank',
    'not a url',
  ])('refuses %s', (candidate) => {
    expect(isAppUrl(built, candidate) || isAppUrl(dev, candidate)).toBe(false)
  })
})

describe('unexpected errors', () => {
  it('are reported for diagnosis by class, code and stack, never by message', async () => {
    const reported: string[] = []
    const { handlers } = recordingHandlers()
    const failure = Object.assign(new TypeError(`header quoted ${TOKEN}`), { code: 'SQLITE_BUSY' })
    const dispatcher = createDispatcher(
      {
        ...handlers,
        'app.info': async () => {
          throw failure
        },
      },
      {
        onUnexpectedError: (channel, error) =>
          reported.push(describeUnexpectedError(channel, error)),
      },
    )
    const result = await dispatcher.dispatch('app.info', {})
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'INTERNAL_ERROR' }),
    })
    expect(reported).toHaveLength(1)
    expect(reported[0]).toMatch(
      /^\[bridge\] app\.info failed unexpectedly: TypeError SQLITE_BUSY\n\s+at /,
    )
    expect(reported[0]).not.toContain(TOKEN)
    expect(reported[0]).not.toContain('header quoted')
  })

  it('are not reported for a ServiceError, which already explains itself', async () => {
    const reported: unknown[] = []
    const { handlers } = recordingHandlers()
    const dispatcher = createDispatcher(
      {
        ...handlers,
        'app.info': async () => {
          throw new ServiceError('NOT_FOUND', 'gone')
        },
      },
      { onUnexpectedError: (_channel, error) => reported.push(error) },
    )
    await dispatcher.dispatch('app.info', {})
    expect(reported).toEqual([])
  })
})
