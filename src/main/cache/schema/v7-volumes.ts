/**
 * Cache schema version 7: volume downloads (resume state), if they need more than the transfers
 * log of version 4.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_7_SQL = `
  SELECT 1;
`
