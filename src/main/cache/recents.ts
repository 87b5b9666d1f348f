import type { Cache } from './index'

/*
 * Ids the user typed (migration, node, database ids...), per profile and kind, newest first.
 * Kept to the last MAX_PER_KIND of each kind. An area store built on `cache.extend`: its own
 * named statements, and a change event after each write.
 */

const MAX_PER_KIND = 25

export interface RecentInputs {
  list(profileId: string, kind: string, limit: number): string[]
  remember(profileId: string, kind: string, value: string, at?: number): void
}

export function createRecentInputs(cache: Cache): RecentInputs {
  return cache.extend((db, notify) => {
    const select = db.prepare<[profileId: string, kind: string, limit: number], { value: string }>(
      `SELECT value FROM recent_inputs WHERE profile_id = ? AND kind = ?
         ORDER BY used_at DESC, value LIMIT ?`,
    )
    const upsert = db.prepare<[profileId: string, kind: string, value: string, usedAt: number]>(
      `INSERT INTO recent_inputs (profile_id, kind, value, used_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (profile_id, kind, value) DO UPDATE SET used_at = excluded.used_at`,
    )
    const trim = db.prepare<
      [profileId: string, kind: string, profileId2: string, kind2: string, keep: number]
    >(
      `DELETE FROM recent_inputs WHERE profile_id = ? AND kind = ? AND value NOT IN (
         SELECT value FROM recent_inputs WHERE profile_id = ? AND kind = ?
           ORDER BY used_at DESC, value LIMIT ?)`,
    )
    const remember = db.transaction(
      (profileId: string, kind: string, value: string, at: number) => {
        upsert.run(profileId, kind, value, at)
        trim.run(profileId, kind, profileId, kind, MAX_PER_KIND)
      },
    )
    // Two ids remembered within one millisecond must still list newest first: the clock this
    // store writes never repeats or goes back.
    let lastAt = 0
    return {
      list: (profileId, kind, limit) =>
        select
          .all(profileId, kind, Math.max(1, Math.min(MAX_PER_KIND, limit)))
          .map((row) => row.value),
      remember(profileId, kind, value, at = Date.now()) {
        lastAt = Math.max(at, lastAt + 1)
        remember(profileId, kind, value, lastAt)
        notify({ name: 'rememberRecent', tables: ['recent_inputs'], profileId })
      },
    }
  })
}
