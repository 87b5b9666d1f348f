import { describe, expect, it } from 'vitest'
import type { Cache, CacheChange } from '../../src/main/cache'
import { createRecentInputs } from '../../src/main/cache/recents'
import { createTransferLog } from '../../src/main/cache/transfers'
import { useTempCacheFiles } from '../support/temp-cache'

/* The area stores built on cache.extend, against a real SQLite file. */

const caches = useTempCacheFiles('cache-stores')
const open = (): Cache => caches.open().cache

describe('recent inputs', () => {
  it('lists newest first per profile and kind, without duplicates, across a reopen', () => {
    const recents = createRecentInputs(open())
    recents.remember('p1', 'migration', 'a', 1)
    recents.remember('p1', 'migration', 'b', 2)
    recents.remember('p1', 'migration', 'a', 3)
    recents.remember('p1', 'node', 'n', 4)
    recents.remember('p2', 'migration', 'other', 5)
    caches.closeLast()
    const again = createRecentInputs(open())
    expect(again.list('p1', 'migration', 10)).toEqual(['a', 'b'])
    expect(again.list('p1', 'node', 10)).toEqual(['n'])
    expect(again.list('p2', 'migration', 10)).toEqual(['other'])
    expect(again.list('p1', 'migration', 1)).toEqual(['a'])
  })

  it('keeps only the newest 25 of a kind', () => {
    const recents = createRecentInputs(open())
    for (let n = 0; n < 40; n += 1) recents.remember('p1', 'database', `db-${n}`, n)
    const listed = recents.list('p1', 'database', 50)
    expect(listed).toHaveLength(25)
    expect(listed[0]).toBe('db-39')
    expect(listed.at(-1)).toBe('db-15')
  })

  it('announces its writes as cache changes of that profile', () => {
    const cache = open()
    const changes: CacheChange[] = []
    cache.onChange((change) => changes.push(change))
    createRecentInputs(cache).remember('p1', 'node', 'x')
    expect(changes).toEqual([
      { name: 'rememberRecent', tables: ['recent_inputs'], topics: ['recents'], profileId: 'p1' },
    ])
  })
})

describe('transfers log', () => {
  const start = {
    profileId: 'p1',
    profileName: 'Staging',
    kind: 'volume' as const,
    label: 'node-1 / pgdata',
    source: { nodeId: 'node-1', name: 'pgdata' },
    bytesTotal: 1000,
  }

  it('records a transfer from start through progress to completion', () => {
    const log = createTransferLog(open())
    const started = log.start(start, 100)
    expect(started).toMatchObject({ state: 'running', bytesDone: 0, bytesTotal: 1000 })
    log.progress(started.id, 400)
    expect(log.get(started.id)?.bytesDone).toBe(400)
    const done = log.finish(
      started.id,
      { state: 'completed', destination: '/tmp/x.tar.gz', bytesDone: 1000, sha256: 'ab' },
      250,
    )
    expect(done).toMatchObject({
      state: 'completed',
      destination: '/tmp/x.tar.gz',
      bytesDone: 1000,
      sha256: 'ab',
      finishedAt: 250,
      source: { nodeId: 'node-1', name: 'pgdata' },
    })
    // An ended transfer does not change again.
    log.progress(started.id, 5)
    log.finish(started.id, { state: 'failed', errorCode: 'X', errorMessage: 'late' })
    expect(log.get(started.id)).toEqual(done)
  })

  it('lists newest first, per profile or for all', () => {
    const log = createTransferLog(open())
    const first = log.start(start, 1)
    const second = log.start({ ...start, profileId: 'p2', label: 'other' }, 2)
    expect(log.list({ limit: 10 }).map((t) => t.id)).toEqual([second.id, first.id])
    expect(log.list({ profileId: 'p1', limit: 10 }).map((t) => t.id)).toEqual([first.id])
  })

  it('marks what a previous run left running as interrupted', () => {
    const log = createTransferLog(open())
    const running = log.start(start, 1)
    const finished = log.start(start, 2)
    log.finish(finished.id, { state: 'cancelled', errorCode: 'CANCELLED', errorMessage: 'x' })
    caches.closeLast()
    const reopened = createTransferLog(open())
    expect(reopened.markInterrupted(99)).toBe(1)
    expect(reopened.get(running.id)).toMatchObject({ state: 'interrupted', finishedAt: 99 })
    expect(reopened.get(finished.id)?.state).toBe('cancelled')
  })
})
