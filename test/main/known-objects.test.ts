import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openCache } from '../../src/main/cache'
import type { Cache } from '../../src/main/cache'
import { createKnownObjects } from '../../src/main/cache/known-objects'
import { objectsOfAnswer } from '../../src/main/features/known-objects/answer-objects'
import type { ActivityEntry, Transfer } from '../../src/shared/bridge'
import type { KnownObject } from '../../src/shared/bridge/channels/known-objects'
import { makeTempDir } from '../support/tools'
import { useSandboxDesk } from '../support/sandbox-desk'

/*
 * Names, not UUIDs: every object an answer carried is remembered per profile and
 * offered back by id and by name. The table of answer shapes on its own, then through the desk
 * against the real sandbox, the keychain and the SQLite cache (across a restart).
 */

const NODE = '11111111-1111-4111-8111-111111111111'
const TARGET = '22222222-2222-4222-8222-222222222222'
const MIGRATION = '33333333-3333-4333-8333-333333333333'

describe('the objects an answer carried', () => {
  it('reads a migration (2.4) with its nodes and what it moves', () => {
    const objects = objectsOfAnswer(
      'resolveMigration',
      {
        params: { id: MIGRATION },
        query: {},
        answer: {
          data: {
            id: MIGRATION,
            resourceType: 'container',
            resourceName: 'billing-api',
            deploymentId: null,
            sourceNodeId: NODE,
            targetNodeId: TARGET,
            targetNodeSlug: 'edge-2',
            status: 'completed',
          },
        },
      },
      5,
    )
    expect(objects).toEqual([
      expect.objectContaining({
        kind: 'migration',
        id: MIGRATION,
        name: 'billing-api',
        status: 'completed',
        operation: 'resolveMigration',
        seenAt: 5,
        fields: expect.objectContaining({ sourceNodeId: NODE, targetNodeId: TARGET }),
      }),
      expect.objectContaining({ kind: 'node', id: TARGET, name: 'edge-2' }),
      expect.objectContaining({ kind: 'node', id: NODE, name: null }),
    ])
  })

  it('takes ids from the path when the answer leaves them out, and names from its fields', () => {
    const [route, host] = objectsOfAnswer(
      'retryProxyRoute',
      {
        params: { id: 'host-1', routeId: 'route-1' },
        query: {},
        answer: { data: { domain: 'shop.example.com', path: '/api', status: 'active' } },
      },
      1,
    )
    expect(route).toMatchObject({
      kind: 'proxy-route',
      id: 'route-1',
      name: 'shop.example.com/api',
      status: 'active',
      fields: { proxyHostId: 'host-1', domain: 'shop.example.com', path: '/api' },
    })
    expect(host).toMatchObject({ kind: 'proxy-host', id: 'host-1' })
  })

  it('reads lists inside the envelope and skips items that are not objects', () => {
    const objects = objectsOfAnswer(
      'reorderLoggingEnvironments',
      {
        params: {},
        query: {},
        answer: { data: [{ id: 'e1', name: 'Production', slug: 'prod' }, 'junk', null, { x: 1 }] },
      },
      1,
    )
    expect(objects).toEqual([
      expect.objectContaining({ kind: 'logging-environment', id: 'e1', name: 'Production' }),
    ])
  })

  it('yields nothing for an unknown shape or an operation with no objects, never an error', () => {
    const odd = [null, 'text', 42, [], { data: 'x' }, { data: [1, 2] }, { data: { id: 7n } }]
    for (const answer of odd) {
      for (const operation of ['cancelCopyJob', 'listAppMembers', 'getStatusPagePreview'] as const)
        expect(() => objectsOfAnswer(operation, { params: {}, query: {}, answer }, 1)).not.toThrow()
    }
    expect(objectsOfAnswer('cancelCopyJob', { params: {}, query: {}, answer: 'x' }, 1)).toEqual([])
    expect(
      objectsOfAnswer('logout', { params: {}, query: {}, answer: { message: 'bye' } }, 1),
    ).toEqual([])
    // An id longer than the bridge allows is left out rather than stored.
    const long = objectsOfAnswer(
      'resolveIncident',
      { params: {}, query: {}, answer: { data: { id: 'x'.repeat(300), title: 'Too long' } } },
      1,
    )
    expect(long).toEqual([])
  })
})

describe('the known objects store', () => {
  function sighting(fields: Partial<KnownObject>): KnownObject {
    return {
      kind: 'copy-job',
      id: 'job-1',
      name: null,
      status: null,
      nodeId: null,
      fields: {},
      operation: 'cancelCopyJob',
      seenAt: 1,
      ...fields,
    }
  }

  it('keeps what a later sighting leaves out, searches literally, forgets a cleared profile', async () => {
    const temp = await makeTempDir('infradesk-known-objects')
    const { cache } = openCache(path.join(temp.dir, 'cache.sqlite'))
    try {
      const known = createKnownObjects(cache)
      known.record('p1', [
        sighting({ name: 'Nightly 100%_copy', status: 'running', fields: { sourceNodeId: 'n1' } }),
      ])
      known.record('p1', [
        sighting({ status: 'cancelled', fields: { targetNodeId: 'n2' }, seenAt: 2 }),
      ])
      known.record('p2', [sighting({ name: 'Other profile' })])
      expect(known.lookup('p1', ['job-1'])).toEqual([
        sighting({
          name: 'Nightly 100%_copy',
          status: 'cancelled',
          fields: { sourceNodeId: 'n1', targetNodeId: 'n2' },
          seenAt: 2,
        }),
      ])
      // % and _ are the user's characters, not LIKE's wildcards.
      expect(known.search('p1', 'copy-job', '100%_', 10)).toHaveLength(1)
      expect(known.search('p1', 'copy-job', '1000', 10)).toEqual([])
      expect(known.search('p1', 'copy-job', 'NIGHTLY', 10)).toHaveLength(1)
      expect(known.search('p1', 'node', '', 10)).toEqual([])
      cache.clearProfile('p1')
      expect(known.lookup('p1', ['job-1'])).toEqual([])
      expect(known.lookup('p2', ['job-1'])).toHaveLength(1)
    } finally {
      cache.close()
      await temp.remove()
    }
  })

  it('looks up any number of ids, known, unknown and repeated, in one statement', async () => {
    const temp = await makeTempDir('infradesk-known-objects')
    const { cache } = openCache(path.join(temp.dir, 'cache.sqlite'))
    try {
      const statements = countingStatements(cache)
      const known = createKnownObjects(cache)
      const node = sighting({ kind: 'node', id: 'n1', name: 'edge-1', seenAt: 3 })
      const job = sighting({ id: 'j1', name: 'Nightly', seenAt: 5 })
      // The same id seen as two kinds: both are answers, newest first.
      const sameIdJob = sighting({ id: 'n1', name: 'A job named like a node', seenAt: 4 })
      const unnamed = sighting({ id: 'j2', seenAt: 1 })
      known.record('p1', [node, job, sameIdJob, unnamed])
      known.record('p2', [sighting({ id: 'j1', name: 'Other profile', seenAt: 9 })])

      statements.executed.length = 0
      const ids = ['j2', 'missing', 'n1', 'j1', 'n1', 'j2', 'also-missing']
      expect(known.lookup('p1', ids)).toEqual([job, sameIdJob, node, unnamed])
      expect(statements.executed).toHaveLength(1)

      statements.executed.length = 0
      const many = Array.from({ length: 500 }, (_, index) => `id-${index}`)
      expect(known.lookup('p1', [...many, 'j1'])).toEqual([job])
      expect(statements.executed).toHaveLength(1)
      expect(known.lookup('p1', [])).toEqual([])
      expect(known.lookup('p3', ids)).toEqual([])
    } finally {
      cache.close()
      await temp.remove()
    }
  })
})

/**
 * Counts the statements the stores built on `cache` execute, on its real better-sqlite3
 * connection: each prepared statement's run/get/all/iterate is recorded with its SQL.
 */
function countingStatements(cache: Cache): { executed: string[] } {
  const executed: string[] = []
  const extend = cache.extend.bind(cache)
  cache.extend = (build) =>
    extend((db, notify) => {
      const prepare = db.prepare.bind(db)
      const counting = Object.create(db) as typeof db
      counting.prepare = ((source: string) => {
        const statement = prepare(source)
        for (const method of ['run', 'get', 'all', 'iterate'] as const) {
          const execute = statement[method].bind(statement) as (...args: unknown[]) => unknown
          Object.assign(statement, {
            [method]: (...args: unknown[]) => {
              executed.push(source)
              return execute(...args)
            },
          })
        }
        return statement
      }) as typeof db.prepare
      return build(counting, notify)
    })
  return { executed }
}

const world = useSandboxDesk('known-objects')

function lookup(ids: string[]): Promise<KnownObject[]> {
  return world.desk.value<KnownObject[]>('knownObjects.lookup', {
    profileId: world.profile.id,
    ids,
  })
}

describe('remembered through the desk', () => {
  it('remembers the objects of any operation, per profile, and finds them by name', async () => {
    const jobId = world.seed.copyJobs.running[0] ?? world.seed.copyJobs.queued[0]
    if (jobId === undefined) throw new Error('the seed has no running or queued copy job')
    expect(await lookup([jobId])).toEqual([])

    await world.desk.value('service.call', {
      profileId: world.profile.id,
      operation: 'cancelCopyJob',
      params: { id: jobId },
    })
    const [job] = await lookup([jobId])
    expect(job).toMatchObject({ kind: 'copy-job', id: jobId, status: 'cancelled' })
    expect(job?.name).toEqual(expect.any(String))
    expect(world.desk.events).toContainEqual({
      event: 'cache.changed',
      payload: expect.objectContaining({ topics: ['knownObjects'], profileId: world.profile.id }),
    })

    // Searchable by a part of its name, whatever the case.
    const part = (job?.name ?? '').slice(1, 5).toUpperCase()
    const found = await world.desk.value<KnownObject[]>('knownObjects.search', {
      profileId: world.profile.id,
      kind: 'copy-job',
      text: part,
    })
    expect(found.map((object) => object.id)).toContain(jobId)

    // A read that is not a write is remembered too (op 21 through its own channel).
    await world.desk.value('statusPage.refresh', { profileId: world.profile.id })
    const incidentId = world.seed.incidents.resolved[0] as string
    const [incident] = await lookup([incidentId])
    expect(incident).toMatchObject({ kind: 'incident', id: incidentId })
    expect(incident?.name).toEqual(expect.any(String))
  })

  it('remembers a resolved migration with its nodes, and keeps it across a restart', async () => {
    const migrationId = world.seed.migrations.needs_attention[0] as string
    await world.desk.value('migrations.resolve', {
      profileId: world.profile.id,
      id: migrationId,
      authoritativeSide: 'target',
    })
    await world.desk.reopen()
    const [migration] = await lookup([migrationId])
    expect(migration).toMatchObject({ kind: 'migration', status: 'completed' })
    const targetNodeId = migration?.fields['targetNodeId'] as string
    const [node] = await lookup([targetNodeId])
    expect(node).toMatchObject({ kind: 'node' })
    expect(world.seed.nodes.find((entry) => entry.id === targetNodeId)?.slug).toBe(node?.name)

    // The Transfers panel names the volume, then its node by name beside its id once an answer
    // named it.
    const [volume] = world.seed.volumes
      .filter((entry) => entry.nodeId === targetNodeId)
      .sort((a, b) => a.sizeBytes - b.sizeBytes)
    if (volume === undefined) throw new Error('the seed has no volume on the target node')
    const transfer = await world.desk.value<Transfer>('volumes.export', {
      profileId: world.profile.id,
      nodeId: volume.nodeId,
      name: volume.name,
    })
    expect(transfer.label).toBe(`${volume.name} · node ${node?.name} (${targetNodeId})`)
    await world.desk.value('transfers.cancel', { transferId: transfer.id })
  })

  it('filters the activity log by operation and by outcome', async () => {
    await world.desk.failure('service.call', {
      profileId: world.profile.id,
      operation: 'cancelCopyJob',
      params: { id: '00000000-0000-4000-8000-000000000000' },
    })
    const failed = await world.desk.value<ActivityEntry[]>('activity.list', {
      profileId: world.profile.id,
      outcome: 'error',
      limit: 50,
    })
    expect(failed.length).toBeGreaterThan(0)
    expect(failed.every((entry) => entry.outcome === 'error')).toBe(true)
    const resolves = await world.desk.value<ActivityEntry[]>('activity.list', {
      operation: 'resolveMigration',
      limit: 50,
    })
    expect(resolves.map((entry) => entry.operation)).toEqual(['resolveMigration'])
    const refused = await world.desk.failure('activity.list', { operation: 'noSuchOperation' })
    expect(refused.code).toBe('VALIDATION_ERROR')
  })
})
