import { createPgliteSessionFactory } from './pglite-backend'
import { createServerSessionFactory } from './server-backend'
import { runStatement, TypeNameCache, type SessionFactory, type SqlSession } from './session'
import type {
  PostgresDatabaseSpec,
  PostgresEngine,
  PostgresEngineOptions,
  SqlOutcome,
} from './types'

/** A database id the engine was not given. */
export class UnknownDatabaseError extends Error {
  constructor(readonly databaseId: string) {
    super(`No PostgreSQL database with id ${databaseId}`)
    this.name = 'UnknownDatabaseError'
  }
}

/** One database's session, started lazily, and the queue its statements wait in. */
interface Slot {
  session: Promise<SqlSession>
  typeNames: TypeNameCache
  /** Statements run one at a time per database, as on one connection. */
  tail: Promise<unknown>
}

export function createPostgresEngine(options: PostgresEngineOptions): PostgresEngine {
  const specs = new Map(options.databases.map((spec) => [spec.id, spec]))
  const factory: SessionFactory = options.databaseUrl
    ? createServerSessionFactory(options.databaseUrl)
    : createPgliteSessionFactory()
  const slots = new Map<string, Slot>()
  let closed = false

  function slotFor(spec: PostgresDatabaseSpec): Slot {
    const existing = slots.get(spec.id)
    if (existing) return existing
    const slot: Slot = {
      session: factory.open(spec),
      typeNames: new TypeNameCache(),
      tail: Promise.resolve(),
    }
    // A start that failed is forgotten, so the next statement tries again.
    slot.session.catch(() => {
      if (slots.get(spec.id) === slot) slots.delete(spec.id)
    })
    slots.set(spec.id, slot)
    return slot
  }

  function inTurn<T>(slot: Slot, work: () => Promise<T>): Promise<T> {
    const run = slot.tail.then(work, work)
    slot.tail = run.catch(() => undefined)
    return run
  }

  async function closeSlots(): Promise<void> {
    const closing = [...slots.values()]
    slots.clear()
    await Promise.all(
      closing.map((slot) =>
        inTurn(slot, async () => (await slot.session).close()).catch(() => undefined),
      ),
    )
  }

  return {
    async query(databaseId: string, sql: string, maxRows: number): Promise<SqlOutcome> {
      if (closed) throw new Error('The PostgreSQL engine is closed')
      const spec = specs.get(databaseId)
      if (!spec) throw new UnknownDatabaseError(databaseId)
      const slot = slotFor(spec)
      return inTurn(slot, async () =>
        runStatement(await slot.session, sql, maxRows, slot.typeNames),
      )
    },

    async withSession<T>(
      databaseId: string,
      work: (session: SqlSession, typeNames: TypeNameCache) => Promise<T>,
    ): Promise<T> {
      if (closed) throw new Error('The PostgreSQL engine is closed')
      const spec = specs.get(databaseId)
      if (!spec) throw new UnknownDatabaseError(databaseId)
      const slot = slotFor(spec)
      return inTurn(slot, async () => work(await slot.session, slot.typeNames))
    },

    async reset(): Promise<void> {
      // Sessions are dropped, not emptied: the next statement starts (and seeds) anew.
      await closeSlots()
    },

    async close(): Promise<void> {
      closed = true
      await closeSlots()
      await factory.close()
    },
  }
}
