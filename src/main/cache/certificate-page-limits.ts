import type { Cache } from './index'
import { forgetWhenProfileCleared } from './profile-cleared'

/*
 * Op 16's page size as each profile's service stated it (schema v18), read before a refresh
 * walks the list and written when a refusal of `limit` names the bound.
 */

export interface CertificatePageLimits {
  /** The page size learned for the profile; null when none was. */
  get(profileId: string): number | null
  put(profileId: string, pageLimit: number, learnedAt?: number): void
}

export function createCertificatePageLimits(cache: Cache): CertificatePageLimits {
  const store: CertificatePageLimits & { forget(profileId: string): void } = cache.extend(
    (db, notify) => {
      const select = db.prepare<[profileId: string], { page_limit: number }>(
        'SELECT page_limit FROM certificate_page_limits WHERE profile_id = ?',
      )
      const remove = db.prepare<[profileId: string]>(
        'DELETE FROM certificate_page_limits WHERE profile_id = ?',
      )
      const upsert = db.prepare<[string, number, number]>(
        `INSERT INTO certificate_page_limits (profile_id, page_limit, learned_at) VALUES (?, ?, ?)
       ON CONFLICT (profile_id) DO UPDATE SET page_limit = excluded.page_limit,
         learned_at = excluded.learned_at`,
      )
      return {
        get: (profileId) => select.get(profileId)?.page_limit ?? null,
        put(profileId, pageLimit, learnedAt = Date.now()) {
          upsert.run(profileId, pageLimit, learnedAt)
          notify({
            name: 'putCertificatePageLimit',
            tables: ['certificate_page_limits'],
            profileId,
          })
        },
        forget(profileId: string) {
          remove.run(profileId)
        },
      }
    },
  )
  // A removed profile's learned size goes with it (a stale one would only be re-learned).
  forgetWhenProfileCleared(cache, (profileId) => store.forget(profileId))
  return store
}
