import type { BridgeHandlers } from '../../bridge/dispatcher'
import { databaseNameOf, SCHEMA_MAX_ROWS, SCHEMA_SQL, toSchemaTree } from '../../sql/schema-query'
import { requireProfile } from '../context'
import type { SqlHub } from './hub'

/*
 * The schema panel: schemas, tables, views and columns read through op 5 (the app's own
 * catalogue query: neither history nor activity) and cached; the database's name learned with
 * them, for every place its id is shown.
 */

export function sqlSchemaHandlers(
  hub: SqlHub,
): Pick<BridgeHandlers, 'sql.schema.cached' | 'sql.schema.refresh'> {
  const { context, store } = hub
  const { send } = hub.sender

  function cachedSchema(profileId: string, databaseId: string) {
    const cached = store.getSchema(profileId, databaseId)
    return { tree: cached?.tree ?? null, fetchedAt: cached?.fetchedAt ?? null }
  }

  return {
    async 'sql.schema.cached'({ profileId, databaseId }) {
      requireProfile(context, profileId)
      return cachedSchema(profileId, databaseId)
    },

    async 'sql.schema.refresh'({ profileId, databaseId }) {
      const profile = requireProfile(context, profileId)
      const { parsed } = await send(
        profile,
        {
          profileId,
          databaseId,
          runId: `schema:${profileId}:${databaseId}`,
          readOnly: true,
          confirmedWrite: false,
          sql: SCHEMA_SQL,
          maxRows: SCHEMA_MAX_ROWS,
        },
        { history: false, audit: false },
      )
      const readAt = Date.now()
      store.putSchema(profileId, databaseId, toSchemaTree(parsed), readAt)
      // The database's name, for the console's field and every place an id is shown by name.
      const name = databaseNameOf(parsed)
      if (name !== null) {
        context.knownObjects.record(profileId, [
          {
            kind: 'database',
            id: databaseId,
            name,
            status: null,
            nodeId: null,
            fields: {},
            operation: 'runPostgresQuery',
            seenAt: readAt,
          },
        ])
      }
      return cachedSchema(profileId, databaseId)
    },
  }
}
