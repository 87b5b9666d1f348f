/**
 * Cache schema version 17, for the first screenful of the certificates screen: each
 * certificate's place in the list's default order (names by the collator, then ids:
 * shared/certificate-order.ts), and the locale a profile's places were worked out in. The
 * first 100 of 10,000 rows are then read by index, 100 rows, instead of every matching name
 * read into main (10,000 objects: ~30 ms of its loop cold, and a collection; 100,000: ~70 ms).
 * The places are worked out in the list worker after a refresh, in a
 * narrow table of their own (rewriting 10,000 wide rows to add a column took ~190 ms). Any
 * write to a profile's rows deletes its `certificate_name_ranks` row; until the worker has
 * ranked them again, reads go the old way (cache/certificates.ts).
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_17_SQL = `
  CREATE TABLE certificate_name_order (
    profile_id TEXT NOT NULL,
    name_rank INTEGER NOT NULL,
    id TEXT NOT NULL,
    PRIMARY KEY (profile_id, name_rank)
  ) WITHOUT ROWID;
  CREATE TABLE certificate_name_ranks (
    profile_id TEXT PRIMARY KEY,
    locale TEXT NOT NULL
  ) WITHOUT ROWID;
`
