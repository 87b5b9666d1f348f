import type { SqlSession, TypeNameCache } from './session'
/** One managed PostgreSQL database of the sandbox and what it is seeded with. */
export interface PostgresDatabaseSpec {
  id: string
  name: string
  /** 'large' holds a table with >= 100,000 rows; 'small' a few demo tables. */
  seed: 'large' | 'small'
}

export interface SqlOutcome {
  command: string
  rowCount: number | null
  fields: { name: string; dataType: string }[]
  /** Each field's type OID, in field order (what node-postgres calls dataTypeID). */
  typeOids: number[]
  /** JSON-safe values: bigint and numeric as strings, dates as ISO strings, bytea as \x hex. */
  rows: unknown[][]
  truncated: boolean
  durationMs: number
}

/** A statement PostgreSQL refused; becomes 422 with details { sqlState, position, message }. */
export class SqlError extends Error {
  constructor(
    message: string,
    readonly sqlState: string,
    readonly position: number | null,
  ) {
    super(message)
    this.name = 'SqlError'
  }
}

export interface PostgresEngine {
  /** Runs one statement (or a simple multi-statement script; the last result is returned). */
  query(databaseId: string, sql: string, maxRows: number): Promise<SqlOutcome>
  /**
   * Runs `work` on the database's one connection, in turn with every other statement: what a
   * service that runs a request's statements one by one on one connection does.
   */
  withSession<T>(
    databaseId: string,
    work: (session: SqlSession, typeNames: TypeNameCache) => Promise<T>,
  ): Promise<T>
  /** Restores every database to its seed. */
  reset(): Promise<void>
  close(): Promise<void>
}

export interface PostgresEngineOptions {
  databases: PostgresDatabaseSpec[]
  /** A real server instead of PGlite; each database then lives in its own schema there. */
  databaseUrl?: string
}
