import { rotationRecordSchema } from '../../shared/bridge/channels/operations'
import type { RotationRecord } from '../../shared/bridge/channels/operations'
import type { Cache } from './index'
import { forgetWhenProfileCleared } from './profile-cleared'

/*
 * The remaining operations' own tables (schema v6): snapshots of answers the service offers no
 * list for, and the database certificate rotations this app requested. Named statements
 * prepared once; a change event after each write, so open views refetch. A profile's rows go
 * when its cached lists are cleared (the profile was removed or signed out for good).
 */

export const SNAPSHOT_KEYS = [
  'status-page',
  'logging-environments',
  'nginx-template-folders',
] as const
export type SnapshotKey = (typeof SNAPSHOT_KEYS)[number]

export interface Snapshot {
  value: unknown
  fetchedAt: number
}

export interface OperationsStore {
  putSnapshot(profileId: string, key: SnapshotKey, value: unknown, fetchedAt: number): void
  getSnapshot(profileId: string, key: SnapshotKey): Snapshot | null
  putRotation(profileId: string, rotation: RotationRecord): void
  /** Newest first. */
  listRotations(profileId: string, limit: number): RotationRecord[]
  /** Pending rotations of every profile, soonest due first (timers are set from these). */
  pendingRotations(): { profileId: string; rotation: RotationRecord }[]
  /** Marks a pending rotation completed; returns it, or null when it was not pending. */
  completeRotation(profileId: string, rotationId: string): RotationRecord | null
}

interface RotationRow {
  profile_id: string
  rotation_id: string
  database_id: string
  requested_at: number
  allow_restart: number
  status: string
  completes_at: number | null
  answer_json: string
}

const TABLE_SNAPSHOTS = 'operation_snapshots'
const TABLE_ROTATIONS = 'database_rotations'

export function createOperationsStore(cache: Cache): OperationsStore {
  const store = cache.extend((db, notify) => {
    const upsertSnapshot = db.prepare<
      [profileId: string, key: string, valueJson: string, fetchedAt: number]
    >(
      `INSERT INTO operation_snapshots (profile_id, key, value_json, fetched_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (profile_id, key) DO UPDATE
           SET value_json = excluded.value_json, fetched_at = excluded.fetched_at`,
    )
    const selectSnapshot = db.prepare<
      [profileId: string, key: string],
      { value_json: string; fetched_at: number }
    >(`SELECT value_json, fetched_at FROM operation_snapshots WHERE profile_id = ? AND key = ?`)
    const upsertRotation = db.prepare<[RotationRow]>(
      `INSERT INTO database_rotations (profile_id, rotation_id, database_id, requested_at,
           allow_restart, status, completes_at, answer_json)
         VALUES (@profile_id, @rotation_id, @database_id, @requested_at, @allow_restart, @status,
           @completes_at, @answer_json)
         ON CONFLICT (profile_id, rotation_id) DO UPDATE SET status = excluded.status,
           completes_at = excluded.completes_at, answer_json = excluded.answer_json`,
    )
    const selectRotations = db.prepare<[profileId: string, limit: number], RotationRow>(
      `SELECT * FROM database_rotations WHERE profile_id = ?
         ORDER BY requested_at DESC, rotation_id LIMIT ?`,
    )
    const selectPending = db.prepare<[], RotationRow>(
      `SELECT * FROM database_rotations WHERE status = 'pending' ORDER BY completes_at`,
    )
    const markCompleted = db.prepare<[profileId: string, rotationId: string], RotationRow>(
      `UPDATE database_rotations SET status = 'completed'
         WHERE profile_id = ? AND rotation_id = ? AND status = 'pending' RETURNING *`,
    )
    const deleteSnapshots = db.prepare<[profileId: string]>(
      `DELETE FROM operation_snapshots WHERE profile_id = ?`,
    )
    const deleteRotations = db.prepare<[profileId: string]>(
      `DELETE FROM database_rotations WHERE profile_id = ?`,
    )
    const forget = db.transaction((profileId: string) => {
      deleteSnapshots.run(profileId)
      deleteRotations.run(profileId)
    })

    const operations: OperationsStore = {
      putSnapshot(profileId, key, value, fetchedAt) {
        upsertSnapshot.run(profileId, key, JSON.stringify(value) ?? 'null', Math.round(fetchedAt))
        notify({ name: `putSnapshot:${key}`, tables: [TABLE_SNAPSHOTS], profileId })
      },
      getSnapshot(profileId, key) {
        const row = selectSnapshot.get(profileId, key)
        if (row === undefined) return null
        const value = parseJson(row.value_json)
        return value === undefined ? null : { value, fetchedAt: row.fetched_at }
      },
      putRotation(profileId, rotation) {
        upsertRotation.run(toRow(profileId, rotation))
        notify({ name: 'putRotation', tables: [TABLE_ROTATIONS], profileId })
      },
      listRotations(profileId, limit) {
        return selectRotations.all(profileId, limit).flatMap(fromRow)
      },
      pendingRotations() {
        return selectPending
          .all()
          .flatMap((row) =>
            fromRow(row).map((rotation) => ({ profileId: row.profile_id, rotation })),
          )
      },
      completeRotation(profileId, rotationId) {
        const row = markCompleted.get(profileId, rotationId)
        if (row === undefined) return null
        notify({ name: 'completeRotation', tables: [TABLE_ROTATIONS], profileId })
        return fromRow(row)[0] ?? null
      },
    }
    return { operations, forget }
  })

  forgetWhenProfileCleared(cache, store.forget)
  return store.operations
}

function toRow(profileId: string, rotation: RotationRecord): RotationRow {
  return {
    profile_id: profileId,
    rotation_id: rotation.id,
    database_id: rotation.databaseId,
    requested_at: rotation.requestedAt,
    allow_restart: rotation.allowRestart ? 1 : 0,
    status: rotation.status,
    completes_at: rotation.completesAt,
    answer_json: JSON.stringify(rotation.answer),
  }
}

/** A row that no longer reads as a rotation (hand-edited, or an older app's) is skipped. */
function fromRow(row: RotationRow): RotationRecord[] {
  const parsed = rotationRecordSchema.safeParse({
    id: row.rotation_id,
    databaseId: row.database_id,
    requestedAt: row.requested_at,
    allowRestart: row.allow_restart === 1,
    status: row.status,
    completesAt: row.completes_at,
    answer: parseJson(row.answer_json),
  })
  return parsed.success ? [parsed.data] : []
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
