/**
 * Cache schema version 6: Remaining operations: incidents and other lists (issue 8).
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_6_SQL = `
  SELECT 1;
`
