import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ActivityEntry, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * `migrations.resolve` (op 13) through the desk, with every part real: a sandbox in-process, the
 * keychain (run under scripts/with-keyring.mjs), the SQLite activity log in a temporary folder.
 */

let sandbox: RunningSandbox
let desk: TestDesk
let admin: Profile
let viewer: Profile

async function activity(profileId: string): Promise<ActivityEntry[]> {
  return desk.value<ActivityEntry[]>('activity.list', { profileId })
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
  sandbox = await startSandbox()
  desk = await openTestDesk('migrations', { requestTimeoutMs: 15_000 })
  admin = await desk.addProfile(sandbox, { color: '#2563eb' })
  viewer = await desk.addProfile(sandbox, {
    name: 'Viewer',
    color: '#2563eb',
    token: sandbox.tokens.viewer,
  })
})

afterAll(async () => {
  for (const profile of [admin, viewer]) {
    if (profile) await desk.call('profiles.remove', { id: profile.id })
  }
  await desk?.close()
  await sandbox?.close()
})

describe('migrations.resolve', () => {
  it('resolves, answers the migration whole, and logs the side and the new status', async () => {
    const id = sandbox.seed().migrations.needs_attention[0]!
    const { log } = await activityDuring(admin.id, async () => {
      const result = await desk.call('migrations.resolve', {
        profileId: admin.id,
        id,
        authoritativeSide: 'source',
      })
      if (!result.ok) throw new Error(result.error.message)
      expect(result.value).toMatchObject({ id, status: 'cancelled', progress: expect.any(Object) })
      // Fields the contract does not name pass through to the screen.
      expect(result.value).toHaveProperty('resolution.restartPolicyRestored', true)
      expect(sandbox.seed().migrations.cancelled).toContain(id)

      const again = await desk.call('migrations.resolve', {
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
      desk.call('migrations.resolve', { profileId: admin.id, id: '', authoritativeSide: 'both' }),
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
      desk.call('migrations.resolve', { profileId: viewer.id, id, authoritativeSide: 'target' }),
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
