import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import type { ActivityEntry, Notice } from '../../shared/bridge'
import type { CacheTopic } from '../../shared/bridge/cache-topics'
import { activityEntrySchema } from '../../shared/bridge'
import {
  ensurePrivateFile,
  makePrivateFolder,
  PRIVATE_FILE_MODE,
  tightenPrivateFile,
} from '../data-folder'
import { createListRowsWriter } from './list-rows'
import type { JsonRow } from './list-rows'
import { createListWindows } from './list-windows'
import type { ListWindow, ListWindowQuery } from './list-windows'
import { migrate, NewerSchemaError } from './migrations'
import { prepareStatements } from './statements'
import type { ActivityRow, Statements } from './statements'

export { LATEST_VERSION, MIGRATION_1_SQL, MIGRATION_2_SQL, MIGRATION_3_SQL } from './migrations'

/*
 * The main process's SQLite cache (better-sqlite3, one file, WAL): the last lists fetched per
 * profile, so a screen renders at once and stays readable offline, and the activity log of
 * every write. Profiles and tokens are NOT here: a damaged cache is moved aside and rebuilt
 * without losing anything the user cannot fetch again.
 */

export type { ListWindow, ListWindowQuery } from './list-windows'
export { MAX_FILTER_WORDS, SORT_FIELD_PATTERN } from './list-windows'

export const CACHED_LIST_KINDS = ['sessions', 'certificates', 'incidents', 'inference'] as const
export type CachedListKind = (typeof CACHED_LIST_KINDS)[number]

/** What a store announces after a committed write. */
export interface CacheWrite {
  /** The write that happened, e.g. 'putList'. */
  name: string
  /** Main's tables: a table renamed without its topics below is a type error at every write. */
  tables: readonly CacheTable[]
  /** Whose rows changed; null when the change is not one profile's. */
  profileId: string | null
}

/** A write as listeners (and the renderer, as `cache.changed`) get it: with what it concerns. */
export interface CacheChange extends CacheWrite {
  topics: CacheTopic[]
}

/**
 * The topics each table's writes concern: every table a store writes is a key (the test that
 * lists the cache's tables checks it). The generic list tables hold the sessions, inference and
 * incidents lists; certificates have had their own tables since schema v8.
 */
const TOPICS_OF_TABLE = {
  cached_lists: ['sessions', 'inference', 'incidents'],
  cached_items: ['sessions', 'inference', 'incidents'],
  activity: ['activity'],
  certificate_rows: ['certificates'],
  certificate_items: ['certificates'],
  certificate_lists: ['certificates'],
  certificate_counts: ['certificates'],
  certificate_name_ranks: ['certificates'],
  certificate_name_order: ['certificates'],
  certificate_page_limits: ['certificates'],
  operation_snapshots: ['snapshots'],
  database_rotations: ['rotations'],
  transfers: ['transfers'],
  sql_tabs: ['sqlTabs'],
  sql_history: ['sqlHistory'],
  sql_schema_cache: ['sqlSchema'],
  sql_service_limits: ['sqlLimits'],
  recent_inputs: ['recents'],
  known_objects: ['knownObjects'],
  expiry_notifications: ['certificates'],
} as const satisfies Record<string, readonly CacheTopic[]>

export type CacheTable = keyof typeof TOPICS_OF_TABLE
export const CACHE_TABLES = Object.keys(TOPICS_OF_TABLE) as CacheTable[]

/** The topics a write to these tables concerns, each once (a name main has not: none). */
export function topicsOfTables(tables: readonly CacheTable[]): CacheTopic[] {
  const known = tables.filter((table) => Object.hasOwn(TOPICS_OF_TABLE, table))
  return [...new Set(known.flatMap((table) => TOPICS_OF_TABLE[table]))]
}

export type { JsonRow } from './list-rows'

export interface CachedList {
  items: unknown[]
  /** Epoch ms of the fetch that produced the items. */
  fetchedAt: number
}

export interface Cache {
  /** Replaces the profile's list of that kind, in one transaction. */
  putList(profileId: string, kind: CachedListKind, items: unknown[], fetchedAt: number): void
  /**
   * Like putList, for rows kept as the service's own JSON text (a big list read row by row):
   * one transaction; if the iterator throws (a row broke the contract), nothing changes.
   * Returns the number of rows stored.
   */
  putListRows(
    profileId: string,
    kind: CachedListKind,
    rows: Iterable<JsonRow>,
    fetchedAt: number,
  ): number
  /**
   * Announces a list the list worker wrote to this file over its own connection
   * (src/main/workers): the change `putListRows` announces.
   */
  listWritten(profileId: string, kind: CachedListKind): void
  getList(profileId: string, kind: CachedListKind): CachedList | null
  /** When the list was fetched; null when it never was. */
  listFetchedAt(profileId: string, kind: CachedListKind): number | null
  /** A window of the list, filtered and sorted in SQLite, with its counts (JSON texts). */
  listWindow(profileId: string, kind: CachedListKind, query: ListWindowQuery): ListWindow
  /** The first cached item whose `field` equals `value`, parsed; undefined when none. */
  findListItem(
    profileId: string,
    kind: CachedListKind,
    field: string,
    value: string | number | boolean,
  ): unknown
  /** One item of a cached list by its `id` field; undefined when not cached. */
  getItem(profileId: string, kind: CachedListKind, itemId: string): unknown
  /** Forgets the profile's cached lists (its activity stays: it is a record of what was done). */
  clearProfile(profileId: string): void
  recordActivity(entry: Omit<ActivityEntry, 'id'>): ActivityEntry
  /**
   * Newest first. Without profileId: every profile's entries (the Activity screen's "all");
   * with operation or outcome: only the entries of that operation or outcome.
   */
  listActivity(options: {
    profileId?: string
    operation?: string
    outcome?: 'success' | 'error'
    limit: number
  }): ActivityEntry[]
  /** Called after each committed write; returns the unsubscribe function. */
  onChange(listener: (change: CacheChange) => void): () => void
  /**
   * For an area's own store (transfers, SQL history, recents...): `build` prepares its named
   * statements on this file once and gets `notify` to announce its committed writes. Only
   * store modules under src/main/cache call this; features use the stores it returns.
   */
  extend<T>(build: (db: Database.Database, notify: (write: CacheWrite) => void) => T): T
  close(): void
}

export interface OpenedCache {
  cache: Cache
  /** What the user should be told about opening (a damaged file moved aside). */
  notices: Notice[]
}

export const CACHE_FILE_NAME = 'cache.sqlite'
/** SQLite's own page cache of the file, in KiB. */
const PAGE_CACHE_KIB = 2000
const MAX_ACTIVITY_LIMIT = 10_000

/**
 * Beside the cache file while a session has it open (`cache.sqlite.open`). It is removed at a
 * clean close, and only when the integrity check run at that close passed; found at open, it
 * means the last session crashed, was killed, or ended with a failed check, and the file is
 * checked before use. See docs/ARCHITECTURE-NOTES.md, "Startup: the cached list painted fast"
 * (the integrity check runs at a clean close).
 */
export const OPEN_MARKER_SUFFIX = '.open'
/** The files SQLite keeps beside the database: they hold its pages too. */
const WAL_SUFFIXES = ['-wal', '-shm', '-journal']

/** Opens (creating or migrating) the cache at `file`; a damaged file is moved aside and rebuilt. */
export function openCache(file: string): OpenedCache {
  makePrivateFolder(path.dirname(file))
  const marker = file + OPEN_MARKER_SUFFIX
  // The check reads every page (~100 ms for 10,000 certificates): only when the last session
  // did not end with a passed one. A new file has no marker and nothing to check.
  const check = existsSync(marker)
  const notices: Notice[] = []
  let db: Database.Database
  try {
    db = openDatabase(file, check)
  } catch (error) {
    const damage = describeDamage(error)
    if (damage === null) throw error
    const aside = moveAside(file)
    notices.push({
      id: `cache-recovered-${Date.now()}`,
      level: 'warning',
      message:
        `The local cache could not be read (${damage}). It was moved aside to ` +
        `${path.basename(aside)} and a new one was created; cached lists will be fetched ` +
        'again. Profiles and tokens are not affected.',
    })
    db = openDatabase(file, false)
  }
  writeFileSync(marker, '', { mode: PRIVATE_FILE_MODE })
  tightenPrivateFile(marker)
  return { cache: createCache(db, marker), notices }
}

/**
 * Opens, configures, checks (when `check`) and migrates; closes again and rethrows on any
 * failure. A file that is not SQLite at all fails here whether checked or not.
 */
function openDatabase(file: string, check: boolean): Database.Database {
  // The lists and the activity log are the user's alone: the file is 0600 before SQLite opens
  // it, so the -wal and -shm it creates take that mode; ones an older run left are tightened.
  ensurePrivateFile(file)
  for (const suffix of WAL_SUFFIXES) tightenPrivateFile(file + suffix)
  const db = new Database(file)
  try {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    // SQLite's stock page cache (2 MB), not better-sqlite3's 16 MB: the file is in the OS's
    // cache anyway, and after a 10 MB list is written those 16 MB stay in the process for good
    // (the list bench's memory target). Windows over a 150,000-row list take ~5% longer.
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`)
    // SQLite's lower() folds ASCII letters only; searches that hold other letters ("Ärger")
    // fold the text the way JavaScript folds the words typed. A call into JS per row: used only
    // where a search holds a non-ASCII character.
    db.function('unicode_lower', { deterministic: true }, (value: unknown) =>
      typeof value === 'string' ? value.toLowerCase() : null,
    )
    if (check) {
      const result = quickCheck(db)
      if (result !== 'ok') throw new DamagedFileError(result)
    }
    migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** SQLite's quick_check: 'ok', or what it found (an error it threw counts as a finding). */
function quickCheck(db: Database.Database): string {
  try {
    return String(db.pragma('quick_check', { simple: true }))
  } catch (error) {
    if (describeDamage(error) === null) throw error
    return error instanceof Error ? error.message : String(error)
  }
}

class DamagedFileError extends Error {}

/** What is wrong with the file, when the error says it is damaged; null for other errors. */
function describeDamage(error: unknown): string | null {
  if (error instanceof DamagedFileError) return `integrity check failed: ${error.message}`
  if (error instanceof NewerSchemaError) {
    return `it was written by a newer version of Infradesk (schema ${error.version})`
  }
  const code = (error as { code?: unknown } | null)?.code
  if (typeof code !== 'string') return null
  if (code === 'SQLITE_NOTADB') return 'the file is not a database'
  if (code.startsWith('SQLITE_CORRUPT')) return 'the database is damaged'
  return null
}

/** Renames the file and its WAL companions to `<name>.corrupt-<timestamp>`; returns the path. */
function moveAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  let aside = `${file}.corrupt-${stamp}`
  for (let n = 2; existsSync(aside); n += 1) aside = `${file}.corrupt-${stamp}-${n}`
  renameSync(file, aside)
  for (const suffix of WAL_SUFFIXES) {
    if (existsSync(file + suffix)) renameSync(file + suffix, aside + suffix)
  }
  return aside
}

function createCache(db: Database.Database, marker: string): Cache {
  const statements: Statements = prepareStatements(db)
  const listeners = new Set<(change: CacheChange) => void>()

  function emit(write: CacheWrite) {
    const change: CacheChange = { ...write, topics: topicsOfTables(write.tables) }
    for (const listener of listeners) {
      try {
        listener(change)
      } catch {
        // A listener's failure must not undo or hide a committed write.
      }
    }
  }

  const replaceList = db.transaction(
    (profileId: string, kind: CachedListKind, items: unknown[], fetchedAt: number) => {
      statements.deleteListItems.run(profileId, kind)
      items.forEach((item, position) => {
        statements.insertListItem.run(
          profileId,
          kind,
          position,
          JSON.stringify(item) ?? 'null',
          idOf(item),
        )
      })
      statements.upsertListMeta.run(profileId, kind, fetchedAt)
    },
  )

  const replaceListRows = createListRowsWriter(db, statements)
  const windows = createListWindows(db)

  const forgetProfile = db.transaction((profileId: string) => {
    statements.deleteProfileItems.run(profileId)
    statements.deleteProfileLists.run(profileId)
  })

  return {
    putList(profileId, kind, items, fetchedAt) {
      assertProfileId(profileId)
      assertKind(kind)
      if (!Array.isArray(items)) throw new TypeError('items must be an array')
      if (!Number.isFinite(fetchedAt)) throw new TypeError('fetchedAt must be epoch milliseconds')
      replaceList(profileId, kind, items, Math.round(fetchedAt))
      emit({ name: 'putList', tables: ['cached_items', 'cached_lists'], profileId })
    },

    putListRows(profileId, kind, rows, fetchedAt) {
      assertProfileId(profileId)
      assertKind(kind)
      if (!Number.isFinite(fetchedAt)) throw new TypeError('fetchedAt must be epoch milliseconds')
      const stored = replaceListRows(profileId, kind, rows, Math.round(fetchedAt))
      emit({ name: 'putList', tables: ['cached_items', 'cached_lists'], profileId })
      return stored
    },

    listWritten(profileId, kind) {
      assertProfileId(profileId)
      assertKind(kind)
      emit({ name: 'putList', tables: ['cached_items', 'cached_lists'], profileId })
    },

    listFetchedAt(profileId, kind) {
      assertKind(kind)
      return statements.selectListMeta.get(profileId, kind)?.fetched_at ?? null
    },

    listWindow(profileId, kind, query) {
      assertKind(kind)
      return windows.window(profileId, kind, query)
    },

    findListItem(profileId, kind, field, value) {
      assertKind(kind)
      const json = windows.first(profileId, kind, field, value)
      return json === null ? undefined : parseJson(json)
    },

    getList(profileId, kind) {
      assertKind(kind)
      const meta = statements.selectListMeta.get(profileId, kind)
      if (meta === undefined) return null
      const items = statements.selectListItems.all(profileId, kind).flatMap((row) => {
        const item = parseJson(row.item_json)
        return item === undefined ? [] : [item]
      })
      return { items, fetchedAt: meta.fetched_at }
    },

    getItem(profileId, kind, itemId) {
      assertKind(kind)
      const row = statements.selectItemById.get(profileId, kind, itemId)
      return row === undefined ? undefined : parseJson(row.item_json)
    },

    clearProfile(profileId) {
      forgetProfile(profileId)
      emit({ name: 'clearProfile', tables: ['cached_items', 'cached_lists'], profileId })
    },

    recordActivity(entry) {
      const valid = activityEntrySchema.omit({ id: true }).parse(entry)
      const row = statements.insertActivity.get({
        at: valid.at,
        profile_id: valid.profileId,
        profile_name: valid.profileName,
        operation: valid.operation,
        target_id: valid.targetId,
        outcome: valid.outcome,
        error_code: valid.errorCode,
        message: valid.message,
      })
      if (row === undefined) throw new Error('the activity entry was not stored')
      emit({ name: 'recordActivity', tables: ['activity'], profileId: valid.profileId })
      return toActivityEntry(row)
    },

    listActivity({ profileId, operation, outcome, limit }) {
      const bounded = Math.min(MAX_ACTIVITY_LIMIT, Math.max(1, Math.floor(limit)))
      const rows =
        operation !== undefined || outcome !== undefined
          ? statements.selectActivityFiltered.all({
              profile_id: profileId ?? null,
              operation: operation ?? null,
              outcome: outcome ?? null,
              limit: bounded,
            })
          : profileId === undefined
            ? statements.selectActivityOfAllProfiles.all(bounded)
            : statements.selectActivityOfProfile.all(profileId, bounded)
      return rows.map(toActivityEntry)
    },

    onChange(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },

    extend(build) {
      return build(db, emit)
    },

    close() {
      listeners.clear()
      if (!db.open) return
      // Checked on the way out, when nobody waits for the file: a pass clears the marker, so
      // the next open can skip the check; a failure (or a crash before this) leaves it.
      let healthy: boolean
      try {
        healthy = quickCheck(db) === 'ok'
      } catch {
        healthy = false
      }
      db.close()
      if (healthy) rmSync(marker, { force: true })
    },
  }
}

/** An activity row as the bridge carries it (the log's reads and the audit trail's export). */
export function toActivityEntry(row: ActivityRow): ActivityEntry {
  return {
    id: row.id,
    at: row.at,
    profileId: row.profile_id,
    profileName: row.profile_name,
    operation: row.operation,
    targetId: row.target_id,
    outcome: row.outcome,
    errorCode: row.error_code,
    message: row.message,
  }
}

function idOf(item: unknown): string | null {
  if (item === null || typeof item !== 'object') return null
  const id = (item as { id?: unknown }).id
  return typeof id === 'string' ? id : null
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    // A row we cannot read is skipped: the next refresh replaces the whole list anyway.
    return undefined
  }
}

function assertKind(kind: string): asserts kind is CachedListKind {
  if (!(CACHED_LIST_KINDS as readonly string[]).includes(kind)) {
    throw new TypeError(`unknown cached list kind "${kind}"`)
  }
}

function assertProfileId(profileId: string): void {
  if (typeof profileId !== 'string' || profileId === '') {
    throw new TypeError('profileId must be a non-empty string')
  }
}
