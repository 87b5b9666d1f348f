import { beforeEach, describe, expect, it } from 'vitest'
import { CACHE_TABLES, topicsOfTables } from '../../src/main/cache'
import type { Cache, CacheChange, CacheTable } from '../../src/main/cache'
import { createTransferLog } from '../../src/main/cache/transfers'
import { CACHE_TOPICS, type CacheTopic } from '../../src/shared/bridge/cache-topics'
import { events } from '../../src/shared/bridge'
import { useTempCacheFiles } from '../support/temp-cache'

/*
 * `cache.changed` speaks topics; main maps its SQLite tables to them where it emits. These
 * tests tie the map to the real schema, so a table added or renamed in main without its topics
 * fails here (and a renamed key fails main's type check where it is used).
 */

const caches = useTempCacheFiles('cache-topics')
let cache: Cache
beforeEach(() => {
  cache = caches.open().cache
})

function schemaTables(): string[] {
  return cache.extend((db) =>
    db
      .prepare<[], { name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`,
      )
      .all()
      .map((row) => row.name),
  )
}

describe('cache topics', () => {
  it('maps every table of the cache schema to topics, and nothing else', () => {
    expect([...CACHE_TABLES].sort()).toEqual(schemaTables().sort())
    for (const table of CACHE_TABLES) expect(topicsOfTables([table]).length).toBeGreaterThan(0)
  })

  it('gives every topic a table that feeds it', () => {
    const fed = new Set(topicsOfTables(CACHE_TABLES))
    expect(CACHE_TOPICS.filter((topic) => !fed.has(topic))).toEqual([])
  })

  it('announces real writes with their topics, as the contract validates them', () => {
    const changes: CacheChange[] = []
    cache.onChange((change) => changes.push(change))
    cache.putList('p1', 'sessions', [{ id: 's1' }], 1)
    cache.recordActivity({
      at: 2,
      profileId: 'p1',
      profileName: 'Staging',
      operation: 'logout',
      targetId: null,
      outcome: 'success',
      errorCode: null,
      message: null,
    })
    createTransferLog(cache).start(
      {
        profileId: 'p1',
        profileName: 'Staging',
        kind: 'volume',
        label: 'node-1 / pgdata',
        source: { nodeId: 'node-1', name: 'pgdata' },
        bytesTotal: 1000,
      },
      3,
    )

    expect(changes.map((change) => [change.name, change.topics])).toEqual([
      ['putList', ['sessions', 'inference', 'incidents']],
      ['recordActivity', ['activity']],
      ['startTransfer', ['transfers']],
    ])
    for (const change of changes) expect(events['cache.changed'].parse(change)).toEqual(change)
  })

  it('names each topic once, whatever the tables', () => {
    expect(topicsOfTables(['cached_items', 'cached_lists'])).toEqual([
      'sessions',
      'inference',
      'incidents',
    ])
  })

  it('takes only tables main has: a renamed or unknown table is a type error', () => {
    // @ts-expect-error 'not_a_table' is no CacheTable (checked by `npm run typecheck`)
    expect(topicsOfTables(['not_a_table'])).toEqual([])
  })

  // Checked by `npm run typecheck`: an expected error that goes away fails it.
  it('types tables and topics: a name main or the contract does not know is an error', () => {
    // @ts-expect-error a renamed table is no longer a CacheTable
    const renamed: CacheTable = 'activity_log'
    // @ts-expect-error a topic the contract does not list
    const unknown: CacheTopic = 'session'
    expect([renamed, unknown]).toHaveLength(2)
  })
})
