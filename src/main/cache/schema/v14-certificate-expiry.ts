/**
 * Cache schema version 14: an index on each cached certificate's expiry (`notAfter`, ISO 8601 as
 * toISOString writes it, so text order is time order), for the Overview and Expiring
 * everywhere. Their reads span every profile: "which certificates end before this date" is a
 * range scan of this index instead of a pass over every row's JSON (100,000 rows across ten
 * profiles). An index on the expression, so the list's writer (cache/certificates.ts) is
 * unchanged; the reads must spell the expression exactly as here to use it.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_14_SQL = `
  CREATE INDEX certificate_rows_by_expiry
    ON certificate_rows (json_extract(row_json, '$.notAfter'), profile_id);
`
