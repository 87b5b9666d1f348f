import type { SqlHistoryEntry, SqlSchemaTree, SqlTab } from '../../shared/bridge/channels/sql'
import { sqlSchemaTreeSchema } from '../../shared/bridge/channels/sql'
import type { Cache } from './index'

/*
 * The SQL console's SQLite store (schema v5): editor tabs and their text, query history per
 * profile and database, and each database's schema as last read; (schema v10) the row bound
 * each profile's service holds op 5 to, once it told us. Named statements only; a
 * change event after each write so open views refetch.
 */

/** History kept per profile; older entries are dropped. */
const MAX_HISTORY_PER_PROFILE = 5000

export interface SqlStore {
  listTabs(profileId: string): SqlTab[]
  getTab(id: string): SqlTab | undefined
  saveTab(tab: Omit<SqlTab, 'updatedAt'>, at?: number): SqlTab
  closeTab(id: string): void
  addHistory(entry: Omit<SqlHistoryEntry, 'id'>): void
  listHistory(query: {
    profileId: string
    databaseId?: string | undefined
    search?: string | undefined
    limit: number
  }): SqlHistoryEntry[]
  getSchema(
    profileId: string,
    databaseId: string,
  ): { tree: SqlSchemaTree; fetchedAt: number } | null
  putSchema(profileId: string, databaseId: string, tree: SqlSchemaTree, fetchedAt: number): void
  /** The most rows this profile's service returns per statement, when it said; else null. */
  getServiceMaxRows(profileId: string): number | null
  putServiceMaxRows(profileId: string, maxRows: number, learnedAt?: number): void
}

interface TabRow {
  id: string
  profile_id: string
  title: string
  database_id: string
  text: string
  max_rows: number
  read_only: number
  position: number
  updated_at: number
}

interface HistoryRow {
  id: number
  profile_id: string
  database_id: string
  sql: string
  started_at: number
  duration_ms: number
  row_count: number | null
  command: string | null
  outcome: SqlHistoryEntry['outcome']
  error_code: string | null
  error_message: string | null
}

export function createSqlStore(cache: Cache): SqlStore {
  return cache.extend((db, notify) => {
    const selectTabs = db.prepare<[profileId: string], TabRow>(
      'SELECT * FROM sql_tabs WHERE profile_id = ? ORDER BY position, updated_at',
    )
    const selectTab = db.prepare<[id: string], TabRow>('SELECT * FROM sql_tabs WHERE id = ?')
    const upsertTab = db.prepare<
      [string, string, string, string, string, number, number, number, number]
    >(
      `INSERT INTO sql_tabs
         (id, profile_id, title, database_id, text, max_rows, read_only, position, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, database_id = excluded.database_id,
         text = excluded.text, max_rows = excluded.max_rows, read_only = excluded.read_only,
         position = excluded.position, updated_at = excluded.updated_at`,
    )
    const deleteTab = db.prepare<[id: string]>('DELETE FROM sql_tabs WHERE id = ?')
    const insertHistory = db.prepare<
      [
        string,
        string,
        string,
        number,
        number,
        number | null,
        string | null,
        string,
        string | null,
        string | null,
      ]
    >(
      `INSERT INTO sql_history (profile_id, database_id, sql, started_at, duration_ms, row_count,
         command, outcome, error_code, error_message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const trimHistory = db.prepare<[profileId: string, profileId2: string, keep: number]>(
      `DELETE FROM sql_history WHERE profile_id = ? AND id NOT IN (
         SELECT id FROM sql_history WHERE profile_id = ? ORDER BY started_at DESC LIMIT ?)`,
    )
    // One statement for every filter: NULL parameters switch a condition off.
    const selectHistory = db.prepare<
      [
        profileId: string,
        databaseId: string | null,
        databaseId2: string | null,
        search: string | null,
        search2: string | null,
        limit: number,
      ],
      HistoryRow
    >(
      `SELECT * FROM sql_history
       WHERE profile_id = ?
         AND (? IS NULL OR database_id = ?)
         AND (? IS NULL OR instr(unicode_lower(sql), ?) > 0)
       ORDER BY started_at DESC, id DESC LIMIT ?`,
    )
    const selectSchema = db.prepare<
      [profileId: string, databaseId: string],
      { tree_json: string; fetched_at: number }
    >('SELECT tree_json, fetched_at FROM sql_schema_cache WHERE profile_id = ? AND database_id = ?')
    const upsertSchema = db.prepare<[string, string, string, number]>(
      `INSERT INTO sql_schema_cache (profile_id, database_id, tree_json, fetched_at)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (profile_id, database_id) DO UPDATE SET tree_json = excluded.tree_json,
         fetched_at = excluded.fetched_at`,
    )
    const selectLimit = db.prepare<[profileId: string], { max_rows: number }>(
      'SELECT max_rows FROM sql_service_limits WHERE profile_id = ?',
    )
    const upsertLimit = db.prepare<[string, number, number]>(
      `INSERT INTO sql_service_limits (profile_id, max_rows, learned_at) VALUES (?, ?, ?)
       ON CONFLICT (profile_id) DO UPDATE SET max_rows = excluded.max_rows,
         learned_at = excluded.learned_at`,
    )
    const addHistory = db.transaction((entry: Omit<SqlHistoryEntry, 'id'>) => {
      insertHistory.run(
        entry.profileId,
        entry.databaseId,
        entry.sql,
        entry.startedAt,
        entry.durationMs,
        entry.rowCount,
        entry.command,
        entry.outcome,
        entry.errorCode,
        entry.errorMessage,
      )
      trimHistory.run(entry.profileId, entry.profileId, MAX_HISTORY_PER_PROFILE)
    })

    return {
      listTabs: (profileId) => selectTabs.all(profileId).map(toTab),
      getTab(id) {
        const row = selectTab.get(id)
        return row ? toTab(row) : undefined
      },
      saveTab(tab, at = Date.now()) {
        upsertTab.run(
          tab.id,
          tab.profileId,
          tab.title,
          tab.databaseId,
          tab.text,
          tab.maxRows,
          tab.readOnly ? 1 : 0,
          tab.position,
          at,
        )
        notify({ name: 'saveSqlTab', tables: ['sql_tabs'], profileId: tab.profileId })
        return { ...tab, updatedAt: at }
      },
      closeTab(id) {
        const row = selectTab.get(id)
        deleteTab.run(id)
        notify({ name: 'closeSqlTab', tables: ['sql_tabs'], profileId: row?.profile_id ?? null })
      },
      addHistory(entry) {
        addHistory(entry)
        notify({ name: 'addSqlHistory', tables: ['sql_history'], profileId: entry.profileId })
      },
      listHistory({ profileId, databaseId, search, limit }) {
        const database = databaseId ? databaseId : null
        // Folded here as unicode_lower folds the statements' text (cache/index.ts).
        const text = search?.trim() ? search.trim().toLowerCase() : null
        return selectHistory
          .all(profileId, database, database, text, text, limit)
          .map(toHistoryEntry)
      },
      getSchema(profileId, databaseId) {
        const row = selectSchema.get(profileId, databaseId)
        if (!row) return null
        // A row this version cannot read is as good as none: the panel refreshes.
        const parsed = sqlSchemaTreeSchema.safeParse(safeJson(row.tree_json))
        return parsed.success ? { tree: parsed.data, fetchedAt: row.fetched_at } : null
      },
      putSchema(profileId, databaseId, tree, fetchedAt) {
        upsertSchema.run(profileId, databaseId, JSON.stringify(tree), fetchedAt)
        notify({ name: 'putSqlSchema', tables: ['sql_schema_cache'], profileId })
      },
      getServiceMaxRows(profileId) {
        return selectLimit.get(profileId)?.max_rows ?? null
      },
      putServiceMaxRows(profileId, maxRows, learnedAt = Date.now()) {
        upsertLimit.run(profileId, maxRows, learnedAt)
        notify({ name: 'putSqlServiceLimit', tables: ['sql_service_limits'], profileId })
      },
    }
  })
}

function toTab(row: TabRow): SqlTab {
  return {
    id: row.id,
    profileId: row.profile_id,
    title: row.title,
    databaseId: row.database_id,
    text: row.text,
    maxRows: row.max_rows,
    readOnly: row.read_only === 1,
    position: row.position,
    updatedAt: row.updated_at,
  }
}

function toHistoryEntry(row: HistoryRow): SqlHistoryEntry {
  return {
    id: row.id,
    profileId: row.profile_id,
    databaseId: row.database_id,
    sql: row.sql,
    startedAt: row.started_at,
    durationMs: row.duration_ms,
    rowCount: row.row_count,
    command: row.command,
    outcome: row.outcome,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}
