import type Database from 'better-sqlite3'
import { MIGRATION_4_SQL } from './schema/v4-transfers'
import { MIGRATION_5_SQL } from './schema/v5-sql'
import { MIGRATION_6_SQL } from './schema/v6-operations'
import { MIGRATION_7_SQL } from './schema/v7-volumes'
import { MIGRATION_8_SQL } from './schema/v8-certificates'
import { MIGRATION_9_SQL } from './schema/v9-certificate-folders'
import { MIGRATION_10_SQL } from './schema/v10-sql-limits'
import { MIGRATION_11_SQL } from './schema/v11-certificate-completeness'
import { MIGRATION_12_SQL } from './schema/v12-known-objects'
import { MIGRATION_13_SQL } from './schema/v13-expiry-notifications'
import { MIGRATION_14_SQL } from './schema/v14-certificate-expiry'
import { MIGRATION_15_SQL } from './schema/v15-certificate-not-after'
import { MIGRATION_16_SQL } from './schema/v16-certificate-names'
import { MIGRATION_17_SQL } from './schema/v17-certificate-name-ranks'
import { MIGRATION_18_SQL } from './schema/v18-certificate-page-limits'

/*
 * The cache's schema, as an ordered list of migrations. `PRAGMA user_version` holds how many
 * have run; opening a file runs the rest, each in its own transaction with its version bump,
 * so a crash mid-way leaves the file at the last complete version. Never edit a shipped
 * migration: add the next one.
 */

export type Migration = (db: Database.Database) => void

/** Version 1: cached lists (one row per item, keyed by profile) and the activity log. */
export const MIGRATION_1_SQL = `
  CREATE TABLE cached_lists (
    profile_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, kind)
  ) WITHOUT ROWID;

  CREATE TABLE cached_items (
    profile_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    position INTEGER NOT NULL,
    item_json TEXT NOT NULL,
    PRIMARY KEY (profile_id, kind, position)
  ) WITHOUT ROWID;

  CREATE TABLE activity (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    profile_id TEXT NOT NULL,
    profile_name TEXT NOT NULL,
    operation TEXT NOT NULL,
    target_id TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('success', 'error')),
    error_code TEXT,
    message TEXT
  );
`

/**
 * Version 2: each cached item's own id in a column (filled from the JSON for rows written by
 * version 1), so one item can be read without scanning a list; and an index for the Activity
 * screen's per-profile, newest-first reads.
 */
export const MIGRATION_2_SQL = `
  ALTER TABLE cached_items ADD COLUMN item_id TEXT;
  UPDATE cached_items
    SET item_id = json_extract(item_json, '$.id')
    WHERE json_valid(item_json) AND json_type(item_json, '$.id') = 'text';
  CREATE INDEX cached_items_by_id ON cached_items (profile_id, kind, item_id);
  CREATE INDEX activity_by_profile ON activity (profile_id, at DESC, id DESC);
`

/** Version 3: ids the user typed, per profile and kind, offered back as suggestions. */
export const MIGRATION_3_SQL = `
  CREATE TABLE recent_inputs (
    profile_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    used_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, kind, value)
  ) WITHOUT ROWID;
  CREATE INDEX recent_inputs_newest ON recent_inputs (profile_id, kind, used_at DESC);
`

/*
 * Versions 4 and up belong to one area each (./schema/v<N>-<area>.ts), so areas built side by
 * side never edit the same lines. Order is fixed here.
 */
export const MIGRATIONS: readonly Migration[] = [
  (db) => db.exec(MIGRATION_1_SQL),
  (db) => db.exec(MIGRATION_2_SQL),
  (db) => db.exec(MIGRATION_3_SQL),
  (db) => db.exec(MIGRATION_4_SQL),
  (db) => db.exec(MIGRATION_5_SQL),
  (db) => db.exec(MIGRATION_6_SQL),
  (db) => db.exec(MIGRATION_7_SQL),
  (db) => db.exec(MIGRATION_8_SQL),
  (db) => db.exec(MIGRATION_9_SQL),
  (db) => db.exec(MIGRATION_10_SQL),
  (db) => db.exec(MIGRATION_11_SQL),
  (db) => db.exec(MIGRATION_12_SQL),
  (db) => db.exec(MIGRATION_13_SQL),
  (db) => db.exec(MIGRATION_14_SQL),
  (db) => db.exec(MIGRATION_15_SQL),
  (db) => db.exec(MIGRATION_16_SQL),
  (db) => db.exec(MIGRATION_17_SQL),
  (db) => db.exec(MIGRATION_18_SQL),
]

export const LATEST_VERSION = MIGRATIONS.length

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number
}

/** Runs the migrations this file lacks. A file newer than this app is refused (see caller). */
export function migrate(db: Database.Database): { from: number; to: number } {
  const from = schemaVersion(db)
  if (from > LATEST_VERSION) throw new NewerSchemaError(from)
  for (let version = from; version < LATEST_VERSION; version += 1) {
    const migration = MIGRATIONS[version] as Migration
    db.transaction(() => {
      migration(db)
      // user_version takes no bound parameter; the value is our own integer.
      db.pragma(`user_version = ${version + 1}`)
    })()
  }
  return { from, to: LATEST_VERSION }
}

export class NewerSchemaError extends Error {
  constructor(readonly version: number) {
    super(`cache schema version ${version} is newer than this app's ${LATEST_VERSION}`)
  }
}
