/**
 * Cache schema version 8: the certificate list, one row per certificate and profile,
 * with the columns the offline filters and the folder tree read, so 10,000 rows are filtered in
 * SQLite and a refresh with a filter replaces exactly the rows that filter covers. Every field
 * the service sent lives in a table of its own, read one at a time by the details pane, so the
 * list's table stays narrow and 10,000 rows read in one pass.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_8_SQL = `
  CREATE TABLE certificate_rows (
    profile_id TEXT NOT NULL,
    id TEXT NOT NULL,
    type TEXT,
    status TEXT,
    is_system INTEGER NOT NULL CHECK (is_system IN (0, 1)),
    folder_id TEXT,
    folder_path_json TEXT NOT NULL,
    search_text TEXT NOT NULL,
    row_json TEXT NOT NULL,
    PRIMARY KEY (profile_id, id)
  ) WITHOUT ROWID;
  CREATE INDEX certificate_rows_by_folder ON certificate_rows (profile_id, folder_id);

  CREATE TABLE certificate_items (
    profile_id TEXT NOT NULL,
    id TEXT NOT NULL,
    item_json TEXT NOT NULL,
    PRIMARY KEY (profile_id, id)
  ) WITHOUT ROWID;

  CREATE TABLE certificate_lists (
    profile_id TEXT PRIMARY KEY,
    fetched_at INTEGER NOT NULL
  ) WITHOUT ROWID;
`
