import type { Cache } from './index'

/*
 * Which certificate expiries the user was already told about (schema v13), so background
 * refresh never tells the same certificate twice for the same threshold, across restarts too.
 * Reads the cached certificate rows (schema v8), through the expiry index of schema v14: the
 * expression below is spelled exactly as that index's.
 */

export const EXPIRY_THRESHOLDS = ['expired', 'week'] as const
export type ExpiryThreshold = (typeof EXPIRY_THRESHOLDS)[number]

/** "Within 7 days": the window a notification warns of. */
export const WEEK_MS = 7 * 24 * 60 * 60_000

export interface ExpiryFinding {
  certificateId: string
  name: string
  /** ISO 8601, UTC. */
  notAfter: string
  threshold: ExpiryThreshold
}

export interface ExpiryNotifications {
  /**
   * The profile's cached certificates that are expired or expire within 7 days of `now` and
   * were never told for that threshold and expiry; they are recorded as told in the same
   * transaction, so a second call (or a restart) finds none of them again.
   */
  claimNew(profileId: string, now: number): ExpiryFinding[]
}

interface NearRow {
  id: string
  name: string | null
  not_after: string
}

export function createExpiryNotifications(cache: Cache): ExpiryNotifications {
  return cache.extend((db) => {
    const near = db.prepare<[profileId: string, until: string], NearRow>(
      `SELECT id, json_extract(row_json, '$.name') AS name, not_after
         FROM certificate_rows
        WHERE profile_id = ? AND not_after <= ?
        ORDER BY not_after, id`,
    )
    const remember = db.prepare<[string, string, ExpiryThreshold, string, number]>(
      `INSERT INTO expiry_notifications
           (profile_id, certificate_id, threshold, not_after, notified_at)
         VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
    )
    const claim = db.transaction((profileId: string, now: number): ExpiryFinding[] => {
      // notAfter is stored as toISOString writes it (features/certificates/rows.ts): text order
      // is time order.
      const nowIso = new Date(now).toISOString()
      const until = new Date(now + WEEK_MS).toISOString()
      const found: ExpiryFinding[] = []
      for (const row of near.all(profileId, until)) {
        const threshold: ExpiryThreshold = row.not_after <= nowIso ? 'expired' : 'week'
        const told = remember.run(profileId, row.id, threshold, row.not_after, now)
        if (told.changes === 1) {
          found.push({
            certificateId: row.id,
            name: row.name ?? row.id,
            notAfter: row.not_after,
            threshold,
          })
        }
      }
      return found
    })
    return { claimNew: (profileId, now) => claim(profileId, now) }
  })
}
