/**
 * Cache schema version 5: SQL console: tabs, query history, schema cache.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_5_SQL = `
  CREATE TABLE sql_tabs (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    title TEXT NOT NULL,
    database_id TEXT NOT NULL,
    text TEXT NOT NULL,
    max_rows INTEGER NOT NULL,
    read_only INTEGER NOT NULL CHECK (read_only IN (0, 1)),
    position INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX sql_tabs_by_profile ON sql_tabs (profile_id, position);

  CREATE TABLE sql_history (
    id INTEGER PRIMARY KEY,
    profile_id TEXT NOT NULL,
    database_id TEXT NOT NULL,
    sql TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    row_count INTEGER,
    command TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('success', 'error', 'cancelled')),
    error_code TEXT,
    error_message TEXT
  );
  CREATE INDEX sql_history_newest ON sql_history (profile_id, database_id, started_at DESC);

  CREATE TABLE sql_schema_cache (
    profile_id TEXT NOT NULL,
    database_id TEXT NOT NULL,
    tree_json TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, database_id)
  ) WITHOUT ROWID;
`
