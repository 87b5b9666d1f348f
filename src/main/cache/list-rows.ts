import type Database from 'better-sqlite3'
import { ROWS_PER_INSERT } from './statements'
import type { Statements } from './statements'

/*
 * The write of a big list's rows (kept as the service's own JSON text) over the cached list, in
 * one transaction: on the cache's connection (`cache.putListRows`) and on the list worker's
 * (src/main/workers/list-worker.ts), which writes the same file off main's event loop.
 */

/** A row to store as it came: its JSON text (never serialised again; valid JSON). */
export interface JsonRow {
  json: string
}

export type ListRowsWriter = (
  profileId: string,
  kind: string,
  rows: Iterable<JsonRow>,
  fetchedAt: number,
) => number

/** Replaces the profile's list of `kind` with `rows`; if the iterator throws, nothing changes. */
export function createListRowsWriter(
  db: Database.Database,
  statements: Pick<
    Statements,
    'deleteListItems' | 'insertListRows' | 'insertListRow' | 'upsertListMeta'
  >,
): ListRowsWriter {
  return db.transaction(
    (profileId: string, kind: string, rows: Iterable<JsonRow>, fetchedAt: number) => {
      statements.deleteListItems.run(profileId, kind)
      // Rows go in batches: one statement call per row costs more than SQLite's own work.
      const batch: unknown[] = []
      let position = 0
      for (const row of rows) {
        batch.push(profileId, kind, position, row.json)
        position += 1
        if (batch.length === ROWS_PER_INSERT * 4) {
          statements.insertListRows.run(batch)
          batch.length = 0
        }
      }
      for (let at = 0; at < batch.length; at += 4) {
        statements.insertListRow.run(
          ...(batch.slice(at, at + 4) as [string, string, number, string]),
        )
      }
      statements.upsertListMeta.run(profileId, kind, fetchedAt)
      return position
    },
  )
}
