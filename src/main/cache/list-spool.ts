import type Database from 'better-sqlite3'
import type { Cache, JsonRow } from './index'

/*
 * A big list on its way into the cache. Its rows, validated as they arrive, are set
 * aside here until the whole answer has been read and checked; only then do they replace the
 * cached list, in one transaction (`cache.putListRows(..., spool.rows(), ...)`), so a row that
 * breaks the contract or a connection cut mid-answer leaves the cached list as it was. Aside
 * means on disk, not in memory: a private temporary database attached to the cache's
 * connection (SQLite deletes its file when the connection closes), with a small page cache of
 * its own, so a 10 MB answer costs the process neither its body nor its rows. Rows go in parts
 * of about PART_CHARS characters (the rows' texts end to end, and their lengths), one INSERT
 * each; writing them is a few milliseconds per MB, against the cached list's own write (its
 * index and positions) of a second for 150,000 rows, which still happens once, at the end.
 *
 * Parts are small on purpose: the rows waiting for their part are the only thing of the list
 * alive in V8's young generation, and what survives its collections decides when V8 doubles it
 * (measured in web mode: 64 kB parts made it grow from 16 to 32 MB during the bench's lists; 8 kB
 * parts, not). Read back, a row is a slice of its part's text: no copy per row.
 */

export interface ListSpool {
  /** Forgets the rows added so far (a read that starts again). */
  clear(): void
  /** One row's JSON text, as the service sent it. */
  add(json: string): void
  /** Rows added so far. */
  readonly count: number
  /** Every row added, in order, read back a part at a time: for `cache.putListRows`. */
  rows(): Generator<JsonRow>
  /** Frees the rows; the spool is not used after. */
  discard(): void
}

export interface ListSpools {
  open(): ListSpool
}

/** Characters per part: small enough that the rows waiting in memory die young. */
const PART_CHARS = 8 * 1024
/** The spool database's own page cache (KiB); the OS caches its file. */
const SPOOL_CACHE_KIB = 512

interface SpoolStatements {
  insert: Database.Statement<[spool: number, part: number, rows: string, lengths: Buffer]>
  select: Database.Statement<[spool: number, part: number], { rows: string; lengths: Buffer }>
  remove: Database.Statement<[spool: number]>
}

/** The rows' lengths (UTF-16 code units, as JavaScript counts), 4 bytes each. */
function encodeLengths(rows: readonly string[]): Buffer {
  const lengths = Buffer.allocUnsafe(rows.length * 4)
  rows.forEach((row, index) => lengths.writeUInt32LE(row.length, index * 4))
  return lengths
}

export function createListSpools(cache: Cache): ListSpools {
  return cache.extend((db) => createListSpoolsOn(db))
}

/** Spools on `db`'s own connection (the cache's, or the list worker's: src/main/workers). */
export function createListSpoolsOn(db: Database.Database): ListSpools {
  let statements: SpoolStatements | null = null
  let lastId = 0

  /** Attached on first use (not at start: most runs never read a big list). */
  function prepared(): SpoolStatements {
    if (statements !== null) return statements
    // '' is a temporary database on disk, private to this connection.
    db.exec(`ATTACH DATABASE '' AS list_spool`)
    db.pragma(`list_spool.cache_size = -${SPOOL_CACHE_KIB}`)
    db.pragma('list_spool.journal_mode = MEMORY')
    db.exec(`CREATE TABLE list_spool.parts (
      spool INTEGER NOT NULL,
      part INTEGER NOT NULL,
      rows TEXT NOT NULL,
      lengths BLOB NOT NULL,
      PRIMARY KEY (spool, part)
    )`)
    statements = {
      insert: db.prepare(
        'INSERT INTO list_spool.parts (spool, part, rows, lengths) VALUES (?, ?, ?, ?)',
      ),
      select: db.prepare('SELECT rows, lengths FROM list_spool.parts WHERE spool = ? AND part = ?'),
      remove: db.prepare('DELETE FROM list_spool.parts WHERE spool = ?'),
    }
    return statements
  }

  function open(): ListSpool {
    const { insert, select, remove } = prepared()
    lastId += 1
    const id = lastId
    let parts = 0
    let count = 0
    let pending: string[] = []
    let pendingChars = 0

    function flush(): void {
      if (pending.length === 0) return
      insert.run(id, parts, pending.join(''), encodeLengths(pending))
      parts += 1
      pending = []
      pendingChars = 0
    }

    return {
      get count() {
        return count
      },
      clear() {
        remove.run(id)
        parts = 0
        count = 0
        pending = []
        pendingChars = 0
      },
      add(json) {
        pending.push(json)
        pendingChars += json.length
        count += 1
        if (pendingChars >= PART_CHARS) flush()
      },
      *rows() {
        flush()
        for (let part = 0; part < parts; part += 1) {
          const stored = select.get(id, part)
          if (stored === undefined) throw new Error(`list spool ${id}: part ${part} is missing`)
          let at = 0
          for (let offset = 0; offset < stored.lengths.length; offset += 4) {
            const end = at + stored.lengths.readUInt32LE(offset)
            yield { json: stored.rows.slice(at, end) }
            at = end
          }
        }
      },
      discard() {
        pending = []
        // Once the cache is closed its temporary database is gone, with the rows.
        if (db.open) remove.run(id)
      },
    }
  }

  return { open }
}
