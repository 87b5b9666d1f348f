import type { SqlSchemaTree } from '../../shared/bridge/channels/sql'
import type { ParsedResult } from './parse-result'

/*
 * The schema browser's one statement: schemas, tables, views (materialized too), foreign
 * tables and their columns with types, from pg_catalog (information_schema leaves out
 * materialized views). System schemas are left out. Each row also names the database: the
 * service knows databases by id only, and the console offers them by name once read.
 */

export const SCHEMA_SQL = `SELECT n.nspname AS schema_name,
       c.relname AS relation_name,
       c.relkind::text AS relation_kind,
       a.attname AS column_name,
       format_type(a.atttypid, a.atttypmod) AS column_type,
       NOT coalesce(a.attnotnull, false) AS column_nullable,
       current_database() AS database_name
FROM pg_catalog.pg_namespace AS n
LEFT JOIN pg_catalog.pg_class AS c
  ON c.relnamespace = n.oid AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
LEFT JOIN pg_catalog.pg_attribute AS a
  ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%'
  AND n.nspname NOT LIKE 'pg\\_temp\\_%'
ORDER BY n.nspname, c.relname, a.attnum`

/** The most rows the schema statement may bring back (columns of every relation). */
export const SCHEMA_MAX_ROWS = 100_000

const KINDS: Record<string, SqlSchemaTree['schemas'][number]['relations'][number]['kind']> = {
  r: 'table',
  p: 'table',
  v: 'view',
  m: 'materialized view',
  f: 'foreign table',
}

export function toSchemaTree(result: Pick<ParsedResult, 'rows'>): SqlSchemaTree {
  const schemas = new Map<
    string,
    Map<string, SqlSchemaTree['schemas'][number]['relations'][number]>
  >()
  for (const row of result.rows) {
    const [schema, relation, kind, column, type, nullable] = row
    if (typeof schema !== 'string') continue
    let relations = schemas.get(schema)
    if (!relations) schemas.set(schema, (relations = new Map()))
    if (typeof relation !== 'string') continue
    let entry = relations.get(relation)
    if (!entry) {
      entry = { name: relation, kind: KINDS[String(kind)] ?? 'other', columns: [] }
      relations.set(relation, entry)
    }
    if (typeof column === 'string') {
      entry.columns.push({
        name: column,
        dataType: typeof type === 'string' ? type : '',
        nullable: nullable !== false,
      })
    }
  }
  return {
    schemas: [...schemas].map(([name, relations]) => ({
      name,
      relations: [...relations.values()],
    })),
  }
}

/** The database's own name (`current_database()`), as the schema statement's rows carry it. */
export function databaseNameOf(result: Pick<ParsedResult, 'rows'>): string | null {
  const name = result.rows[0]?.[6]
  return typeof name === 'string' && name !== '' ? name : null
}
