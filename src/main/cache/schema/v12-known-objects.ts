/**
 * Cache schema version 12: objects the service's answers carried (names, not
 * UUIDs, where people act), one row per profile, kind and id, replaced by each newer sighting. `fields_json`
 * holds the other identifying fields as a JSON object of strings. Never edit once shipped: add
 * a new version instead.
 */
export const MIGRATION_12_SQL = `
  CREATE TABLE known_objects (
    profile_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    object_id TEXT NOT NULL,
    name TEXT,
    status TEXT,
    node_id TEXT,
    fields_json TEXT NOT NULL,
    operation TEXT NOT NULL,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (profile_id, kind, object_id)
  ) WITHOUT ROWID;
  CREATE INDEX known_objects_by_id ON known_objects (profile_id, object_id);
  CREATE INDEX known_objects_newest ON known_objects (profile_id, kind, seen_at DESC);
`
