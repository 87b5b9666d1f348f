import type { Cache } from './index'

/*
 * The Overview's reads (issue 21), over every profile's caches at once: one statement per kind
 * of figure, each grouped by profile, so ten profiles cost what one does. Certificate expiry is
 * read through the index of schema v14 (`json_extract(row_json, '$.notAfter')`, spelled as the
 * index spells it): the rows ending before a date are a range of that index, not a pass over
 * every row's JSON. Read only: nothing here writes, so nothing is announced.
 */

/** As schema v14's index spells it; any other spelling is not matched to the index. */
const NOT_AFTER = `json_extract(row_json, '$.notAfter')`

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
  /** The keys of the same list, in its order, from the expiry index alone (no row is read). */
  expiringKeys(until: string): ExpiringKeys
  /** These certificates, as expiringJson writes them (a key no longer cached is left out). */
  rowsJson(profileIds: readonly string[], ids: readonly string[]): string
  /** Certificates whose search text holds `needle` (lowercase), by name, at most `limit`. */
  searchJson(needle: string, limit: number): Buffer
}

/** Parallel arrays: the i-th certificate is `ids[i]` of profile `profileIds[i]`. */
export interface ExpiringKeys {
  profileIds: string[]
  ids: string[]
}

const DAY_MS = 24 * 60 * 60 * 1000
const EMPTY_ARRAY = Buffer.from('[]')

export function createOverviewReads(cache: Cache): OverviewReads {
  return cache.extend((db) => {
    // Totals are counted on the narrow folder index, never on the wide rows (left to itself,
    // SQLite scans the table: 100,000 rows, ~150 ms); the expiry figures read only the range of
    // the expiry index that ends before now + 30 days (without statistics SQLite may prefer a
    // scan for the GROUP BY, hence INDEXED BY).
    const totals = db.prepare<[], { profile_id: string; total: number }>(
      `SELECT profile_id, count(*) AS total FROM certificate_rows
         INDEXED BY certificate_rows_by_folder_path GROUP BY profile_id`,
    )
    const expiring = db.prepare<
      { now: string; in7: string; in30: string },
      { profile_id: string; expired: number; within7: number; within30: number }
    >(
      `SELECT profile_id,
              sum(not_after <= @now) AS expired,
              sum(not_after > @now AND not_after < @in7) AS within7,
              sum(not_after > @now) AS within30
         FROM (SELECT profile_id, ${NOT_AFTER} AS not_after FROM certificate_rows
                INDEXED BY certificate_rows_by_expiry WHERE ${NOT_AFTER} < @in30)
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
    // `{"profileId":…,"row":…}` written around the stored row texts: no row is parsed here.
    // Ordered by the expiry index; rows without a date are not in its range (NULL < x is NULL).
    const expiringRows = db.prepare<[until: string], { items_json: Buffer | null }>(
      `SELECT CAST('[' || group_concat(item, ',') || ']' AS BLOB) AS items_json FROM (
          SELECT '{"profileId":' || json_quote(profile_id) || ',"row":' || row_json || '}' AS item
            FROM certificate_rows WHERE ${NOT_AFTER} < ?
           ORDER BY ${NOT_AFTER}, profile_id, id)`,
    )
    const expiringKeys = db
      .prepare<[until: string], [string, string]>(
        `SELECT profile_id, id FROM certificate_rows INDEXED BY certificate_rows_by_expiry
           WHERE ${NOT_AFTER} < ? ORDER BY ${NOT_AFTER}, profile_id, id`,
      )
      .raw(true)
    const rowJson = db
      .prepare<[profileId: string, id: string], [string]>(
        'SELECT row_json FROM certificate_rows WHERE profile_id = ? AND id = ?',
      )
      .raw(true)
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
      expiringJson(until) {
        return expiringRows.get(until)?.items_json ?? EMPTY_ARRAY
      },
      expiringKeys(until) {
        const keys: ExpiringKeys = { profileIds: [], ids: [] }
        for (const [profileId, id] of expiringKeys.iterate(until)) {
          keys.profileIds.push(profileId)
          keys.ids.push(id)
        }
        return keys
      },
      rowsJson(profileIds, ids) {
        const items: string[] = []
        ids.forEach((id, index) => {
          const profileId = profileIds[index] as string
          const row = rowJson.get(profileId, id)
          // Row texts we wrote ourselves, put in as they are stored: no row is parsed here.
          if (row) items.push(`{"profileId":${JSON.stringify(profileId)},"row":${row[0]}}`)
        })
        return `[${items.join(',')}]`
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
