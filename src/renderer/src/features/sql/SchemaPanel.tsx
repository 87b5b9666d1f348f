import { useCallback, useState } from 'react'
import type { BridgeError } from '../../../../shared/bridge'
import type { SqlSchemaTree } from '../../../../shared/bridge/channels/sql'
import { asBridgeError, bridge } from '../../bridge'
import { operationHeadline, whereRightIdsComeFrom } from '../../lib/error-headlines'
import { errorHeadline } from '../../lib/errors'
import { useBridgeRead } from '../../lib/use-bridge-read'
import { Button } from '../../ui/Button'
import { FilterInput } from '../../ui/FilterInput'
import { RelativeTime } from '../../ui/RelativeTime'
import { quoteIdentifier } from './identifiers'

/*
 * The schema browser: schemas, tables, views and their columns with types, read through op 5
 * from pg_catalog and cached in SQLite per profile and database; refreshed on demand (and the
 * first time a database has nothing cached). Double-click inserts a name into the editor.
 */

interface SchemaPanelProps {
  profileId: string
  databaseId: string
  onInsert(text: string): void
  onTree(tree: SqlSchemaTree | null): void
}

type SqlSchemaCache = { tree: SqlSchemaTree | null; fetchedAt: number | null }

export function SchemaPanel({ profileId, databaseId, onInsert, onTree }: SchemaPanelProps) {
  const [tree, setTree] = useState<SqlSchemaTree | null>(null)
  const [fetchedAt, setFetchedAt] = useState<number | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeError | null>(null)
  const [filter, setFilter] = useState('')

  const apply = useCallback(
    (value: SqlSchemaCache) => {
      setTree(value.tree)
      setFetchedAt(value.fetchedAt)
      onTree(value.tree)
    },
    [onTree],
  )

  const refresh = useCallback(async () => {
    if (databaseId.trim() === '') return
    setBusy(true)
    setError(null)
    try {
      apply(await bridge.call('sql.schema.refresh', { profileId, databaseId }))
    } catch (caught) {
      setError(asBridgeError(caught))
    } finally {
      setBusy(false)
    }
  }, [apply, profileId, databaseId])

  // The panel is keyed by the database id: each database starts with fresh state.
  const cached = useBridgeRead<SqlSchemaCache | null>(
    () =>
      databaseId.trim() === ''
        ? Promise.resolve(null)
        : bridge.call('sql.schema.cached', { profileId, databaseId }),
    [profileId, databaseId],
    null,
    {
      onValue(value) {
        if (value === null) return
        apply(value)
        if (value.tree === null) void refresh()
      },
    },
  )
  const shownError = error ?? cached.error

  const needle = filter.trim().toLowerCase()
  return (
    <aside className="sql-schema" aria-label="Schema browser">
      <div className="sql-schema-head">
        <h2>Schema</h2>
        <Button
          size="small"
          onClick={() => void refresh()}
          busy={busy}
          disabled={databaseId === ''}
        >
          Refresh
        </Button>
      </div>
      <FilterInput
        className="sql-schema-filter"
        label="Filter tables"
        value={filter}
        onChange={setFilter}
      />
      {fetchedAt ? (
        <div className="muted sql-schema-age">
          Read <RelativeTime at={fetchedAt} />
        </div>
      ) : null}
      {shownError ? (
        <div className="sql-schema-error" role="alert">
          {schemaErrorSentence(shownError)}
        </div>
      ) : null}
      {tree === null ? (
        // Under a refusal, "Not read yet." would only contradict it.
        shownError === null || busy ? (
          <p className="muted">
            {databaseId === '' ? 'Choose a database.' : busy ? 'Reading…' : 'Not read yet.'}
          </p>
        ) : null
      ) : (
        <ul role="tree" aria-label="Schemas" className="sql-schema-tree">
          {tree.schemas.map((schema) => (
            <li
              role="treeitem"
              aria-level={1}
              aria-expanded
              aria-selected={false}
              key={schema.name}
            >
              <span
                className="sql-schema-name"
                onDoubleClick={() => onInsert(quoteIdentifier(schema.name))}
              >
                {schema.name}
              </span>
              <ul role="group">
                {schema.relations
                  .filter(
                    (relation) => needle === '' || relation.name.toLowerCase().includes(needle),
                  )
                  .map((relation) => (
                    <li
                      role="treeitem"
                      aria-level={2}
                      aria-selected={false}
                      aria-label={`${relation.name} (${relation.kind})`}
                      key={relation.name}
                    >
                      <details>
                        <summary
                          onDoubleClick={(event) => {
                            event.preventDefault()
                            onInsert(
                              schema.name === 'public'
                                ? quoteIdentifier(relation.name)
                                : `${quoteIdentifier(schema.name)}.${quoteIdentifier(relation.name)}`,
                            )
                          }}
                        >
                          <span
                            className={`sql-kind sql-kind-${relation.kind.replace(/\s/g, '-')}`}
                          >
                            {relation.kind === 'table'
                              ? 'T'
                              : relation.kind === 'view'
                                ? 'V'
                                : relation.kind === 'materialized view'
                                  ? 'M'
                                  : 'F'}
                          </span>{' '}
                          <span className="sql-schema-relation">{relation.name}</span>
                        </summary>
                        <ul role="group">
                          {relation.columns.map((column) => (
                            <li
                              role="treeitem"
                              aria-level={3}
                              aria-selected={false}
                              key={column.name}
                              aria-label={`${column.name} ${column.dataType}${column.nullable ? '' : ' not null'}`}
                              className="sql-schema-column"
                              onDoubleClick={() => onInsert(quoteIdentifier(column.name))}
                            >
                              {column.name}{' '}
                              <span className="muted">
                                {column.dataType}
                                {column.nullable ? '' : ' not null'}
                              </span>
                            </li>
                          ))}
                        </ul>
                      </details>
                    </li>
                  ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </aside>
  )
}

/**
 * The panel reads the catalogue with the console's own operation: a service error is worded as
 * that operation's (a 404 says where a right database id comes from), never as a bare code.
 */
function schemaErrorSentence(error: BridgeError): string {
  const asConsole = { ...error, operation: error.operation ?? 'runPostgresQuery' }
  const sentence = operationHeadline(asConsole) ?? errorHeadline(error)
  const whereIds = whereRightIdsComeFrom(asConsole)
  return whereIds === null ? sentence : `${sentence} ${whereIds}`
}
