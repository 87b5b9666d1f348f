import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import { operations, WORK_FAILED } from '../../src/shared/api'
import type { ActivityEntry, ChannelOutput, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { call } from '../support/sandbox-process'

/*
 * The app against the gateway flavour's answers that are not plain successes: a 200 whose data
 * says the work failed (ops 8 and 14) is a failure on the bridge and in the activity log, with
 * the service's lastError; a reorder answered `{"success": true}` with no list is a success and
 * the order the app keeps is the one sent. Every part real: the desk's bridge, SQLite, the
 * keychain (run under scripts/with-keyring.mjs).
 */

type KnownOrder = ChannelOutput<'nginxTemplates.reorder'>
interface SeedRoute {
  id: string
  status: string
  retryFailsAgain?: boolean
}
interface Seed {
  proxyHosts: { id: string; routes: SeedRoute[] }[]
  databases: { daemonCannotReload?: string[]; postgres: string[] }
  nginxTemplateFolders: string[]
  loggingEnvironmentFolders: { id: string; environmentIds: string[] }[]
}

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile
let seed: Seed

async function readSeed(): Promise<Seed> {
  return (await call(sandbox, { path: '/__sandbox/seed' })).json as Seed
}

function failedRoute(failsAgain: boolean): { hostId: string; routeId: string } {
  for (const host of seed.proxyHosts) {
    for (const route of host.routes) {
      if (route.status === 'failed' && route.retryFailsAgain === failsAgain) {
        return { hostId: host.id, routeId: route.id }
      }
    }
  }
  throw new Error(`The seed has no failed route with retryFailsAgain ${failsAgain}`)
}

async function lastActivity(operation: string): Promise<ActivityEntry> {
  const entries = await desk.value<ActivityEntry[]>('activity.list', {
    profileId: profile.id,
    operation,
    limit: 1,
  })
  expect(entries).toHaveLength(1)
  return entries[0]!
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, flavor: 'gateway' })
  desk = await openTestDesk('gateway-operations', { requestTimeoutMs: 30_000 })
  profile = await desk.addProfile(
    { url: sandbox.url, tokens: sandbox.tokens },
    { name: 'Gateway', sessionOnly: true },
  )
}, 120_000)

beforeEach(async () => {
  await call(sandbox, { method: 'POST', path: '/__sandbox/reset' })
  seed = await readSeed()
})

afterAll(async () => {
  await desk?.close([profile?.id].filter((id): id is string => id !== undefined))
  await sandbox?.close()
})

describe('a 200 whose data says the work failed', () => {
  it('op 14: a retry that fails again is a WORK_FAILED failure naming lastError, logged as failed', async () => {
    const { hostId, routeId } = failedRoute(true)
    const failure = await desk.failure('service.call', {
      profileId: profile.id,
      operation: 'retryProxyRoute',
      params: { id: hostId, routeId },
      query: {},
    })
    expect(failure.code).toBe(WORK_FAILED)
    expect(failure.message).toMatch(/reports the work failed: .*DNS/)
    expect(failure.details).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/DNS/),
      data: { id: routeId, status: 'failed' },
    })
    const line = await lastActivity('retryProxyRoute')
    expect(line.outcome).toBe('error')
    expect(line.errorCode).toBe(WORK_FAILED)
    expect([hostId, routeId]).toContain(line.targetId)
    expect(line.message).toMatch(/DNS/)
  })

  it('op 14: a retry that works is a success (status ready)', async () => {
    const { hostId, routeId } = failedRoute(false)
    const answer = await desk.value<{ data: { status: string } }>('service.call', {
      profileId: profile.id,
      operation: 'retryProxyRoute',
      params: { id: hostId, routeId },
      query: {},
    })
    expect(answer.data.status).toBe('ready')
    expect((await lastActivity('retryProxyRoute')).outcome).toBe('success')
  })

  it('op 8: a rotation answered with status error fails with lastError and keeps no rotation', async () => {
    const databaseId = seed.databases.daemonCannotReload?.[0]
    expect(databaseId, 'the seed names a database whose daemon cannot reload').toBeDefined()
    const failure = await desk.failure('databases.rotate', {
      profileId: profile.id,
      databaseId,
      allowRestart: false,
    })
    expect(failure.code).toBe(WORK_FAILED)
    expect(failure.message).toMatch(/reports the work error: Managed database update failed/)
    const line = await lastActivity('rotateDatabaseCertificate')
    expect(line.outcome).toBe('error')
    expect(line.errorCode).toBe(WORK_FAILED)
    expect(line.message).toMatch(/Managed database update failed/)
    // A failed rotation is not in the history as a completed one.
    const rotations = await desk.value<unknown[]>('databases.rotations', {
      profileId: profile.id,
      limit: 50,
    })
    expect(rotations).toEqual([])
  })
})

describe('reorders answered {"success": true}', () => {
  it('op 9: a success whose known order is the one sent', async () => {
    const [first, second] = seed.nginxTemplateFolders
    const order = await desk.value<KnownOrder>('nginxTemplates.reorder', {
      profileId: profile.id,
      items: [
        { id: first, sortOrder: 1 },
        { id: second, sortOrder: 0 },
      ],
    })
    expect(order.items.map((item) => [item.id, item.sortOrder])).toEqual([
      [second, 0],
      [first, 1],
    ])
    const known = await desk.value<KnownOrder>('nginxTemplates.knownFolders', {
      profileId: profile.id,
    })
    expect(known.items.map((item) => item.id)).toEqual([second, first])
    const line = await lastActivity('reorderNginxTemplateFolders')
    expect(line.outcome).toBe('success')
    expect(line.message).toMatch(/2 folders in the order/)
  })

  it('op 11: a later reorder applies to the order kept, names included', async () => {
    const environmentIds = seed.loggingEnvironmentFolders[0]!.environmentIds
    const items = environmentIds.map((id, index) => ({ id, sortOrder: index }))
    await desk.value<KnownOrder>('logging.reorder', { profileId: profile.id, items })
    const reversed = environmentIds.map((id, index) => ({
      id,
      sortOrder: environmentIds.length - 1 - index,
    }))
    const order = await desk.value<KnownOrder>('logging.reorder', {
      profileId: profile.id,
      items: reversed,
    })
    expect(order.items.map((item) => item.id)).toEqual([...environmentIds].reverse())
    expect((await lastActivity('reorderLoggingEnvironments')).outcome).toBe('success')
  })

  it('op 9: a negative sortOrder comes back as a validation error on items.0.sortOrder', async () => {
    const [first] = seed.nginxTemplateFolders
    const failure = await desk.failure('nginxTemplates.reorder', {
      profileId: profile.id,
      items: [{ id: first, sortOrder: -1 }],
    })
    expect(failure.code).toBe('VALIDATION_ERROR')
    expect(JSON.stringify(failure.details)).toMatch(/items.*0.*sortOrder/)
  })
})

describe('the contract reads a bare {"success": true} as the success of a move or reorder', () => {
  it.each([
    'moveCertificateFolder',
    'moveUserFolder',
    'reorderNginxTemplateFolders',
    'moveCertificates',
    'reorderLoggingEnvironments',
  ] as const)('%s', (name) => {
    expect(operations[name].response.safeParse({ success: true }).success).toBe(true)
    // Neither data nor success: still not an answer.
    expect(operations[name].response.safeParse({ ok: 1 }).success).toBe(false)
  })
})
