/**
 * Cache schema version 16, for the first screenful of the certificates screen: each
 * certificate's name in a column of its own, indexed with the profile and whether it is a
 * system certificate. Picking the first 100 of 10,000 rows in the list's default order reads
 * every matching name: from the rows themselves (`json_extract(row_json, '$.name')`) that was
 * ~50 ms on a cold start, as every row's page and JSON were read; from this covering index a
 * few ms. The list's writer (cache/certificates.ts) fills it; rows written before are filled
 * here once. The order itself is the collator's (shared/certificate-order.ts), not SQLite's.
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_16_SQL = `
  ALTER TABLE certificate_rows ADD COLUMN name TEXT;
  UPDATE certificate_rows SET name = json_extract(row_json, '$.name')
    WHERE json_valid(row_json) AND json_type(row_json, '$.name') = 'text';
  CREATE INDEX certificate_rows_by_name ON certificate_rows (profile_id, is_system, name);
`
