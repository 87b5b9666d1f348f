/**
 * Cache schema version 10: what each profile's service told us of op 5's bounds. A service
 * that refuses `maxRows` above its bound (published code: 2,000) is asked at most that from
 * then on, after a restart too. Never edit once shipped: add a new version instead.
 */
export const MIGRATION_10_SQL = `
  CREATE TABLE sql_service_limits (
    profile_id TEXT PRIMARY KEY,
    max_rows INTEGER NOT NULL CHECK (max_rows >= 1),
    learned_at INTEGER NOT NULL
  ) WITHOUT ROWID;
`
