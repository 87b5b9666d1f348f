import { listCompletenessSchema } from '../../shared/bridge'
import type {
  CertificateFilter,
  CertificateFolder,
  CertificateRow,
  ListCompleteness,
} from '../../shared/bridge'
import type Database from 'better-sqlite3'
import {
  defaultSortLocale,
  firstInOrder,
  nameThenIdOrder,
  type NamedRow,
} from '../../shared/certificate-order'
import type { Cache } from './index'
import { forgetWhenProfileCleared } from './profile-cleared'

/*
 * The certificate list in SQLite (schema v8, its folder index v9, the completeness note v11):
 * one row per certificate and profile, keeping both the compact row the list shows and every
 * field the service sent (for the details pane).
 *
 * A refresh may be filtered (op 16's type, status, search, showSystem go to the service). Its
 * answer replaces exactly the cached rows the same filter selects here, and leaves the others:
 * an unfiltered refresh (with system certificates) replaces the whole list, a filtered one
 * cannot wipe what it did not ask about, and a certificate deleted on the service disappears on
 * the next refresh whose filter covers it. Offline, the same filter reads the cache.
 */

export interface FirstRows {
  count: number
  locale: string
}

export interface FirstRowsJson {
  rows: Buffer
  /** Rows matching the filter. */
  of: number
}

export interface CertificateCacheEntry {
  row: CertificateRow
  /** Every field the service returned for it. */
  item: Record<string, unknown>
}

export interface CertificateCache {
  /**
   * Rows matching the filter, ordered by name ignoring case (the list sorts them as the user
   * asks; this order only makes its default sort cheap).
   */
  list(profileId: string, filter: CertificateFilter): CertificateRow[]
  /**
   * The same rows as a JSON array, as SQLite assembles it from the stored row texts (UTF-8
   * bytes, never parsed here): what the web transport sends as it is.
   */
  listJson(profileId: string, filter: CertificateFilter): Buffer
  /** How many rows match the filter (the screen's "4 system hidden" is a difference of two). */
  count(profileId: string, filter: CertificateFilter): number
  /**
   * The first `count` rows matching the filter in the list's default order as the screen sorts
   * it in `locale` (certificate-order.ts), as a JSON array, and how many match; null when no
   * more than `count` match (the whole list is the answer then).
   */
  firstRowsJson(
    profileId: string,
    filter: CertificateFilter,
    first: FirstRows,
  ): FirstRowsJson | null
  /**
   * The locale in which the rows' places in the default order were worked out (the list
   * worker's rankNames), so `firstRowsJson` in that locale reads by index; null when none, or
   * a write has voided them.
   */
  rankedIn(profileId: string): string | null
  /**
   * Replaces the rows `filter` selects with `entries`, in one transaction, and keeps the
   * refresh's completeness note (null: nothing to say) beside its date.
   */
  replace(
    profileId: string,
    filter: CertificateFilter,
    entries: CertificateCacheEntry[],
    fetchedAt: number,
    completeness?: ListCompleteness | null,
  ): void
  /**
   * Announces a replace the list worker committed on its own connection (a refresh: see
   * features/certificates/index.ts), as `replace` announces its own.
   */
  replacedElsewhere(profileId: string): void
  /** Adds or updates these rows alone (an upload's answer), leaving the rest and the date. */
  put(profileId: string, entries: CertificateCacheEntry[]): void
  item(profileId: string, id: string): Record<string, unknown> | null
  /** Epoch ms of the last refresh; null when never. */
  fetchedAt(profileId: string): number | null
  /** The last refresh's note on a list that may be incomplete; null when none. */
  completeness(profileId: string): ListCompleteness | null
  folders(profileId: string): CertificateFolder[]
  clear(profileId: string): void
}

// certificate_counts is written by triggers on certificate_rows (schema v15).
const TABLES = [
  'certificate_rows',
  'certificate_items',
  'certificate_lists',
  'certificate_counts',
  'certificate_name_ranks',
  'certificate_name_order',
] as const
const EMPTY_ARRAY = Buffer.from('[]')

interface FilterParams {
  profileId: string
  type: string | null
  status: string | null
  search: string | null
  showSystem: 0 | 1
}

/** Locales whose order is kept built (a page names one; more means something odd is asking). */
const MAX_LOCALES = 8

/*
 * ICU loads a locale's collation data at its first Collator (~13 ms of main's loop on the 2-core
 * machine): each locale's order is built once, and main's cache builds its process's own soon
 * after it opens (createCertificateCache), while the page loads, so the first screenful the
 * page's first calls ask for does not pay for it.
 */
const orders = new Map<string, (a: NamedRow, b: NamedRow) => number>()
function orderIn(locale: string) {
  let order = orders.get(locale)
  if (order === undefined) {
    if (orders.size >= MAX_LOCALES) orders.clear()
    order = nameThenIdOrder(locale)
    orders.set(locale, order)
  }
  return order
}

/** Same rule as the service's (sandbox): substring of name, common name or SANs, any case. */
const MATCHES = `profile_id = @profileId
  AND (@type IS NULL OR type = @type)
  AND (@status IS NULL OR status = @status)
  AND (@showSystem = 1 OR is_system = 0)
  AND (@search IS NULL OR instr(search_text, @search) > 0)`

/** The certificate tables' reads and writes on one connection (no announcements). */
export interface CertificateStatements extends Pick<
  CertificateCache,
  'put' | 'clear' | 'listJson' | 'count' | 'firstRowsJson' | 'rankedIn'
> {
  replace(
    profileId: string,
    filter: CertificateFilter,
    entries: CertificateCacheEntry[],
    fetchedAt: number,
    completeness: ListCompleteness | null,
  ): void
  /**
   * Works out every row's place in the default order as `locale` sorts it (schema v17), so
   * `firstRowsJson` reads the first rows by index. The list worker's job: ~45 ms for 10,000.
   */
  rankNames(profileId: string, locale: string): void
  meta(profileId: string): { fetched_at: number; completeness_json: string | null } | undefined
  item(profileId: string, id: string): { item_json: string } | undefined
  folders(profileId: string): { folder_id: string; folder_path_json: string }[]
}

/**
 * Whether a profile's certificate list was ever read (a refresh wrote its date), on main's
 * connection: the Overview's "not read yet" and background refresh's first read ask it. One
 * statement, not the list's whole set.
 */
export function certificateListReadOn(db: Database.Database): (profileId: string) => boolean {
  const listed = db.prepare<[profileId: string], { found: 1 }>(
    'SELECT 1 AS found FROM certificate_lists WHERE profile_id = ?',
  )
  return (profileId) => listed.get(profileId) !== undefined
}

/**
 * The certificate tables' statements on one connection: main's (createCertificateCache) or the
 * list worker's, which writes a refresh's 10,000 rows off main's loop (workers/list-worker.ts).
 */
export function certificateStatementsOn(db: Database.Database): CertificateStatements {
  // One JSON array built by SQLite: one parse for 10,000 rows instead of 10,000. In the
  // list's default order as near as SQLite can tell (search_text begins with the lowercased
  // name): the renderer still sorts with its own collation, and an array that is already
  // (nearly) in order sorts in linear time, 4 ms instead of 50 ms for 10,000 rows. The order
  // is the subquery's, which group_concat keeps in practice; its own ORDER BY would sort
  // copies of the rows at twice the cost, and nothing depends on the order being exact.
  // As a BLOB: the bytes go to the web transport without becoming a string (listJson).
  const selectRows = db.prepare<[FilterParams], { rows_json: Buffer | null }>(
    `SELECT CAST('[' || group_concat(row_json, ',') || ']' AS BLOB) AS rows_json
       FROM (SELECT row_json FROM certificate_rows WHERE ${MATCHES} ORDER BY search_text)`,
  )
  /**
   * `SELECT columns` over the rows a filter selects. The screen's first filter (no type, status
   * or search) is read through a plain WHERE, which SQLite serves from the covering index of
   * schema v16 (a few ms for 10,000 names on a cold start, where the rows themselves took ~50);
   * another filter reads the rows MATCHES selects. For the names the default order reads, and
   * for how many match.
   */
  function selectMatching<Row>(
    columns: string,
  ): (params: FilterParams) => { all(): Row[]; get(): Row | undefined } {
    const matching = db.prepare<[FilterParams], Row>(
      `SELECT ${columns} FROM certificate_rows WHERE ${MATCHES}`,
    )
    const all = db.prepare<[profileId: string], Row>(
      `SELECT ${columns} FROM certificate_rows WHERE profile_id = ?`,
    )
    const withoutSystem = db.prepare<[profileId: string], Row>(
      `SELECT ${columns} FROM certificate_rows WHERE profile_id = ? AND is_system = 0`,
    )
    return (params) => {
      if (params.type !== null || params.status !== null || params.search !== null) {
        return { all: () => matching.all(params), get: () => matching.get(params) }
      }
      const covered = params.showSystem === 1 ? all : withoutSystem
      return { all: () => covered.all(params.profileId), get: () => covered.get(params.profileId) }
    }
  }
  const namesMatching = selectMatching<NamedRow>(`id, coalesce(name, '') AS name`)
  const countMatching = selectMatching<{ matching: number }>('count(*) AS matching')
  const selectRowJson = db.prepare<[profileId: string, id: string], { row_json: string }>(
    'SELECT row_json FROM certificate_rows WHERE profile_id = ? AND id = ?',
  )
  // The places in the default order (schema v17), and the locale they were worked out in.
  const selectRankLocale = db.prepare<[profileId: string], { locale: string }>(
    'SELECT locale FROM certificate_name_ranks WHERE profile_id = ?',
  )
  const forgetRanks = db.prepare<[profileId: string]>(
    'DELETE FROM certificate_name_ranks WHERE profile_id = ?',
  )
  const keepRankLocale = db.prepare<[profileId: string, locale: string]>(
    `INSERT INTO certificate_name_ranks (profile_id, locale) VALUES (?, ?)
       ON CONFLICT (profile_id) DO UPDATE SET locale = excluded.locale`,
  )
  const deleteOrder = db.prepare<[profileId: string]>(
    'DELETE FROM certificate_name_order WHERE profile_id = ?',
  )
  const insertOrder = db.prepare<[profileId: string, rank: number, id: string]>(
    'INSERT INTO certificate_name_order (profile_id, name_rank, id) VALUES (?, ?, ?)',
  )
  // The rows in their places, the filter applied to each as it comes: ~100 rows read for the
  // screen's first filter. (The subquery keeps `profile_id` in MATCHES the row's own.)
  const selectFirstRanked = db.prepare<[FilterParams & { count: number }], { row_json: string }>(
    `SELECT row_json FROM certificate_rows
       JOIN (SELECT id, name_rank FROM certificate_name_order WHERE profile_id = @profileId)
         USING (id)
       WHERE ${MATCHES} ORDER BY name_rank LIMIT @count`,
  )
  const deleteMatchingItems = db.prepare<[FilterParams]>(
    `DELETE FROM certificate_items WHERE profile_id = @profileId
       AND id IN (SELECT id FROM certificate_rows WHERE ${MATCHES})`,
  )
  const deleteMatching = db.prepare<[FilterParams]>(`DELETE FROM certificate_rows WHERE ${MATCHES}`)
  const upsert = db.prepare<
    [
      {
        profile_id: string
        id: string
        type: string | null
        status: string | null
        is_system: 0 | 1
        folder_id: string | null
        folder_path_json: string
        search_text: string
        not_after: string | null
        name: string
        row_json: string
      },
    ]
  >(
    `INSERT INTO certificate_rows (profile_id, id, type, status, is_system, folder_id,
         folder_path_json, search_text, not_after, name, row_json)
       VALUES (@profile_id, @id, @type, @status, @is_system, @folder_id,
         @folder_path_json, @search_text, @not_after, @name, @row_json)
       ON CONFLICT (profile_id, id) DO UPDATE SET
         type = excluded.type, status = excluded.status, is_system = excluded.is_system,
         folder_id = excluded.folder_id, folder_path_json = excluded.folder_path_json,
         search_text = excluded.search_text, not_after = excluded.not_after,
         name = excluded.name, row_json = excluded.row_json`,
  )
  const upsertItem = db.prepare<[profileId: string, id: string, itemJson: string]>(
    `INSERT INTO certificate_items (profile_id, id, item_json) VALUES (?, ?, ?)
       ON CONFLICT (profile_id, id) DO UPDATE SET item_json = excluded.item_json`,
  )
  const upsertMeta = db.prepare<
    [profileId: string, fetchedAt: number, completenessJson: string | null]
  >(
    `INSERT INTO certificate_lists (profile_id, fetched_at, completeness_json) VALUES (?, ?, ?)
       ON CONFLICT (profile_id) DO UPDATE SET fetched_at = excluded.fetched_at,
         completeness_json = excluded.completeness_json`,
  )
  const selectMeta = db.prepare<
    [profileId: string],
    { fetched_at: number; completeness_json: string | null }
  >('SELECT fetched_at, completeness_json FROM certificate_lists WHERE profile_id = ?')
  const selectItem = db.prepare<[profileId: string, id: string], { item_json: string }>(
    'SELECT item_json FROM certificate_items WHERE profile_id = ? AND id = ?',
  )
  const selectFolders = db.prepare<
    [profileId: string],
    { folder_id: string; folder_path_json: string }
  >(
    `SELECT folder_id, max(folder_path_json) AS folder_path_json FROM certificate_rows
       WHERE profile_id = ? AND folder_id IS NOT NULL GROUP BY folder_id`,
  )
  const deleteRows = db.prepare<[profileId: string]>(
    'DELETE FROM certificate_rows WHERE profile_id = ?',
  )
  const deleteItems = db.prepare<[profileId: string]>(
    'DELETE FROM certificate_items WHERE profile_id = ?',
  )
  const deleteMeta = db.prepare<[profileId: string]>(
    'DELETE FROM certificate_lists WHERE profile_id = ?',
  )

  const putEntries = (profileId: string, entries: CertificateCacheEntry[]) => {
    for (const { row, item } of entries) {
      upsert.run({
        profile_id: profileId,
        id: row.id,
        type: row.type,
        status: row.status,
        is_system: row.isSystem ? 1 : 0,
        folder_id: row.folderId,
        folder_path_json: JSON.stringify(row.folderPath),
        search_text: searchTextOf(row, item),
        // As toISOString wrote it (features/certificates/rows.ts): text order is time order.
        not_after: row.notAfter,
        name: row.name,
        row_json: JSON.stringify(row),
      })
      upsertItem.run(profileId, row.id, JSON.stringify(item))
    }
  }
  const replace = db.transaction(
    (
      profileId: string,
      filter: CertificateFilter,
      entries: CertificateCacheEntry[],
      fetchedAt: number,
      completeness: ListCompleteness | null,
    ) => {
      const params = filterParams(profileId, filter)
      deleteMatchingItems.run(params)
      deleteMatching.run(params)
      putEntries(profileId, entries)
      forgetRanks.run(profileId)
      const note = completeness === null ? null : JSON.stringify(completeness)
      upsertMeta.run(profileId, Math.round(fetchedAt), note)
    },
  )
  // Any write voids the profile's places in the default order (rankNames works them out again).
  const put = db.transaction((profileId: string, entries: CertificateCacheEntry[]) => {
    putEntries(profileId, entries)
    forgetRanks.run(profileId)
  })
  const clear = db.transaction((profileId: string) => {
    deleteRows.run(profileId)
    deleteItems.run(profileId)
    deleteMeta.run(profileId)
    forgetRanks.run(profileId)
    deleteOrder.run(profileId)
  })
  const rankNames = db.transaction((profileId: string, locale: string) => {
    const everyRow = filterParams(profileId, { showSystem: true })
    const named = namesMatching(everyRow).all().sort(orderIn(locale))
    deleteOrder.run(profileId)
    named.forEach((row, rank) => insertOrder.run(profileId, rank, row.id))
    keepRankLocale.run(profileId, locale)
  })

  const listJson = (profileId: string, filter: CertificateFilter): Buffer =>
    // Texts we wrote with JSON.stringify. Should one be unreadable (a damaged file), the
    // page's parse fails and the screen says so; a refresh rewrites the rows.
    selectRows.get(filterParams(profileId, filter))?.rows_json ?? EMPTY_ARRAY

  // One read transaction: the names and the rows picked from them are of the same snapshot,
  // whatever the list worker commits meanwhile on its own connection.
  const firstRowsJson = db.transaction(
    (profileId: string, filter: CertificateFilter, first: FirstRows): FirstRowsJson | null => {
      const params = filterParams(profileId, filter)
      if (selectRankLocale.get(profileId)?.locale === first.locale) {
        // Places worked out in this locale, after the last write: an indexed read.
        const of = countMatching(params).get()?.matching ?? 0
        if (of <= first.count) return null
        const texts = selectFirstRanked.all({ ...params, count: first.count })
        return { rows: Buffer.from(`[${texts.map((row) => row.row_json).join(',')}]`), of }
      }
      const named = namesMatching(params).all()
      if (named.length <= first.count) return null
      const texts = firstInOrder(named, first.count, orderIn(first.locale))
        .map((row) => selectRowJson.get(profileId, row.id)?.row_json)
        .filter((text) => text !== undefined)
      return { rows: Buffer.from(`[${texts.join(',')}]`), of: named.length }
    },
  )

  return {
    firstRowsJson: (profileId, filter, first) => firstRowsJson(profileId, filter, first),
    // Immediate: the write lock from the start, so no write lands between reading the names and
    // keeping their places (a deferred transaction would fail to upgrade after one).
    rankNames: (profileId, locale) => rankNames.immediate(profileId, locale),
    rankedIn: (profileId) => selectRankLocale.get(profileId)?.locale ?? null,
    replace: (profileId, filter, entries, fetchedAt, completeness) =>
      replace(profileId, filter, entries, fetchedAt, completeness),
    put: (profileId, entries) => put(profileId, entries),
    clear: (profileId) => clear(profileId),
    listJson,
    count: (profileId, filter) =>
      countMatching(filterParams(profileId, filter)).get()?.matching ?? 0,
    meta: (profileId) => selectMeta.get(profileId),
    item: (profileId, id) => selectItem.get(profileId, id),
    folders: (profileId) => selectFolders.all(profileId),
  }
}

export function createCertificateCache(cache: Cache): CertificateCache {
  setTimeout(() => orderIn(defaultSortLocale()), 0).unref()
  const store = cache.extend((db, notify) => {
    const statements = certificateStatementsOn(db)
    const { replace, put, clear, listJson } = statements

    return {
      list(profileId, filter) {
        const rows = parseJson(listJson(profileId, filter).toString('utf8'))
        // Rows we wrote ourselves; the renderer checks each against the contract on arrival.
        return Array.isArray(rows) ? (rows as CertificateRow[]) : []
      },
      listJson,
      count: statements.count,
      firstRowsJson: statements.firstRowsJson,
      rankedIn: statements.rankedIn,
      replace(profileId, filter, entries, fetchedAt, completeness = null) {
        replace(profileId, filter, entries, fetchedAt, completeness)
        notify({ name: 'replaceCertificates', tables: TABLES, profileId })
      },
      replacedElsewhere(profileId) {
        notify({ name: 'replaceCertificates', tables: TABLES, profileId })
      },
      put(profileId, entries) {
        put(profileId, entries)
        notify({ name: 'putCertificates', tables: TABLES, profileId })
      },
      item(profileId, id) {
        const found = statements.item(profileId, id)
        const item = found === undefined ? undefined : parseJson(found.item_json)
        return item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : null
      },
      fetchedAt(profileId) {
        return statements.meta(profileId)?.fetched_at ?? null
      },
      completeness(profileId) {
        const text = statements.meta(profileId)?.completeness_json ?? null
        // Written by us; a note that no longer reads (a damaged file) is left unsaid.
        const note = text === null ? null : listCompletenessSchema.safeParse(parseJson(text))
        return note?.success ? note.data : null
      },
      folders(profileId) {
        return statements.folders(profileId).map((found) => ({
          id: found.folder_id,
          path: stringArray(parseJson(found.folder_path_json)),
        }))
      },
      clear(profileId) {
        clear(profileId)
        notify({ name: 'clearCertificates', tables: TABLES, profileId })
      },
    } satisfies CertificateCache
  })
  // A removed profile's cached lists go with it (the cache announces clearProfile).
  forgetWhenProfileCleared(cache, (profileId) => store.clear(profileId))
  return store
}

function filterParams(profileId: string, filter: CertificateFilter): FilterParams {
  const text = (value: string | undefined) =>
    value === undefined || value.trim() === '' ? null : value.trim()
  const search = text(filter.search)
  return {
    profileId,
    type: text(filter.type),
    status: text(filter.status),
    search: search === null ? null : search.toLowerCase(),
    showSystem: filter.showSystem === true ? 1 : 0,
  }
}

function searchTextOf(row: CertificateRow, item: Record<string, unknown>): string {
  const altNames = Array.isArray(item['subjectAltNames']) ? item['subjectAltNames'] : []
  return [row.name, row.commonName ?? '', ...altNames.filter((name) => typeof name === 'string')]
    .join('\n')
    .toLowerCase()
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : []
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    // A row we cannot read is skipped: the next refresh rewrites it.
    return undefined
  }
}
