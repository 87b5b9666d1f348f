import type Database from 'better-sqlite3'

/*
 * Every statement the cache runs, prepared once and named (Bruno's model): no SQL comes from
 * outside this module. Each statement that reads or writes profile data takes the profile id,
 * so no statement can return another profile's rows.
 */

export interface ItemRow {
  item_json: string
}

export interface ListRow {
  fetched_at: number
}

export interface ActivityRow {
  id: number
  at: number
  profile_id: string
  profile_name: string
  operation: string
  target_id: string | null
  outcome: 'success' | 'error'
  error_code: string | null
  message: string | null
}

export type ActivityInsert = Omit<ActivityRow, 'id'>

export interface ActivityFilter {
  profile_id: string | null
  operation: string | null
  outcome: 'success' | 'error' | null
  limit: number
}

type Statement<Params extends unknown[], Row = unknown> = Database.Statement<Params, Row>

export interface Statements {
  selectListMeta: Statement<[profileId: string, kind: string], ListRow>
  selectListItems: Statement<[profileId: string, kind: string], ItemRow>
  selectItemById: Statement<[profileId: string, kind: string, itemId: string], ItemRow>
  upsertListMeta: Statement<[profileId: string, kind: string, fetchedAt: number]>
  deleteListItems: Statement<[profileId: string, kind: string]>
  insertListItem: Statement<
    [profileId: string, kind: string, position: number, itemJson: string, itemId: string | null]
  >
  /**
   * ROWS_PER_INSERT rows of (profile_id, kind, position, item_json), one after the other;
   * item_id is read from the JSON by SQLite (its `id` when that is a string).
   */
  insertListRows: Statement<unknown[]>
  /** One row of the same. */
  insertListRow: Statement<[profileId: string, kind: string, position: number, itemJson: string]>
  deleteProfileItems: Statement<[profileId: string]>
  deleteProfileLists: Statement<[profileId: string]>
  insertActivity: Statement<[ActivityInsert], ActivityRow>
  selectActivityOfProfile: Statement<[profileId: string, limit: number], ActivityRow>
  selectActivityOfAllProfiles: Statement<[limit: number], ActivityRow>
  selectActivityFiltered: Statement<[ActivityFilter], ActivityRow>
}

/** Inserts `rows` rows of (profile_id, kind, position, item_json); item_id is read from the JSON. */
function insertJsonRowsSql(rows: number): string {
  const values = Array.from({ length: rows }, () => '(?, ?, ?, ?)').join(', ')
  return `INSERT INTO cached_items (profile_id, kind, position, item_json, item_id)
    SELECT column1, column2, column3, column4,
      CASE json_type(column4, '$.id') WHEN 'text' THEN json_extract(column4, '$.id') END
    FROM (VALUES ${values})`
}

/** Rows per insertListRows call (4 parameters each, far below SQLite's 32,766). */
export const ROWS_PER_INSERT = 64

export function prepareStatements(db: Database.Database): Statements {
  return {
    insertListRows: db.prepare<unknown[]>(insertJsonRowsSql(ROWS_PER_INSERT)),
    insertListRow: db.prepare<[string, string, number, string]>(insertJsonRowsSql(1)),
    selectListMeta: db.prepare<[profileId: string, kind: string], ListRow>(
      'SELECT fetched_at FROM cached_lists WHERE profile_id = ? AND kind = ?',
    ),
    selectListItems: db.prepare<[profileId: string, kind: string], ItemRow>(
      'SELECT item_json FROM cached_items WHERE profile_id = ? AND kind = ? ORDER BY position',
    ),
    // INDEXED BY: without statistics SQLite picks the primary key for the ORDER BY and scans
    // the whole list (4 ms at 10,000 rows). The id index already ends with `position` (a
    // WITHOUT ROWID index carries the primary key), so it answers the ORDER BY too.
    selectItemById: db.prepare<[profileId: string, kind: string, itemId: string], ItemRow>(
      `SELECT item_json FROM cached_items INDEXED BY cached_items_by_id
         WHERE profile_id = ? AND kind = ? AND item_id = ?
         ORDER BY position LIMIT 1`,
    ),
    upsertListMeta: db.prepare<[profileId: string, kind: string, fetchedAt: number]>(
      `INSERT INTO cached_lists (profile_id, kind, fetched_at) VALUES (?, ?, ?)
         ON CONFLICT (profile_id, kind) DO UPDATE SET fetched_at = excluded.fetched_at`,
    ),
    deleteListItems: db.prepare<[profileId: string, kind: string]>(
      'DELETE FROM cached_items WHERE profile_id = ? AND kind = ?',
    ),
    insertListItem: db.prepare<
      [profileId: string, kind: string, position: number, itemJson: string, itemId: string | null]
    >(
      `INSERT INTO cached_items (profile_id, kind, position, item_json, item_id)
         VALUES (?, ?, ?, ?, ?)`,
    ),
    deleteProfileItems: db.prepare<[profileId: string]>(
      'DELETE FROM cached_items WHERE profile_id = ?',
    ),
    deleteProfileLists: db.prepare<[profileId: string]>(
      'DELETE FROM cached_lists WHERE profile_id = ?',
    ),
    insertActivity: db.prepare<[ActivityInsert], ActivityRow>(
      `INSERT INTO activity
           (at, profile_id, profile_name, operation, target_id, outcome, error_code, message)
         VALUES
           (@at, @profile_id, @profile_name, @operation, @target_id, @outcome, @error_code, @message)
         RETURNING *`,
    ),
    selectActivityOfProfile: db.prepare<[profileId: string, limit: number], ActivityRow>(
      `SELECT * FROM activity WHERE profile_id = ? ORDER BY at DESC, id DESC LIMIT ?`,
    ),
    // The Activity screen's "all profiles" view: the one read across profiles, by design.
    selectActivityOfAllProfiles: db.prepare<[limit: number], ActivityRow>(
      'SELECT * FROM activity ORDER BY at DESC, id DESC LIMIT ?',
    ),
    // The Activity screen's filters; a null filter lets every row through.
    selectActivityFiltered: db.prepare<[ActivityFilter], ActivityRow>(
      `SELECT * FROM activity
         WHERE (@profile_id IS NULL OR profile_id = @profile_id)
           AND (@operation IS NULL OR operation = @operation)
           AND (@outcome IS NULL OR outcome = @outcome)
         ORDER BY at DESC, id DESC LIMIT @limit`,
    ),
  }
}
