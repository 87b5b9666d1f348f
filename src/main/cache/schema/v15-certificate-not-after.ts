/**
 * Cache schema version 15, for the Overview and Expiring everywhere, whose reads span
 * every profile's cached certificates (100,000 across ten profiles):
 * - each certificate's expiry (`notAfter`, ISO 8601 as toISOString writes it, so text order is
 *   time order) in a column of its own, indexed with the profile. Version 14 indexed the
 *   expression `json_extract(row_json, '$.notAfter')`, and SQLite still evaluated it for every
 *   entry it visited: counting the 30,000 that end within 30 days cost ~110 ms, reading the keys
 *   of all 100,000 ~500 ms. On the column: 2 ms and ~150 ms, and a window anywhere in the
 *   Expiring list (LIMIT/OFFSET over the covering index) ~5 ms. The list's writer
 *   (cache/certificates.ts) fills it; rows written before are filled here once.
 * - each profile's number of cached certificates, kept by triggers on every insert and delete
 *   (an upsert that updates is neither): counting them at read time walks a whole index, ~100 ms
 *   for 100,000 rows on a cold start, the Overview's first paint. Nothing writes this table but
 *   the triggers; certificate_rows takes no INSERT OR REPLACE (its delete would not be counted).
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_15_SQL = `
  ALTER TABLE certificate_rows ADD COLUMN not_after TEXT;
  UPDATE certificate_rows SET not_after = json_extract(row_json, '$.notAfter')
    WHERE json_valid(row_json) AND json_type(row_json, '$.notAfter') = 'text';
  DROP INDEX certificate_rows_by_expiry;
  CREATE INDEX certificate_rows_by_not_after ON certificate_rows (not_after, profile_id);

  CREATE TABLE certificate_counts (
    profile_id TEXT PRIMARY KEY,
    total INTEGER NOT NULL
  ) WITHOUT ROWID;
  INSERT INTO certificate_counts (profile_id, total)
    SELECT profile_id, count(*) FROM certificate_rows GROUP BY profile_id;
  CREATE TRIGGER certificate_rows_counted AFTER INSERT ON certificate_rows BEGIN
    INSERT INTO certificate_counts (profile_id, total) VALUES (new.profile_id, 1)
      ON CONFLICT (profile_id) DO UPDATE SET total = total + 1;
  END;
  CREATE TRIGGER certificate_rows_uncounted AFTER DELETE ON certificate_rows BEGIN
    UPDATE certificate_counts SET total = total - 1 WHERE profile_id = old.profile_id;
  END;
`
