import type { OperationHandler } from '../context'
import { notFound } from '../failure'
import { json } from '../http'
import { gatewaySchemaView } from './logging-gateway'
import { applySortOrders } from './ordering'

/**
 * Op 11: sets each named environment's sortOrder within its folder and answers with every
 * environment in display order (folder by folder), each naming its folder. The gateway flavour
 * answers as a real deployment does: `{"success": true}`, no list, and a negative sortOrder
 * refused.
 */
const reorderLoggingEnvironments: OperationHandler<'reorderLoggingEnvironments'> = ({
  core,
  body,
}) => {
  const { loggingEnvironments: environments, loggingEnvironmentFolders: folders } = core.state
  const gateway = core.flavor === 'gateway'
  applySortOrders(body.items, environments, 'loggingEnvironment', core.now().toISOString(), {
    nonNegative: gateway,
  })
  if (gateway) return json({ success: true })
  const folderOrder = new Map(folders.map((folder) => [folder.id, folder]))
  const ordered = [...environments]
    .sort(
      (a, b) =>
        (folderOrder.get(a.folderId)?.sortOrder ?? 0) -
          (folderOrder.get(b.folderId)?.sortOrder ?? 0) ||
        a.sortOrder - b.sortOrder ||
        a.name.localeCompare(b.name),
    )
    .map((environment) => ({
      ...environment,
      folderName: folderOrder.get(environment.folderId)?.name ?? null,
    }))
  return json({ data: ordered })
}

/** Op 22; the gateway flavour answers a real deployment's schema view (logging-gateway.ts). */
const getLoggingSchema: OperationHandler<'getLoggingSchema'> = ({ core, params }) => {
  const index = core.state.loggingSchemas.findIndex((candidate) => candidate.slug === params.slug)
  const schema = core.state.loggingSchemas[index]
  if (!schema) throw notFound({ resource: 'loggingSchema', slug: params.slug })
  if (core.flavor === 'gateway') return json({ data: gatewaySchemaView(schema, index) })
  return json({ data: structuredClone(schema) })
}

export const loggingHandlers = { reorderLoggingEnvironments, getLoggingSchema }
