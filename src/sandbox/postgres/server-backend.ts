import { createHash } from 'node:crypto'
import pg from 'pg'
import { seedSql } from './seed'
import type { RawResult, SessionFactory, SqlSession } from './session'
import type { PostgresDatabaseSpec } from './types'
import { parserFor } from './values'

/*
 * A real PostgreSQL server: each sandbox database is a schema of its own there, on a
 * connection of its own (so a caller's BEGIN spans that database's later statements, as
 * it does with PGlite). The schema is dropped and seeded anew on first use.
 */

/** A schema name derived from the database id: any id gives a safe, fixed-length name. */
export function schemaNameFor(databaseId: string): string {
  return `sandbox_${createHash('sha256').update(databaseId, 'utf8').digest('hex').slice(0, 24)}`
}

const TYPES: pg.CustomTypesConfig = {
  // pg-types' declared signature is overloaded per format; results here are always text.
  getTypeParser: ((oid: number) => parserFor(oid)) as pg.CustomTypesConfig['getTypeParser'],
}

/** Session settings the value parsers rely on, whatever the server's defaults are. */
const SESSION_SETTINGS = `SET TIME ZONE 'UTC'; SET DateStyle = ISO; SET IntervalStyle = postgres;
  SET bytea_output = hex`

export function createServerSessionFactory(databaseUrl: string): SessionFactory {
  return {
    open: (spec) => ServerSession.open(databaseUrl, spec),
    async close() {},
  }
}

class ServerSession implements SqlSession {
  private constructor(
    private readonly client: pg.Client,
    private readonly schema: string,
  ) {}

  static async open(databaseUrl: string, spec: PostgresDatabaseSpec): Promise<ServerSession> {
    const client = new pg.Client({ connectionString: databaseUrl })
    // A dropped connection then fails the next query; unheard, it would crash the process.
    client.on('error', () => undefined)
    await client.connect()
    const schema = `"${schemaNameFor(spec.id)}"`
    try {
      await client.query(SESSION_SETTINGS)
      await client.query(
        `DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}; SET search_path TO ${schema}`,
      )
      await client.query(seedSql(spec.seed))
    } catch (error) {
      await client.end().catch(() => undefined)
      throw error
    }
    return new ServerSession(client, schema)
  }

  async exec(sql: string): Promise<RawResult[]> {
    // Several statements give an array of results at run time, one statement a single one.
    const outcome: unknown = await this.client.query({ text: sql, rowMode: 'array', types: TYPES })
    const results = (Array.isArray(outcome) ? outcome : [outcome]) as pg.QueryArrayResult[]
    return results.map((result) => ({
      command: result.command ?? null,
      rowCount: result.rowCount ?? null,
      fields: result.fields.map((field) => ({ name: field.name, typeOid: field.dataTypeID })),
      rows: result.rows,
    }))
  }

  async beforeStatement(): Promise<void> {
    try {
      await this.client.query(`SET search_path TO ${this.schema}`)
    } catch {
      // Refused inside an aborted transaction; the caller's statement (ROLLBACK, surely)
      // runs with the path it had, which is ours unless the caller changed it.
    }
  }

  inTransactionBlock(): boolean {
    return this.client.getTransactionStatus() !== 'I'
  }

  async close(): Promise<void> {
    try {
      if (this.inTransactionBlock()) await this.client.query('ROLLBACK')
      await this.client.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE`)
    } catch {
      // The server may be gone; there is nothing left to tidy then.
    } finally {
      await this.client.end().catch(() => undefined)
    }
  }
}
