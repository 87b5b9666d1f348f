import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import * as knownObjectsModule from '../../src/main/cache/known-objects'
import type { KnownObjects } from '../../src/main/cache/known-objects'
import { createTransferLog } from '../../src/main/cache/transfers'
import type { Transfer } from '../../src/shared/bridge'
import type { KnownObject } from '../../src/shared/bridge/channels/known-objects'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * The Transfers list names each volume archive as today (shared/volume-archive-label.ts): its
 * volume, then its node by the newest name an answer gave it on the archive's profile. The
 * names of a whole list are read from the SQLite cache at once, not once per row.
 */

const NODE_NAMED = '11111111-1111-4111-8111-111111111111'
const NODE_RENAMED = '22222222-2222-4222-8222-222222222222'
const NODE_UNNAMED = '33333333-3333-4333-8333-333333333333'

function node(id: string, name: string | null, seenAt: number): KnownObject {
  return {
    kind: 'node',
    id,
    name,
    status: null,
    nodeId: null,
    fields: {},
    operation: 'listNodes',
    seenAt,
  }
}

/** Archives of several volumes on three nodes and two profiles, and a certificate export. */
function logTransfers(dataDir: string) {
  const { cache } = openCache(path.join(dataDir, CACHE_FILE_NAME))
  try {
    const known = knownObjectsModule.createKnownObjects(cache)
    known.record('p1', [node(NODE_NAMED, 'docker-fra-01', 1)])
    // Named twice: the newest name is the one shown; a sighting without a name keeps it.
    known.record('p1', [node(NODE_RENAMED, 'edge-old', 1)])
    known.record('p1', [node(NODE_RENAMED, 'edge-2', 2)])
    known.record('p1', [node(NODE_UNNAMED, null, 3)])
    // The same node named on another profile only: not this profile's name for it.
    known.record('p2', [node(NODE_UNNAMED, 'other-profile-name', 4)])
    const transfers = createTransferLog(cache)
    let at = 1_000
    const archive = (profileId: string, nodeId: string, name: string) =>
      transfers.start(
        {
          profileId,
          profileName: profileId,
          kind: 'volume',
          // What an earlier run stored: "node / volume".
          label: `${nodeId} / ${name}`,
          source: { operation: 'exportVolume', nodeId, name },
        },
        (at += 1),
      )
    archive('p1', NODE_NAMED, 'pgdata')
    archive('p1', NODE_NAMED, 'pgdata')
    archive('p1', NODE_NAMED, 'grafana-data')
    archive('p1', NODE_RENAMED, 'pgdata')
    archive('p1', NODE_UNNAMED, 'redis')
    archive('p2', NODE_NAMED, 'minio')
    transfers.start(
      {
        profileId: 'p1',
        profileName: 'p1',
        kind: 'certificate',
        label: 'api.example.com',
        source: {},
      },
      (at += 1),
    )
  } finally {
    cache.close()
  }
}

let harness: TestDesk | null = null
afterEach(async () => {
  vi.restoreAllMocks()
  await harness?.close()
  harness = null
})

describe('the Transfers list', () => {
  it('names every volume archive as today, reading the nodes’ names in one lookup', async () => {
    // The desk's own store over its SQLite cache, its reads counted (each runs its query).
    const createKnownObjects = knownObjectsModule.createKnownObjects
    const made: KnownObjects[] = []
    vi.spyOn(knownObjectsModule, 'createKnownObjects').mockImplementation((cache) => {
      const store = createKnownObjects(cache)
      made.push(store)
      return store
    })
    harness = await openTestDesk('transfers-list-labels', {}, { beforeOpen: logTransfers })
    // The desk's: the last made (the set-up before it made one too).
    const store = made.at(-1)
    if (store === undefined) throw new Error('the desk made no known-objects store')
    const reads = [vi.spyOn(store, 'lookup'), vi.spyOn(store, 'namesOf')]

    const listed = await harness.value<Transfer[]>('transfers.list', { limit: 200 })

    expect(listed.map((transfer) => transfer.label)).toEqual([
      'api.example.com',
      `minio · node ${NODE_NAMED}`,
      `redis · node ${NODE_UNNAMED}`,
      `pgdata · node edge-2 (${NODE_RENAMED})`,
      `grafana-data · node docker-fra-01 (${NODE_NAMED})`,
      `pgdata · node docker-fra-01 (${NODE_NAMED})`,
      `pgdata · node docker-fra-01 (${NODE_NAMED})`,
    ])
    expect(reads.reduce((count, read) => count + read.mock.calls.length, 0)).toBe(1)
  })
})
