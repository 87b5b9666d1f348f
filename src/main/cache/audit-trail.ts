import type { ActivityEntry } from '../../shared/bridge'
import type { ActivityFilter } from '../../shared/bridge/channels/activity'
import { toActivityEntry } from './index'
import type { Cache } from './index'
import type { ActivityRow } from './statements'

/*
 * The activity log read as an audit trail: the Activity screen's filters plus a time
 * range, newest first for the screen, and oldest first in batches for an export, so a long log
 * is written without holding it whole or keeping one SQLite statement open across awaits (the
 * connection is shared with every other store).
 */

export interface AuditTrail {
  /** Newest first, at most `limit` entries. */
  list(filter: ActivityFilter, limit: number): ActivityEntry[]
  /** Oldest first, `batchSize` entries at a time, every entry the filter lets through. */
  batches(filter: ActivityFilter, batchSize?: number): Generator<ActivityEntry[]>
}

interface FilterParams {
  profile_id: string | null
  operation: string | null
  outcome: string | null
  from: number | null
  to: number | null
}

// A null filter lets every row through.
const MATCHES = `(@profile_id IS NULL OR profile_id = @profile_id)
  AND (@operation IS NULL OR operation = @operation)
  AND (@outcome IS NULL OR outcome = @outcome)
  AND (@from IS NULL OR at >= @from)
  AND (@to IS NULL OR at < @to)`

const MAX_LIST_LIMIT = 10_000

export function createAuditTrail(cache: Cache): AuditTrail {
  return cache.extend((db) => {
    const newest = db.prepare<[FilterParams & { limit: number }], ActivityRow>(
      `SELECT * FROM activity WHERE ${MATCHES} ORDER BY at DESC, id DESC LIMIT @limit`,
    )
    const oldestAfter = db.prepare<
      [FilterParams & { after_at: number; after_id: number; limit: number }],
      ActivityRow
    >(
      `SELECT * FROM activity
         WHERE ${MATCHES} AND (at > @after_at OR (at = @after_at AND id > @after_id))
         ORDER BY at, id LIMIT @limit`,
    )
    return {
      list(filter, limit) {
        const bounded = Math.min(MAX_LIST_LIMIT, Math.max(1, Math.floor(limit)))
        return newest.all({ ...paramsOf(filter), limit: bounded }).map(toActivityEntry)
      },
      *batches(filter, batchSize = 1000) {
        let afterAt = Number.MIN_SAFE_INTEGER
        let afterId = -1
        for (;;) {
          const rows = oldestAfter.all({
            ...paramsOf(filter),
            after_at: afterAt,
            after_id: afterId,
            limit: batchSize,
          })
          if (rows.length === 0) return
          const last = rows[rows.length - 1] as ActivityRow
          afterAt = last.at
          afterId = last.id
          yield rows.map(toActivityEntry)
          if (rows.length < batchSize) return
        }
      },
    }
  })
}

function paramsOf(filter: ActivityFilter): FilterParams {
  return {
    profile_id: filter.profileId ?? null,
    operation: filter.operation ?? null,
    outcome: filter.outcome ?? null,
    from: filter.from ?? null,
    to: filter.to ?? null,
  }
}
