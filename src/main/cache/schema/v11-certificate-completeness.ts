/**
 * Cache schema version 11: the certificate list keeps the last refresh's note on a list that
 * may be incomplete (op 16's walk stopped at the app's bound on pages, or `meta.total`
 * disagreed with what arrived), as JSON, so the offline view says it as the refresh did.
 * NULL: nothing to say. Never edit once shipped: add a new version instead.
 */
export const MIGRATION_11_SQL = `
  ALTER TABLE certificate_lists ADD COLUMN completeness_json TEXT;
`
