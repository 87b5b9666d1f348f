/**
 * Cache schema version 18: the page size each profile's service takes for op 16. A service
 * that refuses `limit` above its bound (a real deployment: 100) is asked that bound from then
 * on, after a restart too (features/certificates/page-size.ts). Never edit once shipped: add a
 * new version instead.
 */
export const MIGRATION_18_SQL = `
  CREATE TABLE certificate_page_limits (
    profile_id TEXT PRIMARY KEY,
    page_limit INTEGER NOT NULL CHECK (page_limit >= 1),
    learned_at INTEGER NOT NULL
  ) WITHOUT ROWID;
`
