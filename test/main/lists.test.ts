import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createServiceClient, isServiceError } from '../../src/main/api'
import type { ListRow, RowSink } from '../../src/main/api/client'
import { openCache, type Cache } from '../../src/main/cache'
import { createListSpools } from '../../src/main/cache/list-spool'
import { queryWords } from '../../src/main/features/lists'
import type { ChannelOutput } from '../../src/shared/bridge'
import { makeTempDir, type TempDir } from '../support/tools'
import { useStandInDesk } from '../support/stand-in-service'
import { waitUntil } from '../support/poll'

/*
 * Big lists in windows: the client's row-by-row read of a list answer as it arrives
 * (the splitter itself: json-rows.test.ts), the cache's windows (filter and sort in SQLite),
 * and the sessions.* / inference.* window channels through the real desk against a local
 * service. Sizes here are small; the bench (bench/lists.ts) runs the 10 MB ones.
 */

/** A local service answering op 1 and op 6 with whatever the test sets. */
let service: Server
let serviceUrl: string
const answers: {
  sessions: string
  catalog: string
  down: boolean
  /** Requests left whose connection is cut halfway through the body. */
  cutBodies: number
  /** Answers for the next op 1 requests, in turn, before `sessions`. */
  nextSessions: string[]
  /** Op 1 requests received so far. */
  sessionRequests: number
} = {
  sessions: '[]',
  catalog: '{"object":"list","data":[]}',
  down: false,
  cutBodies: 0,
  nextSessions: [],
  sessionRequests: 0,
}

beforeAll(async () => {
  service = createServer((request, response) => {
    request.resume()
    if (request.url === '/auth/me/sessions') answers.sessionRequests += 1
    if (answers.down) {
      request.socket.destroy()
      return
    }
    const body =
      request.url === '/auth/me/sessions'
        ? (answers.nextSessions.shift() ?? answers.sessions)
        : request.url === '/api/inference/catalog'
          ? answers.catalog
          : null
    if (body !== null && answers.cutBodies > 0) {
      answers.cutBodies -= 1
      const bytes = Buffer.from(body)
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(bytes.length),
      })
      response.write(bytes.subarray(0, bytes.length >> 1), () => request.socket.destroy())
      return
    }
    response.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' })
    response.end(body ?? '{"code":"NOT_FOUND","message":"Not found"}')
  })
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve))
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => service.close(resolve))
})

function session(index: number, extra: Record<string, unknown> = {}) {
  return {
    id: `session-${String(index).padStart(4, '0')}`,
    authMethod: ['oidc', 'password', 'email_otp'][index % 3],
    createdAt: 1_700_000_000_000 + index,
    lastSeenAt: 1_700_000_000_000 + ((index * 7) % 50),
    expiresAt: 1_800_000_000_000,
    ipAddress: index % 4 === 0 ? null : `203.0.113.${index % 250}`,
    userAgent: 'Mozilla/5.0',
    mfaSatisfiedAt: null,
    isCurrent: index === 3,
    ...extra,
  }
}

/** A sink that keeps what it is given, and how often a read began. */
function collect(): RowSink & { rows: ListRow[]; begun: number } {
  const sink = {
    rows: [] as ListRow[],
    begun: 0,
    begin() {
      sink.begun += 1
      sink.rows = []
    },
    row(row: ListRow) {
      sink.rows.push(row)
    },
  }
  return sink
}

describe('callRows: a big list read row by row as it arrives', () => {
  const client = (options: { maxRetries?: number; maxResponseBytes?: number } = {}) =>
    createServiceClient({
      baseUrl: serviceUrl,
      token: 'test-token',
      maxRetries: 0,
      retryDelayMs: 1,
      ...options,
    })

  it('hands on each row validated, as the service wrote it, numbers kept exact', async () => {
    answers.sessions = `[${JSON.stringify(session(1))},{"id":"big","authMethod":"oidc","createdAt":1,"counter":9007199254740993,"lastSeenAt":1,"expiresAt":2,"ipAddress":null,"userAgent":null,"mfaSatisfiedAt":null,"isCurrent":false,"extra":{"a":[1]}}]`
    const sink = collect()
    expect(await client().callRows('listSessions', sink)).toBe(2)
    expect(sink.rows[0]).toEqual({
      json: JSON.stringify(session(1)),
      value: session(1),
      id: 'session-0001',
    })
    expect(sink.rows[1]!.value.counter).toBe('9007199254740993')
    expect(sink.rows[1]!.json).toContain('"counter":9007199254740993')
  })

  it('names the row that breaks the contract (BAD_RESPONSE), and checks the envelope', async () => {
    answers.sessions = `[${JSON.stringify(session(1))},{"id":7}]`
    const sink = collect()
    const error: unknown = await client()
      .callRows('listSessions', sink)
      .catch((caught: unknown) => caught)
    expect(isServiceError(error)).toBe(true)
    expect(error).toMatchObject({ code: 'BAD_RESPONSE' })
    expect((error as Error).message).toMatch(/listSessions.*1\.id/)
    // The rows before it were handed on: the sink keeps them aside until the call resolves.
    expect(sink.rows).toHaveLength(1)

    answers.catalog = '{"object":"nope","data":[{"id":"m"}]}'
    await expect(client().callRows('listInferenceModels', collect())).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
    })
    answers.catalog = '<html>not json</html>'
    await expect(client().callRows('listInferenceModels', collect())).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringMatching(/not JSON/),
    })
    answers.catalog = '{"object":"list","data":[{"id":"m"}'
    await expect(client().callRows('listInferenceModels', collect())).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringMatching(/could not be read/),
    })
    answers.catalog = '{"code":"FORBIDDEN","message":"no"}'
    await expect(client().callRows('listInferenceModels', collect())).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringMatching(/data/),
    })
  })

  it('throws what the sink throws, as it is, and stops reading', async () => {
    answers.sessions = JSON.stringify(Array.from({ length: 50 }, (_, index) => session(index)))
    const failure = new Error('the disk is full')
    let seen = 0
    const sink: RowSink = {
      begin: () => undefined,
      row() {
        seen += 1
        if (seen === 3) throw failure
      },
    }
    await expect(client({ maxRetries: 2 }).callRows('listSessions', sink)).rejects.toBe(failure)
    expect(seen).toBe(3)
    const starting: RowSink = {
      begin() {
        throw failure
      },
      row: () => undefined,
    }
    await expect(client({ maxRetries: 2 }).callRows('listSessions', starting)).rejects.toBe(failure)
  })

  it('reads again from the start when the connection breaks mid-answer (GET retries)', async () => {
    answers.sessions = JSON.stringify(Array.from({ length: 400 }, (_, index) => session(index)))
    answers.cutBodies = 1
    const sink = collect()
    expect(await client({ maxRetries: 2 }).callRows('listSessions', sink)).toBe(400)
    expect(sink.begun).toBe(2)
    expect(sink.rows.map((row) => row.id)).toEqual(
      Array.from({ length: 400 }, (_, index) => session(index).id),
    )
    // Without retries the break is the answer: OFFLINE, saying the answer was cut.
    answers.cutBodies = 1
    await expect(client().callRows('listSessions', collect())).rejects.toMatchObject({
      code: 'OFFLINE',
      message: expect.stringMatching(/broke while the answer was arriving/),
    })
    answers.cutBodies = 0
  })

  it('refuses an answer past the size limit, with a clear error', async () => {
    answers.sessions = JSON.stringify(Array.from({ length: 400 }, (_, index) => session(index)))
    await expect(
      client({ maxResponseBytes: 10_000 }).callRows('listSessions', collect()),
    ).rejects.toMatchObject({
      code: 'BAD_RESPONSE',
      message: expect.stringMatching(/too large/),
    })
  })
})

describe('cache windows: filter and sort in SQLite', () => {
  let temp: TempDir
  let cache: Cache
  beforeEach(async () => {
    temp = await makeTempDir('infradesk-lists-cache')
    cache = openCache(path.join(temp.dir, 'cache.sqlite')).cache
    const ids = ['llama-3.1-70b', 'Llama-3.1-8B', 'mistral-7b', 'gpt-oss-120b', 'LLAMA-2-70B-chat']
    cache.putListRows(
      'p1',
      'inference',
      ids.map((id, index) => ({
        json: JSON.stringify({ id, created: [5, 3, null, 1, 4][index] }),
      })),
      1_000,
    )
  })
  afterEach(async () => {
    cache.close()
    await temp.remove()
  })

  const ids = (window: { items: string[] }) =>
    window.items.map((json) => (JSON.parse(json) as { id: string }).id)

  it('pages the list in the service order, with its counts', () => {
    const window = cache.listWindow('p1', 'inference', { offset: 1, limit: 2 })
    expect(window).toMatchObject({ total: 5, matched: 5 })
    expect(ids(window)).toEqual(['Llama-3.1-8B', 'mistral-7b'])
    expect(ids(cache.listWindow('p1', 'inference', { offset: 4, limit: 10 }))).toEqual([
      'LLAMA-2-70B-chat',
    ])
    expect(cache.listWindow('p1', 'inference', { offset: 9, limit: 10 }).items).toEqual([])
    expect(cache.listFetchedAt('p1', 'inference')).toBe(1_000)
    // Another profile's list is not there.
    expect(cache.listWindow('p2', 'inference', { offset: 0, limit: 10 })).toMatchObject({
      total: 0,
      items: [],
    })
    // The id column is filled from each row's JSON (getItem uses it).
    expect(cache.getItem('p1', 'inference', 'mistral-7b')).toEqual({
      id: 'mistral-7b',
      created: null,
    })
  })

  it('filters by every word of the id, case-insensitively ("llama 70b")', () => {
    const window = cache.listWindow('p1', 'inference', {
      offset: 0,
      limit: 10,
      words: ['LLAMA', '70b'],
    })
    expect(window).toMatchObject({ total: 5, matched: 2 })
    expect(ids(window)).toEqual(['llama-3.1-70b', 'LLAMA-2-70B-chat'])
    expect(
      ids(cache.listWindow('p1', 'inference', { offset: 0, limit: 10, words: ['3.1'] })),
    ).toEqual(['llama-3.1-70b', 'Llama-3.1-8B'])
    expect(
      cache.listWindow('p1', 'inference', { offset: 0, limit: 10, words: ['gpt-4'] }),
    ).toMatchObject({ matched: 0, items: [] })
    // The screen's query, as main splits it: blank keeps every row.
    expect(queryWords('  LLAMA   70b ')).toEqual(['llama', '70b'])
    expect(
      cache.listWindow('p1', 'inference', { offset: 0, limit: 10, words: queryWords('   ') })
        .matched,
    ).toBe(5)
    // A % or _ in the query is text, not a pattern.
    expect(
      cache.listWindow('p1', 'inference', { offset: 0, limit: 10, words: ['%'] }).matched,
    ).toBe(0)
  })

  it('folds letters beyond ASCII as the words typed are folded ("ärger" finds "Ärger")', () => {
    const names = ['Ärger-Modell-7B', 'ÉCOLE-base', 'straße-70b', 'plain-model']
    cache.putListRows(
      'p3',
      'inference',
      names.map((id) => ({ json: JSON.stringify({ id }) })),
      1_000,
    )
    const matching = (...words: string[]) =>
      ids(cache.listWindow('p3', 'inference', { offset: 0, limit: 10, words }))
    expect(matching(...queryWords('ÄRGER'))).toEqual(['Ärger-Modell-7B'])
    expect(matching(...queryWords('école'))).toEqual(['ÉCOLE-base'])
    // An ASCII word beside a non-ASCII one, in one query; and ASCII words alone as before.
    expect(matching(...queryWords('ärger 7b'))).toEqual(['Ärger-Modell-7B'])
    expect(matching(...queryWords('MODEL'))).toEqual(['Ärger-Modell-7B', 'plain-model'])
    expect(matching(...queryWords('STRASSE'))).toEqual([])
    expect(matching(...queryWords('STRAßE'))).toEqual(['straße-70b'])
  })

  it('sorts by a field, missing values last both ways, ties in the service order', () => {
    const by = (field: string, direction: 'asc' | 'desc', words?: string[]) =>
      ids(
        cache.listWindow('p1', 'inference', {
          offset: 0,
          limit: 10,
          words,
          sort: { field, direction },
        }),
      )
    expect(by('created', 'asc')).toEqual([
      'gpt-oss-120b',
      'Llama-3.1-8B',
      'LLAMA-2-70B-chat',
      'llama-3.1-70b',
      'mistral-7b',
    ])
    expect(by('created', 'desc')).toEqual([
      'llama-3.1-70b',
      'LLAMA-2-70B-chat',
      'Llama-3.1-8B',
      'gpt-oss-120b',
      'mistral-7b',
    ])
    expect(by('id', 'asc').at(0)).toBe('LLAMA-2-70B-chat')
    expect(by('created', 'asc', ['llama'])).toEqual([
      'Llama-3.1-8B',
      'LLAMA-2-70B-chat',
      'llama-3.1-70b',
    ])
    // A field no row has: the service's order.
    expect(by('nothing', 'desc')).toEqual(by('nothing', 'asc'))
    expect(() =>
      cache.listWindow('p1', 'inference', {
        offset: 0,
        limit: 1,
        sort: { field: 'a"b', direction: 'asc' },
      }),
    ).toThrow(TypeError)
  })

  it('replaces a list in one transaction: a row that fails leaves the old list', () => {
    function* failing() {
      yield { json: '{"id":"new"}' }
      throw new Error('row 2 broke the contract')
    }
    expect(() => cache.putListRows('p1', 'inference', failing(), 2_000)).toThrow(/row 2/)
    expect(cache.listWindow('p1', 'inference', { offset: 0, limit: 1 }).total).toBe(5)
    expect(cache.listFetchedAt('p1', 'inference')).toBe(1_000)
    // Many rows go in batches; positions stay dense and in order.
    const many = Array.from({ length: 1000 }, (_, index) => ({ json: `{"id":"m${index}"}` }))
    expect(cache.putListRows('p1', 'inference', many, 3_000)).toBe(1000)
    expect(ids(cache.listWindow('p1', 'inference', { offset: 998, limit: 5 }))).toEqual([
      'm998',
      'm999',
    ])
  })

  it('spools rows on disk and gives them back exactly, in order, into one replacement', () => {
    const spools = createListSpools(cache)
    const spool = spools.open()
    const other = spools.open()
    const rows = Array.from({ length: 3000 }, (_, index) =>
      JSON.stringify({
        id: `m${index}`,
        note: index % 7 === 0 ? 'ünï 😀 "q" \\ ' : 'x'.repeat(index % 90),
      }),
    )
    spool.add('{"id":"from an attempt that broke"}')
    other.add('{"id":"another list"}')
    spool.clear()
    for (const row of rows) spool.add(row)
    expect(spool.count).toBe(3000)
    expect([...spool.rows()].map((row) => row.json)).toEqual(rows)
    expect(cache.putListRows('p1', 'inference', spool.rows(), 4_000)).toBe(3000)
    spool.discard()
    const window = cache.listWindow('p1', 'inference', { offset: 2996, limit: 10 })
    expect(window.items).toEqual(rows.slice(2996))
    expect([...other.rows()].map((row) => row.json)).toEqual(['{"id":"another list"}'])
    // A list still on its way when the cache closes (the desk closing): freeing it is no error.
    const late = spools.open()
    late.add('{"id":"late"}')
    cache.close()
    expect(() => late.discard()).not.toThrow()
    cache = openCache(path.join(temp.dir, 'cache.sqlite')).cache
  })

  it('finds an item by a field (the current session)', () => {
    cache.putListRows(
      'p1',
      'sessions',
      [session(1), session(3), session(5)].map((value) => ({ json: JSON.stringify(value) })),
      1,
    )
    expect(cache.findListItem('p1', 'sessions', 'isCurrent', true)).toMatchObject({
      id: 'session-0003',
    })
    expect(cache.findListItem('p1', 'sessions', 'id', 'nope')).toBeUndefined()
  })
})

describe('the window channels, through the desk', () => {
  const world = useStandInDesk('lists', () => serviceUrl, {
    beforeAdd: () => {
      answers.down = false
      answers.sessions = JSON.stringify(Array.from({ length: 250 }, (_, index) => session(index)))
    },
  })

  type SessionWindow = ChannelOutput<'sessions.window'>
  type ModelWindow = ChannelOutput<'inference.window'>

  it('sessions: fetch answers the first window and counts; windows page the cached list', async () => {
    const empty = await world.desk.value<SessionWindow>('sessions.window', {
      profileId: world.profileId,
    })
    expect(empty).toMatchObject({ total: 0, items: [], fetchedAt: null })

    const fetched = await world.desk.value<SessionWindow>('sessions.fetch', {
      profileId: world.profileId,
      limit: 100,
    })
    expect(fetched).toMatchObject({ total: 250, matched: 250, offset: 0, offline: false })
    expect(fetched.items).toHaveLength(100)
    expect(fetched.items[0]).toEqual(session(0))
    expect(fetched.fetchedAt).toEqual(expect.any(Number))

    // The write follows the answer; a window waits for it.
    const page = await world.desk.value<SessionWindow>('sessions.window', {
      profileId: world.profileId,
      offset: 200,
      limit: 100,
    })
    expect(page.items.map((item) => item.id)).toEqual(
      Array.from({ length: 50 }, (_, index) => session(200 + index).id),
    )
    expect(page.fetchedAt).toBe(fetched.fetchedAt)

    const sorted = await world.desk.value<SessionWindow>('sessions.window', {
      profileId: world.profileId,
      limit: 3,
      sort: { field: 'lastSeenAt', direction: 'desc' },
    })
    const seen = sorted.items.map((item) => item.lastSeenAt)
    expect(seen[0]).toBe(1_700_000_000_049)
    expect([...seen].sort((a, b) => b - a)).toEqual(seen)
    // The whole-list channel still answers the same list.
    const whole = await world.desk.value<ChannelOutput<'sessions.cached'>>('sessions.cached', {
      profileId: world.profileId,
    })
    expect(whole.items).toHaveLength(250)
  })

  it('sessions: a list a later read replaces is not written (the screen opened, then Refresh)', async () => {
    const writes: unknown[] = []
    const stop = world.desk.desk.onEvent((event, payload) => {
      if (event === 'cache.changed' && (payload as { name?: string }).name === 'putList') {
        writes.push(payload)
      }
    })
    try {
      const [opened, refreshed] = await Promise.all([
        world.desk.value<SessionWindow>('sessions.fetch', {
          profileId: world.profileId,
          limit: 10,
        }),
        world.desk.value<SessionWindow>('sessions.fetch', {
          profileId: world.profileId,
          limit: 10,
        }),
      ])
      expect(opened.total).toBe(250)
      expect(refreshed.total).toBe(250)
      const cached = await world.desk.value<SessionWindow>('sessions.window', {
        profileId: world.profileId,
        limit: 1,
      })
      expect(cached.fetchedAt).toBe(refreshed.fetchedAt)
      // One write: the second read's list. The first, which it replaces, was never written.
      expect(writes).toHaveLength(1)

      // When the later read fails, the earlier list is written after all.
      answers.nextSessions = [
        JSON.stringify(Array.from({ length: 120 }, (_, index) => session(index))),
        JSON.stringify([session(1), { id: 'broken' }]),
      ]
      // The later request is sent once the service has the earlier one (answers go in turn).
      const before = answers.sessionRequests
      const earlierFetch = world.desk.call('sessions.fetch', {
        profileId: world.profileId,
        limit: 10,
      })
      await waitUntil(() => answers.sessionRequests !== before, {
        what: 'the service to receive the earlier sessions request',
        intervalMs: 1,
      })
      const [earlier, later] = await Promise.all([
        earlierFetch,
        world.desk.call('sessions.fetch', { profileId: world.profileId, limit: 10 }),
      ])
      expect(earlier).toMatchObject({ ok: true, value: { total: 120 } })
      expect(later).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } })
      expect(
        await world.desk.value<SessionWindow>('sessions.window', {
          profileId: world.profileId,
          limit: 1,
        }),
      ).toMatchObject({
        total: 120,
      })
      answers.nextSessions = []
      await world.desk.value<SessionWindow>('sessions.fetch', {
        profileId: world.profileId,
        limit: 10,
      })
    } finally {
      stop()
    }
  })

  it('sessions: an unreachable service answers the cached window, offline', async () => {
    answers.down = true
    try {
      const offline = await world.desk.value<SessionWindow>('sessions.fetch', {
        profileId: world.profileId,
        limit: 10,
      })
      expect(offline).toMatchObject({ total: 250, offline: true })
      expect(offline.error?.code).toMatch(/OFFLINE|TIMEOUT/)
      expect(offline.items).toHaveLength(10)

      // The whole-list channel as the transports ask it (JSON bytes written in the list
      // worker), equal to the object answer: the cached rows, said to be offline.
      const bytes = await world.desk.desk.dispatchJson('sessions.refresh', {
        profileId: world.profileId,
      })
      const asJson = JSON.parse(bytes.toString('utf8')) as {
        ok: true
        value: ChannelOutput<'sessions.refresh'>
      }
      expect(asJson.value.items).toHaveLength(250)
      expect(asJson.value.items[249]).toEqual(session(249))
      expect(asJson.value).toMatchObject({ offline: true, fetchedAt: expect.any(Number) })
      expect(asJson.value.error?.code).toMatch(/OFFLINE|TIMEOUT/)
      const asObjects = await world.desk.value<ChannelOutput<'sessions.refresh'>>(
        'sessions.refresh',
        {
          profileId: world.profileId,
        },
      )
      expect(asObjects).toEqual(asJson.value)
    } finally {
      answers.down = false
    }
  })

  it('sessions: a row that breaks the contract refuses the list and keeps the cached one', async () => {
    answers.sessions = JSON.stringify([session(1), { id: 'broken' }])
    const result = await world.desk.call('sessions.fetch', { profileId: world.profileId })
    expect(result).toMatchObject({ ok: false, error: { code: 'BAD_RESPONSE' } })
    const cached = await world.desk.value<SessionWindow>('sessions.window', {
      profileId: world.profileId,
      limit: 1,
    })
    expect(cached.total).toBe(250)
  })

  it('inference: fetch, filter and sort in main, with the columns of the whole catalog', async () => {
    answers.catalog = JSON.stringify({
      object: 'list',
      data: [
        { id: 'llama-3.1-70b', created: 3, owned_by: 'meta' },
        { id: 'mistral-7b', created: 1, owned_by: 'mistral' },
        { id: 'Llama-3.1-8B', created: 2, owned_by: 'meta', context: 8192 },
      ],
    })
    const fetched = await world.desk.value<ModelWindow>('inference.fetch', {
      profileId: world.profileId,
    })
    expect(fetched).toMatchObject({ total: 3, matched: 3 })
    expect(fetched.keys).toEqual(['created', 'owned_by', 'context'])
    expect(fetched.items.map((model) => model.id)).toEqual([
      'llama-3.1-70b',
      'mistral-7b',
      'Llama-3.1-8B',
    ])
    const filtered = await world.desk.value<ModelWindow>('inference.window', {
      profileId: world.profileId,
      query: 'LLAMA 8b',
    })
    expect(filtered).toMatchObject({ total: 3, matched: 1 })
    expect(filtered.items.map((model) => model.id)).toEqual(['Llama-3.1-8B'])
    const sorted = await world.desk.value<ModelWindow>('inference.window', {
      profileId: world.profileId,
      query: 'llama',
      sort: { field: 'created', direction: 'asc' },
    })
    expect(sorted.items.map((model) => model.id)).toEqual(['Llama-3.1-8B', 'llama-3.1-70b'])
    // A fetch with a filter answers the filtered window.
    const again = await world.desk.value<ModelWindow>('inference.fetch', {
      profileId: world.profileId,
      query: 'mistral',
    })
    expect(again).toMatchObject({ total: 3, matched: 1 })
  })

  it('refuses windows it cannot serve (validation in main)', async () => {
    for (const input of [
      { profileId: world.profileId, limit: 0 },
      { profileId: world.profileId, limit: 501 },
      { profileId: world.profileId, offset: -1 },
      { profileId: world.profileId, sort: { field: 'a"b' } },
      { profileId: world.profileId, query: 'x'.repeat(201) },
    ]) {
      expect(await world.desk.call('inference.window', input)).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_ERROR' },
      })
    }
  })
})
