import type Database from 'better-sqlite3'
import type { Cache } from './index'

/*
 * The Overview's reads, over every profile's caches at once: one statement per kind
 * of figure, each grouped by profile, so ten profiles cost what one does. Certificate expiry is
 * read through the `not_after` column and its index (schema v15): the rows ending before a date
 * are a range of that index, not a pass over every row's JSON. Read only: nothing here writes,
 * so nothing is announced.
 */

export interface CertificateCounts {
  total: number
  expired: number
  within7: number
  within30: number
}

export interface OverviewReads {
  /** Per profile: cached certificates, and how many are expired / end within 7 / 30 days. */
  certificateCounts(now: number): Map<string, CertificateCounts>
  /** Per profile: the newest refresh of any of its cached lists (epoch ms). */
  lastRefresh(): Map<string, number>
  /** Per profile: the cached incidents (the status page's), as stored. */
  incidentItems(): Map<string, unknown[]>
  /** Per profile: transfers still running. */
  transfersRunning(): Map<string, number>
  /**
   * Every profile's cached certificates ending before `until` (ISO 8601), soonest first, as
   * one JSON array of `{ profileId, row }` assembled by SQLite from the stored row texts.
   */
  expiringJson(until: string): Buffer
  /**
   * How many certificates of each profile end before `until` (profiles with none left out), and
   * when that profile's certificate list was fetched (epoch ms): the age of those rows.
   */
  expiringCounts(until: string): { profileId: string; count: number; fetchedAt: number | null }[]
  /** Positions `offset` to `offset + limit` of the expiringJson list, written the same way. */
  expiringWindowJson(until: string, offset: number, limit: number): string
  /** Certificates whose search text holds `needle` (lowercase), by name, at most `limit`. */
  searchJson(needle: string, limit: number): Buffer
}

const DAY_MS = 24 * 60 * 60 * 1000
const EMPTY_ARRAY = Buffer.from('[]')

/** One item of the Expiring list, written by SQLite around a stored row text (alias `r`). */
const EXPIRING_ITEM = `'{"profileId":' || json_quote(r.profile_id) || ',"row":' || r.row_json || '}'`

/**
 * The whole Expiring list on a connection: main's (createOverviewReads) or the list worker's,
 * which writes the list's export files off main's loop (workers/list-worker.ts).
 */
export function expiringListOn(db: Database.Database): { json(until: string): Buffer } {
  // `{"profileId":…,"row":…}` written around the stored row texts: no row is parsed here.
  // Ordered by the expiry index; rows without a date are not in its range (NULL < x is NULL).
  const rows = db.prepare<[until: string], { items_json: Buffer | null }>(
    `SELECT CAST('[' || group_concat(item, ',') || ']' AS BLOB) AS items_json FROM (
        SELECT ${EXPIRING_ITEM} AS item FROM certificate_rows AS r
          INDEXED BY certificate_rows_by_not_after
         WHERE r.not_after < ? ORDER BY r.not_after, r.profile_id, r.id)`,
  )
  return { json: (until) => rows.get(until)?.items_json ?? EMPTY_ARRAY }
}

export function createOverviewReads(cache: Cache): OverviewReads {
  return cache.extend((db) => {
    // Totals are kept by triggers (schema v15): counting at read time walks a whole index,
    // ~100 ms for 100,000 rows on a cold start. The expiry figures read only the range of the
    // expiry index that ends before now + 30 days (without statistics SQLite may prefer a scan
    // for the GROUP BY, hence INDEXED BY): 30,000 of 100,000 rows in ~10 ms.
    const totals = db.prepare<[], { profile_id: string; total: number }>(
      'SELECT profile_id, total FROM certificate_counts WHERE total > 0',
    )
    const expiring = db.prepare<
      { now: string; in7: string; in30: string },
      { profile_id: string; expired: number; within7: number; within30: number }
    >(
      `SELECT profile_id,
              sum(not_after <= @now) AS expired,
              sum(not_after > @now AND not_after < @in7) AS within7,
              sum(not_after > @now) AS within30
         FROM certificate_rows INDEXED BY certificate_rows_by_not_after
        WHERE not_after < @in30
        GROUP BY profile_id`,
    )
    const refreshed = db.prepare<[], { profile_id: string; fetched_at: number }>(
      `SELECT profile_id, max(fetched_at) AS fetched_at FROM (
          SELECT profile_id, fetched_at FROM certificate_lists
          UNION ALL SELECT profile_id, fetched_at FROM cached_lists
        ) GROUP BY profile_id`,
    )
    const incidents = db.prepare<[], { profile_id: string; item_json: string }>(
      `SELECT i.profile_id, i.item_json FROM cached_items i
         WHERE i.kind = 'incidents' ORDER BY i.profile_id, i.position`,
    )
    const incidentLists = db.prepare<[], { profile_id: string }>(
      `SELECT profile_id FROM cached_lists WHERE kind = 'incidents'`,
    )
    const running = db.prepare<[], { profile_id: string; running: number }>(
      `SELECT profile_id, count(*) AS running FROM transfers
         WHERE state = 'running' GROUP BY profile_id`,
    )
    const expiringRows = expiringListOn(db)
    const expiringCounts = db.prepare<[until: string], { profileId: string; count: number }>(
      `SELECT profile_id AS profileId, count(*) AS count FROM certificate_rows
         INDEXED BY certificate_rows_by_not_after WHERE not_after < ? GROUP BY profile_id`,
    )
    // A window anywhere in the list: the keys are stepped over on the covering index (its
    // entries hold the primary key), and only the window's rows are read from the table. With
    // row_json in the same SELECT, SQLite reads every row it steps over: 225 ms at row 99,900
    // of 100,000 instead of 5 ms. The co-routine yields keys in index order; the join keeps it.
    const listFetched = db.prepare<[], { profile_id: string; fetched_at: number }>(
      'SELECT profile_id, fetched_at FROM certificate_lists',
    )
    const expiringWindow = db.prepare<
      [until: string, limit: number, offset: number],
      { items_json: string | null }
    >(
      `SELECT '[' || group_concat(${EXPIRING_ITEM}, ',') || ']' AS items_json
         FROM (SELECT profile_id, id FROM certificate_rows
                 INDEXED BY certificate_rows_by_not_after
                WHERE not_after < ? ORDER BY not_after, profile_id, id LIMIT ? OFFSET ?) AS k
         CROSS JOIN certificate_rows AS r ON r.profile_id = k.profile_id AND r.id = k.id`,
    )
    const searchRows = db.prepare<[needle: string, limit: number], { items_json: Buffer | null }>(
      `SELECT CAST('[' || group_concat(item, ',') || ']' AS BLOB) AS items_json FROM (
          SELECT '{"profileId":' || json_quote(profile_id) || ',"row":' || row_json || '}' AS item
            FROM certificate_rows WHERE instr(search_text, ?) > 0
           ORDER BY search_text, profile_id LIMIT ?)`,
    )

    return {
      certificateCounts(now) {
        const counts = new Map<string, CertificateCounts>()
        for (const { profile_id, total } of totals.all()) {
          counts.set(profile_id, { total, expired: 0, within7: 0, within30: 0 })
        }
        const iso = (at: number) => new Date(at).toISOString()
        const bounds = { now: iso(now), in7: iso(now + 7 * DAY_MS), in30: iso(now + 30 * DAY_MS) }
        for (const row of expiring.all(bounds)) {
          const entry = counts.get(row.profile_id)
          if (entry === undefined) continue
          entry.expired = row.expired
          entry.within7 = row.within7
          entry.within30 = row.within30
        }
        return counts
      },
      lastRefresh() {
        return new Map(refreshed.all().map((row) => [row.profile_id, row.fetched_at]))
      },
      incidentItems() {
        // A profile whose status page was read with no incidents has a list and no items.
        const byProfile = new Map<string, unknown[]>(
          incidentLists.all().map((row) => [row.profile_id, []]),
        )
        for (const { profile_id, item_json } of incidents.all()) {
          const item = parseJson(item_json)
          if (item !== undefined) byProfile.get(profile_id)?.push(item)
        }
        return byProfile
      },
      transfersRunning() {
        return new Map(running.all().map((row) => [row.profile_id, row.running]))
      },
      expiringJson: expiringRows.json,
      expiringCounts(until) {
        const fetched = new Map(listFetched.all().map((row) => [row.profile_id, row.fetched_at]))
        return expiringCounts
          .all(until)
          .map((entry) => ({ ...entry, fetchedAt: fetched.get(entry.profileId) ?? null }))
      },
      expiringWindowJson(until, offset, limit) {
        return expiringWindow.get(until, limit, offset)?.items_json ?? '[]'
      },
      searchJson(needle, limit) {
        return searchRows.get(needle, limit)?.items_json ?? EMPTY_ARRAY
      },
    }
  })
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
