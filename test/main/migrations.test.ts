import { randomUUID } from 'node:crypto'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDesk } from '../../src/main/desk'
import type { Desk } from '../../src/main/desk'
import { createVault } from '../../src/main/vault'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ActivityEntry, Profile, Result } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * `migrations.resolve` (op 13) through the desk, with every part real: a sandbox in-process, the
 * keychain (run under scripts/with-keyring.mjs), the SQLite activity log in a temporary folder.
 */

const service = `Infradesk-migrations-test-${randomUUID()}`
let temp: TempDir
let sandbox: RunningSandbox
let desk: Desk
let admin: Profile
let viewer: Profile

async function call(channel: string, input: unknown): Promise<Result<unknown>> {
  return desk.dispatch(channel, input)
}

async function addProfile(name: string, token: string): Promise<Profile> {
  const result = await call('profiles.add', {
    name,
    baseUrl: sandbox.url,
    color: '#2563eb',
    protected: false,
    token,
  })
  if (!result.ok) throw new Error(`profiles.add failed: ${result.error.message}`)
  return result.value as Profile
}

async function activity(profileId: string): Promise<ActivityEntry[]> {
  const result = await call('activity.list', { profileId })
  if (!result.ok) throw new Error(result.error.message)
  return result.value as ActivityEntry[]
}

/**
 * The entries `profileId`'s activity log gains while `work` runs (the log lists the newest
 * first). Each test reads only its own entries, so none depends on what another left behind.
 */
async function activityDuring<T>(
  profileId: string,
  work: () => Promise<T>,
): Promise<{ log: ActivityEntry[]; value: T }> {
  const before = (await activity(profileId)).length
  const value = await work()
  const after = await activity(profileId)
  return { log: after.slice(0, after.length - before), value }
}

beforeAll(async () => {
  temp = await makeTempDir('infradesk-migrations')
  sandbox = await startSandbox()
  desk = await createDesk({
    dataDir: path.join(temp.dir, 'data'),
    mode: 'web',
    openExternal: async () => undefined,
    vault: createVault({ service }),
    version: '0.0.0-test',
    restoreSandbox: false,
    requestTimeoutMs: 15_000,
  })
  admin = await addProfile('Staging', sandbox.tokens.admin)
  viewer = await addProfile('Viewer', sandbox.tokens.viewer)
})

afterAll(async () => {
  for (const profile of [admin, viewer]) {
    if (profile) await call('profiles.remove', { id: profile.id })
  }
  await desk?.close()
  await sandbox?.close()
  await temp?.remove()
})

describe('migrations.resolve', () => {
  it('resolves, answers the migration whole, and logs the side and the new status', async () => {
    const id = sandbox.seed().migrations.needs_attention[0]!
    const { log } = await activityDuring(admin.id, async () => {
      const result = await call('migrations.resolve', {
        profileId: admin.id,
        id,
        authoritativeSide: 'source',
      })
      if (!result.ok) throw new Error(result.error.message)
      expect(result.value).toMatchObject({ id, status: 'cancelled', progress: expect.any(Object) })
      // Fields the contract does not name pass through to the screen.
      expect(result.value).toHaveProperty('resolution.restartPolicyRestored', true)
      expect(sandbox.seed().migrations.cancelled).toContain(id)

      const again = await call('migrations.resolve', {
        profileId: admin.id,
        id,
        authoritativeSide: 'target',
      })
      expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT', status: 409 } })
    })

    expect(
      log.map((entry) => [entry.operation, entry.targetId, entry.outcome, entry.message]),
    ).toEqual([
      ['resolveMigration', id, 'error', expect.any(String)],
      ['resolveMigration', id, 'success', 'source made authoritative; status cancelled'],
    ])
    expect(log[0]?.errorCode).toBe('CONFLICT')
  })

  it('refuses a bad input before anything is sent, on the field it names', async () => {
    const { log, value: result } = await activityDuring(admin.id, () =>
      call('migrations.resolve', { profileId: admin.id, id: '', authoritativeSide: 'both' }),
    )
    if (result.ok) throw new Error('a bad input was accepted')
    expect(result.error.code).toBe('VALIDATION_ERROR')
    const paths = (result.error.details as { path: string[] }[]).map((issue) =>
      issue.path.join('.'),
    )
    expect(paths).toEqual(expect.arrayContaining(['id', 'authoritativeSide']))
    // Nothing was sent, so nothing was logged.
    expect(log).toEqual([])
  })

  it('a viewer gets the 403 with the permission it lacks, and the refusal is logged', async () => {
    const id = sandbox.seed().migrations.needs_attention[0]!
    const { log, value: result } = await activityDuring(viewer.id, () =>
      call('migrations.resolve', { profileId: viewer.id, id, authoritativeSide: 'target' }),
    )
    if (result.ok) throw new Error('a viewer resolved a migration')
    expect(result.error).toMatchObject({ code: 'FORBIDDEN', status: 403 })
    expect(result.error.details).toHaveProperty('permission')
    expect(sandbox.seed().migrations.needs_attention).toContain(id)
    expect(log).toMatchObject([
      { operation: 'resolveMigration', targetId: id, outcome: 'error', errorCode: 'FORBIDDEN' },
    ])
  })
})
