import path from 'node:path'
import { threadId } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../src/main/api'
import { CACHE_FILE_NAME, openCache, type Cache } from '../../src/main/cache'
import { createCertificateCache } from '../../src/main/cache/certificates'
import { createKnownObjects } from '../../src/main/cache/known-objects'
import { walkPages } from '../../src/main/features/certificates'
import { createListWorker, type ListWorker } from '../../src/main/workers/list-worker-client'
import type { ChannelOutput } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import type { ListeningServer } from '../support/local-server'
import { waitUntil } from '../support/poll'
import { startStandInService, useStandInDesk } from '../support/stand-in-service'

/*
 * Big lists off main's event loop: the list worker (src/main/workers) parses,
 * checks and writes a list answer in a thread of its own, into the real SQLite cache file, and
 * what fails there reaches the caller. Real server, real SQLite, real worker thread (from source
 * under tsx, as `npm run web` in dev runs it).
 */

let service: ListeningServer
let serviceUrl: string
let sessionsBody = '[]'

function session(index: number) {
  return {
    id: `session-${String(index).padStart(4, '0')}`,
    authMethod: 'oidc',
    createdAt: 1_700_000_000_000 + index,
    lastSeenAt: 1_700_000_000_000 + index,
    expiresAt: 1_800_000_000_000,
    ipAddress: null,
    userAgent: 'Mozilla/5.0',
    mfaSatisfiedAt: null,
    isCurrent: index === 0,
  }
}

beforeAll(async () => {
  service = await startStandInService({
    certificatePage: (page) => certificatePage(page),
    sessions: () => sessionsBody,
  })
  serviceUrl = service.url
})

afterAll(async () => {
  await service.close()
})

/** Op 16's pages as the test server answers them (page numbers from 1). */
let certificatePage: (page: number) => unknown = () => ({ data: [] })

function certificate(index: number) {
  return {
    id: `cert-${String(index).padStart(4, '0')}`,
    name: `site-${index}.example`,
    type: 'custom',
    status: 'valid',
    notAfter: '2027-01-01T00:00:00Z',
    subjectAltNames: [`site-${index}.example`],
  }
}

/** `count` certificates in pages of `size`, `meta.total` beside each. */
function pagesOf(count: number, size: number) {
  const all = Array.from({ length: count }, (_, index) => certificate(index))
  return (page: number) => ({
    data: all.slice((page - 1) * size, page * size),
    meta: { page, limit: size, total: count },
  })
}

/** A fresh cache file, main's connection to it and a list worker writing into it. */
interface WorkerOnFreshCache {
  file: string
  cache: Cache
  worker: ListWorker
}

/** Runs `use` with a fresh cache file and a list worker on it; closes and removes all after. */
async function withWorkerOnFreshCache(
  use: (setup: WorkerOnFreshCache) => Promise<void>,
): Promise<void> {
  const temp = await makeTempDir('infradesk-list-worker')
  const file = path.join(temp.dir, CACHE_FILE_NAME)
  const { cache } = openCache(file)
  const worker = createListWorker(file)
  try {
    await use({ file, cache, worker })
  } finally {
    await worker.close()
    cache.close()
    await temp.remove()
  }
}

/** The `id` column of `sql`'s rows, as another connection reads the cache file. */
function idsInFile(file: string, sql: string, param: string): string[] {
  const reader = new Database(file, { readonly: true })
  try {
    return reader
      .prepare<[string], { id: string }>(sql)
      .all(param)
      .map((row) => row.id)
  } finally {
    reader.close()
  }
}

/** Certificate ids of a profile as another connection reads the file, in id order. */
function cachedCertificateIds(file: string, profileId: string): string[] {
  const sql = 'SELECT id FROM certificate_rows WHERE profile_id = ? ORDER BY id'
  return idsInFile(file, sql, profileId)
}

/** The cached list as another connection reads the file: ids in position order. */
function cachedIds(file: string, kind: string): string[] {
  const sql = 'SELECT item_id AS id FROM cached_items WHERE kind = ? ORDER BY position'
  return idsInFile(file, sql, kind)
}

describe('the list worker', () => {
  it('reads a list answer and writes it to the cache file from its own thread', () =>
    withWorkerOnFreshCache(async ({ file, cache, worker }) => {
      sessionsBody = JSON.stringify(Array.from({ length: 1_200 }, (_, index) => session(index)))
      const client = createServiceClient({ baseUrl: serviceUrl, token: 'worker-token' })
      const read = worker.read('listSessions', {
        window: { offset: 10, limit: 5 },
        collectKeys: true,
      })
      expect(await client.callRows('listSessions', read.sink)).toBe(1_200)
      const answer = read.answer()
      expect(answer.count).toBe(1_200)
      expect(answer.window.map((row) => row['id'])).toEqual([
        'session-0010',
        'session-0011',
        'session-0012',
        'session-0013',
        'session-0014',
      ])
      expect(answer.keys).toEqual(Object.keys(session(0)))

      const stored = await read.store('profile-a', 'sessions', 1_700_000_000_000)
      expect(stored.count).toBe(1_200)
      expect(stored.threadId).not.toBe(threadId)
      const ids = cachedIds(file, 'sessions')
      expect(ids).toHaveLength(1_200)
      expect(ids.slice(0, 2)).toEqual(['session-0000', 'session-0001'])
      // Main's connection reads what the worker's wrote.
      expect(cache.listWindow('profile-a', 'sessions', { offset: 1_199, limit: 1 }).items).toEqual([
        JSON.stringify(session(1_199)),
      ])

      const frame = { opening: '{"items":', closing: ',"more":true}' }
      const whole = await worker.cachedListJson('listSessions', 'profile-a', 'sessions', frame)
      expect(whole.fetchedAt).toBe(1_700_000_000_000)
      const written = JSON.parse(whole.json.toString('utf8')) as { items: unknown[] }
      expect(written).toMatchObject({ fetchedAt: 1_700_000_000_000, more: true })
      expect(written.items).toHaveLength(1_200)
      expect(written.items[1_199]).toEqual(session(1_199))
      const never = await worker.cachedListJson('listSessions', 'profile-b', 'sessions', frame)
      expect(JSON.parse(never.json.toString('utf8'))).toEqual({
        items: [],
        fetchedAt: null,
        more: true,
      })
    }))

  it('reports a row that breaks the contract as BAD_RESPONSE naming it', () =>
    withWorkerOnFreshCache(async ({ worker }) => {
      sessionsBody = JSON.stringify([session(0), { id: 'broken' }])
      const client = createServiceClient({ baseUrl: serviceUrl, token: 'worker-token' })
      const read = worker.read('listSessions', {
        window: { offset: 0, limit: 0 },
        collectKeys: false,
      })
      const failure = await client.callRows('listSessions', read.sink).then(
        () => null,
        (error: unknown) => error,
      )
      expect(failure).toMatchObject({
        code: 'BAD_RESPONSE',
        message: expect.stringContaining('1.'),
      })
      await expect(read.store('profile-a', 'sessions', Date.now())).rejects.toThrow(/gone/)
    }))
})

describe('a certificate refresh in the list worker', () => {
  async function walkInto(
    worker: ReturnType<typeof createListWorker>,
    profileId: string,
  ): Promise<{ received: number; threadId: number }> {
    const client = createServiceClient({ baseUrl: serviceUrl, token: 'worker-token' })
    const walk = worker.certificateWalk()
    try {
      const { received, completeness } = await walkPages({}, async (query) => {
        const page = walk.page()
        await client.callRows('listCertificates', page.sink, { query })
        return page.summary()
      })
      const stored = await walk.store(profileId, {}, 1_700_000_000_000, completeness)
      return { received, threadId: stored.threadId }
    } catch (error) {
      walk.discard()
      throw error
    }
  }

  it('reads every page, writes the rows from its own thread, and reads them back as JSON', () =>
    withWorkerOnFreshCache(async ({ file, cache, worker }) => {
      certificatePage = pagesOf(1_050, 500)
      const walked = await walkInto(worker, 'profile-a')
      expect(walked.received).toBe(1_050)
      expect(walked.threadId).not.toBe(threadId)
      const ids = cachedCertificateIds(file, 'profile-a')
      expect(ids).toHaveLength(1_050)
      expect(ids[1_049]).toBe('cert-1049')
      // Main's connection reads what the worker's wrote, searchable by a subject alt name.
      const certificates = createCertificateCache(cache)
      expect(certificates.fetchedAt('profile-a')).toBe(1_700_000_000_000)
      expect(certificates.list('profile-a', { search: 'SITE-1049' }).map((row) => row.id)).toEqual([
        'cert-1049',
      ])
      // Their names are known beside their ids elsewhere in the app, as an answer read on main.
      expect(createKnownObjects(cache).lookup('profile-a', ['cert-1049'])).toEqual([
        expect.objectContaining({
          kind: 'certificate',
          id: 'cert-1049',
          name: 'site-1049.example',
        }),
      ])
      const json = await worker.certificatesJson('profile-a', { search: 'site-104' })
      const rows = JSON.parse(json.toString('utf8')) as { id: string }[]
      expect(rows.map((row) => row.id).sort()).toEqual([
        'cert-0104',
        ...Array.from({ length: 10 }, (_, index) => `cert-${1040 + index}`),
      ])
    }))

  it('a page that breaks the contract fails the refresh and leaves the cached rows', () =>
    withWorkerOnFreshCache(async ({ file, worker }) => {
      certificatePage = pagesOf(3, 2)
      await walkInto(worker, 'profile-a')
      const healthy = pagesOf(5, 2)
      // The second page's first row has a name that is not a string (the contract says string).
      certificatePage = (page) =>
        page === 2
          ? { data: [{ id: 'cert-x', name: 42 }], meta: { page, limit: 2 } }
          : healthy(page)
      const failure = await walkInto(worker, 'profile-a').then(
        () => null,
        (error: unknown) => error,
      )
      expect(failure).toMatchObject({
        code: 'BAD_RESPONSE',
        message: expect.stringContaining('data.0'),
      })
      expect(cachedCertificateIds(file, 'profile-a')).toEqual([
        'cert-0000',
        'cert-0001',
        'cert-0002',
      ])
    }))
})

describe('big lists through the desk go through the worker', () => {
  const world = useStandInDesk('list-worker', () => serviceUrl, {
    beforeAdd: () => {
      sessionsBody = JSON.stringify([session(0)])
    },
  })

  it('a refresh writes the cache file, announces it, and answers the whole list', async () => {
    sessionsBody = JSON.stringify(Array.from({ length: 300 }, (_, index) => session(index)))
    const changes: unknown[] = []
    const stop = world.desk.desk.onEvent((name, payload) => {
      if (name === 'cache.changed') changes.push(payload)
    })
    try {
      const list = await world.desk.value<ChannelOutput<'sessions.refresh'>>('sessions.refresh', {
        profileId: world.profileId,
      })
      expect(list.items).toHaveLength(300)
      expect(list.items[299]?.id).toBe('session-0299')
      expect(cachedIds(path.join(world.desk.dataDir, CACHE_FILE_NAME), 'sessions')).toHaveLength(
        300,
      )
      expect(changes).toContainEqual(
        expect.objectContaining({ name: 'putList', profileId: world.profileId }),
      )
    } finally {
      stop()
    }
  })

  it('a write that fails in the worker is reported, not swallowed', async () => {
    const file = path.join(world.desk.dataDir, CACHE_FILE_NAME)
    // A real failure of the worker's SQLite write: the file refuses new list rows.
    const saboteur = new Database(file)
    saboteur.exec(`CREATE TRIGGER refuse_rows BEFORE INSERT ON cached_items
      BEGIN SELECT RAISE(ABORT, 'rows refused'); END`)
    const notices: unknown[] = []
    const stop = world.desk.desk.onEvent((name, payload) => {
      if (name === 'notice') notices.push(payload)
    })
    try {
      sessionsBody = JSON.stringify([session(0), session(1)])
      // The whole-list refresh writes before it answers: its caller gets the error.
      const refreshed = await world.desk.call('sessions.refresh', { profileId: world.profileId })
      expect(refreshed.ok).toBe(false)
      // The screen's fetch answers first and writes after: the user gets a notice.
      const fetched = await world.desk.value<ChannelOutput<'sessions.fetch'>>('sessions.fetch', {
        profileId: world.profileId,
        limit: 10,
      })
      expect(fetched.total).toBe(2)
      await waitUntil(() => notices.length > 0, { what: 'the notice of the failed write' })
      expect(notices[0]).toMatchObject({
        level: 'warning',
        message: expect.stringContaining('could not be saved in the local cache'),
      })
      // The list cached before is untouched.
      expect(cachedIds(file, 'sessions')).toHaveLength(300)
    } finally {
      stop()
      saboteur.exec('DROP TRIGGER refuse_rows')
      saboteur.close()
    }
  })
})
