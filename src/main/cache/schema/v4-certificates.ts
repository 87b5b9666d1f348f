/**
 * Cache schema version 4: Certificates cache columns, transfers (issue 6).
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_4_SQL = `
  SELECT 1;
`
