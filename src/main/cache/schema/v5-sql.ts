/**
 * Cache schema version 5: SQL console: tabs, query history, schema cache (issue 7).
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_5_SQL = `
  SELECT 1;
`
