import { PGlite, type Results } from '@electric-sql/pglite'
import { seedSql } from './seed'
import type { RawResult, SessionFactory, SqlSession } from './session'
import type { PostgresDatabaseSpec } from './types'
import { VALUE_PARSERS } from './values'

/*
 * In-process PostgreSQL: one in-memory PGlite per database.
 *
 * A fresh PGlite runs initdb (about 2 s, plus the WebAssembly compile the first time in a
 * process) and then the seed. The first database of each seed kind therefore also dumps
 * its freshly seeded data directory (gzip, ~9 MB for 'large'), and every later start of
 * that kind (another database, or any start after a reset) loads the dump instead:
 * under a second.
 */
export function createPgliteSessionFactory(): SessionFactory {
  const templates = new Map<PostgresDatabaseSpec['seed'], Promise<Blob | File>>()

  async function startFresh(seed: PostgresDatabaseSpec['seed']): Promise<PGlite> {
    const db = await PGlite.create()
    try {
      await db.exec(seedSql(seed))
    } catch (error) {
      await db.close().catch(() => undefined)
      throw error
    }
    return db
  }

  async function start(seed: PostgresDatabaseSpec['seed']): Promise<PGlite> {
    const template = templates.get(seed)
    if (template) {
      const dump = await template.catch(() => undefined)
      if (dump) return PGlite.create({ loadDataDir: dump })
      return startFresh(seed)
    }
    // Registered before the first await, so a concurrent start of the same kind waits for
    // this dump rather than running initdb again.
    const fresh = startFresh(seed)
    const dumped = fresh.then((db) => db.dumpDataDir('gzip'))
    templates.set(seed, dumped)
    dumped.catch(() => {
      if (templates.get(seed) === dumped) templates.delete(seed)
    })
    const db = await fresh
    try {
      // Awaited before any caller statement runs: the template is the pure seed.
      await dumped
    } catch (error) {
      await db.close().catch(() => undefined)
      throw error
    }
    return db
  }

  return {
    async open(spec) {
      return new PgliteSession(await start(spec.seed))
    },
    async close() {
      templates.clear()
    },
  }
}

class PgliteSession implements SqlSession {
  constructor(private readonly db: PGlite) {}

  async exec(sql: string): Promise<RawResult[]> {
    const results = await this.db.exec(sql, { rowMode: 'array', parsers: VALUE_PARSERS })
    return results.map(toRawResult)
  }

  async beforeStatement(): Promise<void> {}

  inTransactionBlock(): boolean {
    return this.db.isInTransaction()
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close()
  }
}

function toRawResult(result: Results): RawResult {
  return {
    command: result.command ?? null,
    rowCount: result.rowCount ?? null,
    fields: result.fields.map((field) => ({ name: field.name, typeOid: field.dataTypeID })),
    rows: result.rows as unknown[][],
  }
}
