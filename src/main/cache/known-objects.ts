import { knownObjectSchema } from '../../shared/bridge/channels/known-objects'
import type { KnownObject } from '../../shared/bridge/channels/known-objects'
import type Database from 'better-sqlite3'
import type { Cache } from './index'
import { forgetWhenProfileCleared } from './profile-cleared'

/*
 * Objects the service's answers carried, per profile (schema v12): the newest sighting of each
 * kind and id replaces the older one. A profile's rows go when its cached lists are cleared
 * (the profile was removed or signed out for good), as the other area stores' do.
 */

export interface KnownObjects {
  /** Stores the sightings of one answer in one transaction; announces one change. */
  record(profileId: string, objects: readonly KnownObject[]): void
  /** Announces sightings the list worker recorded on its own connection (a certificate refresh). */
  recordedElsewhere(profileId: string): void
  /** Every kind's object with one of these ids, newest sighting first. */
  lookup(profileId: string, ids: readonly string[]): KnownObject[]
  /** Objects of the kind whose id or name contains `text` (case-insensitive), newest first. */
  search(profileId: string, kind: string, text: string, limit: number): KnownObject[]
  /**
   * The name answers gave each of these ids on its profile (the newest sighting that named it),
   * read in one query however many there are: a list names all its rows at once.
   */
  namesOf(keys: readonly KnownObjectKey[]): KnownNames
}

/** An id on the profile that was shown it. */
export interface KnownObjectKey {
  profileId: string
  id: string
}

/** The names `namesOf` found; null for an id no answer named. */
export interface KnownNames {
  of(profileId: string, id: string): string | null
}

interface KnownObjectRow {
  profile_id: string
  kind: string
  object_id: string
  name: string | null
  status: string | null
  node_id: string | null
  fields_json: string
  operation: string
  seen_at: number
}

const TABLE = 'known_objects'

const UPSERT = `INSERT INTO known_objects (profile_id, kind, object_id, name, status, node_id,
    fields_json, operation, seen_at)
  VALUES (@profile_id, @kind, @object_id, @name, @status, @node_id, @fields_json,
    @operation, @seen_at)
  ON CONFLICT (profile_id, kind, object_id) DO UPDATE SET
    -- A later answer that leaves a fact out (a reorder's items without a status) keeps what an
    -- earlier one said.
    name = coalesce(excluded.name, name),
    status = coalesce(excluded.status, status),
    node_id = coalesce(excluded.node_id, node_id),
    fields_json = json_patch(fields_json, excluded.fields_json),
    operation = excluded.operation,
    seen_at = excluded.seen_at`

/**
 * Writes sightings on one connection, announcing nothing: main's store below, and the list
 * worker's, which records a certificate refresh's 10,000 certificates off main's loop.
 */
export function knownObjectWritesOn(db: Database.Database): {
  record(profileId: string, objects: readonly KnownObject[]): void
} {
  const upsert = db.prepare<[KnownObjectRow]>(UPSERT)
  const recordAll = db.transaction((rows: KnownObjectRow[]) => {
    for (const row of rows) upsert.run(row)
  })
  return {
    record(profileId, objects) {
      if (objects.length > 0) recordAll(objects.map((object) => toRow(profileId, object)))
    },
  }
}

export function createKnownObjects(cache: Cache): KnownObjects {
  const store = cache.extend((db, notify) => {
    const writes = knownObjectWritesOn(db)
    const selectByText = db.prepare<
      [{ profileId: string; kind: string; pattern: string; limit: number }],
      KnownObjectRow
    >(
      `SELECT * FROM known_objects WHERE profile_id = @profileId AND kind = @kind
         AND (object_id LIKE @pattern ESCAPE '\\' OR coalesce(name, '') LIKE @pattern ESCAPE '\\')
         ORDER BY seen_at DESC, object_id LIMIT @limit`,
    )
    // The keys as a JSON array of [profileId, id] pairs, joined through the by-id index: one
    // statement however many ids. Ties keep the order the ids were asked in.
    const selectByKeys = db.prepare<[{ keys: string; namedOnly: 0 | 1 }], KnownObjectRow>(
      `SELECT known.* FROM json_each(@keys) AS wanted
         JOIN known_objects AS known
           ON known.profile_id = json_extract(wanted.value, '$[0]')
          AND known.object_id = json_extract(wanted.value, '$[1]')
         WHERE @namedOnly = 0 OR coalesce(known.name, '') != ''
         ORDER BY known.seen_at DESC, wanted.key, known.kind`,
    )
    /** The rows of these keys (each asked once), newest sighting first. */
    function rowsOfKeys(keys: readonly KnownObjectKey[], namedOnly: boolean): KnownObjectRow[] {
      const wanted = new Map(
        keys.map(({ profileId, id }) => [keyOf(profileId, id), [profileId, id]]),
      )
      if (wanted.size === 0) return []
      return selectByKeys.all({
        keys: JSON.stringify([...wanted.values()]),
        namedOnly: namedOnly ? 1 : 0,
      })
    }
    const deleteProfile = db.prepare<[profileId: string]>(
      `DELETE FROM known_objects WHERE profile_id = ?`,
    )

    const known: KnownObjects = {
      record(profileId, objects) {
        if (objects.length === 0) return
        writes.record(profileId, objects)
        notify({ name: 'recordKnownObjects', tables: [TABLE], profileId })
      },
      recordedElsewhere(profileId) {
        notify({ name: 'recordKnownObjects', tables: [TABLE], profileId })
      },
      lookup(profileId, ids) {
        const keys = ids.map((id) => ({ profileId, id }))
        return rowsOfKeys(keys, false).flatMap(fromRow)
      },
      search(profileId, kind, text, limit) {
        const pattern = `%${text.trim().replace(/[\\%_]/g, (char) => `\\${char}`)}%`
        return selectByText.all({ profileId, kind, pattern, limit }).flatMap(fromRow)
      },
      namesOf(keys) {
        const names = new Map<string, string>()
        for (const row of rowsOfKeys(keys, true)) {
          const [object] = fromRow(row)
          const key = keyOf(row.profile_id, row.object_id)
          if (object?.name && !names.has(key)) names.set(key, object.name)
        }
        return { of: (profileId, id) => names.get(keyOf(profileId, id)) ?? null }
      },
    }
    return { known, forget: (profileId: string) => deleteProfile.run(profileId) }
  })

  forgetWhenProfileCleared(cache, store.forget)
  return store.known
}

/** One map key for a profile's id (JSON: no pair of strings collides with another). */
function keyOf(profileId: string, id: string): string {
  return JSON.stringify([profileId, id])
}

function toRow(profileId: string, object: KnownObject): KnownObjectRow {
  return {
    profile_id: profileId,
    kind: object.kind,
    object_id: object.id,
    name: object.name,
    status: object.status,
    node_id: object.nodeId,
    fields_json: JSON.stringify(object.fields),
    operation: object.operation,
    seen_at: Math.round(object.seenAt),
  }
}

/** A row that no longer reads as a known object (hand-edited) is skipped. */
function fromRow(row: KnownObjectRow): KnownObject[] {
  const parsed = knownObjectSchema.safeParse({
    kind: row.kind,
    id: row.object_id,
    name: row.name,
    status: row.status,
    nodeId: row.node_id,
    fields: parseFields(row.fields_json),
    operation: row.operation,
    seenAt: row.seen_at,
  })
  return parsed.success ? [parsed.data] : []
}

function parseFields(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return {}
  }
}
