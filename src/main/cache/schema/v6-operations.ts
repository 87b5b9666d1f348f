/**
 * Cache schema version 6: remaining operations.
 *
 * - `operation_snapshots`: the last answer of an operation whose state the service offers no
 *   list for, per profile and key (the status page's header and components, the order of
 *   logging environments and of nginx template folders). Incidents use the generic cached list.
 * - `database_rotations`: certificate rotations this app requested (op 8), so a scheduled
 *   reread that finishes later is still followed after a restart.
 *
 * Never edit once shipped: add a new version instead.
 */
export const MIGRATION_6_SQL = `
  CREATE TABLE operation_snapshots (
    profile_id TEXT NOT NULL,
    key TEXT NOT NULL,
    value_json TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, key)
  ) WITHOUT ROWID;

  CREATE TABLE database_rotations (
    profile_id TEXT NOT NULL,
    rotation_id TEXT NOT NULL,
    database_id TEXT NOT NULL,
    requested_at INTEGER NOT NULL,
    allow_restart INTEGER NOT NULL CHECK (allow_restart IN (0, 1)),
    status TEXT NOT NULL CHECK (status IN ('completed', 'pending')),
    completes_at INTEGER,
    answer_json TEXT NOT NULL,
    PRIMARY KEY (profile_id, rotation_id)
  ) WITHOUT ROWID;
  CREATE INDEX database_rotations_newest ON database_rotations (profile_id, requested_at DESC);
  CREATE INDEX database_rotations_pending ON database_rotations (status, completes_at);
`
