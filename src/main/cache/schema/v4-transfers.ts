/**
 * Cache schema version 4: the transfers log (every export written to disk: certificate files,
 * volume archives, saved SQL results), kept across runs for the Transfers panel.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_4_SQL = `
  CREATE TABLE transfers (
    id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    profile_name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('certificate', 'volume', 'sql-result')),
    label TEXT NOT NULL,
    source_json TEXT NOT NULL,
    destination TEXT,
    bytes_done INTEGER NOT NULL DEFAULT 0,
    bytes_total INTEGER,
    sha256 TEXT,
    state TEXT NOT NULL
      CHECK (state IN ('running', 'completed', 'failed', 'cancelled', 'interrupted')),
    error_code TEXT,
    error_message TEXT,
    started_at INTEGER NOT NULL,
    finished_at INTEGER
  ) WITHOUT ROWID;
  CREATE INDEX transfers_newest ON transfers (started_at DESC);
`
