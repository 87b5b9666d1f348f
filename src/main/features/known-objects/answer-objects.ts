import type { OperationName } from '../../../shared/api'
import { knownObjectSchema } from '../../../shared/bridge/channels/known-objects'
import type { KnownObject } from '../../../shared/bridge/channels/known-objects'

/*
 * Which objects an answer carried, per operation (the interface's section 4.1): a table from
 * each operation's answer shape to the objects in it. The service documents most resources
 * only as "a resource object with optional id and name", so every rule reads loosely: a field
 * missing or of another type is left out, an answer of an unknown shape yields nothing, and
 * nothing here throws. Kinds are the suggestion kinds the screens ask for.
 */

/** What a rule is given: the answer and the request that produced it. */
export interface Exchange {
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, unknown>>
  answer: unknown
}

/** One object as a rule sees it; `seenAt` and `operation` are added for all. */
type Sighting = Omit<KnownObject, 'seenAt' | 'operation'>

type Rule = (exchange: Exchange) => Sighting[]

type Loose = Record<string, unknown>

const MAX_TEXT = 500

function isLoose(value: unknown): value is Loose {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The first of `keys` that holds a non-empty string (or a finite number), as text. */
function text(value: unknown, ...keys: string[]): string | null {
  if (!isLoose(value)) return null
  for (const key of keys) {
    const field = value[key]
    if (typeof field === 'string' && field.trim() !== '') return field.slice(0, MAX_TEXT)
    if (typeof field === 'number' && Number.isFinite(field)) return String(field)
  }
  return null
}

function dataOf(answer: unknown): unknown {
  return isLoose(answer) ? answer['data'] : undefined
}

/** The loose objects of an array (or of several); anything else gives none. */
function itemsOf(...values: unknown[]): Loose[] {
  return values.flatMap((value) => (Array.isArray(value) ? value.filter(isLoose) : []))
}

/** Only the identifying fields that are present, as strings. */
function fieldsOf(entries: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entries).filter((entry): entry is [string, string] => entry[1] !== null),
  )
}

/** A resource object (section 2.1) of `kind`: its id, name, status and node as it says them. */
function resource(
  kind: string,
  item: unknown,
  { id = null, fields = {} }: { id?: string | null; fields?: Record<string, string | null> } = {},
): Sighting[] {
  const objectId = text(item, 'id') ?? id
  if (objectId === null) return []
  return [
    {
      kind,
      id: objectId,
      name: text(item, 'name', 'title', 'displayName'),
      status: text(item, 'status', 'state'),
      nodeId: text(item, 'nodeId'),
      fields: fieldsOf(fields),
    },
  ]
}

/** An object the answer only names by id (a node a migration moves to): name when given. */
function reference(
  kind: string,
  id: string | null,
  name: string | null = null,
  nodeId: string | null = null,
): Sighting[] {
  if (id === null) return []
  return [{ kind, id, name, status: null, nodeId, fields: {} }]
}

function listOf(kind: string, fields: (item: Loose) => Record<string, string | null> = () => ({})) {
  return (items: Loose[]) => items.flatMap((item) => resource(kind, item, { fields: fields(item) }))
}

const certificates = listOf('certificate', (item) => ({
  commonName: text(item, 'commonName'),
  folderId: text(item, 'folderId'),
}))

const RULES: Partial<Record<OperationName, Rule>> = {
  // Ops 1, 2, 5 and 12 carry no named object of the service (sessions, a logout message, SQL
  // rows, a file): no rule.
  moveCertificateFolder: ({ params, answer }) =>
    resource('certificate-folder', dataOf(answer), {
      id: params['id'] ?? null,
      fields: { parentId: text(dataOf(answer), 'parentId') },
    }),
  moveUserFolder: ({ params, answer }) =>
    resource('user-folder', dataOf(answer), {
      id: params['id'] ?? null,
      fields: { parentId: text(dataOf(answer), 'parentId') },
    }),
  listInferenceModels: ({ answer }) =>
    listOf('inference-model', (item) => ({ ownedBy: text(item, 'owned_by', 'ownedBy') }))(
      itemsOf(dataOf(answer)),
    ),
  uploadCertificate: ({ answer }) => certificates(itemsOf([dataOf(answer)])),
  listCertificates: ({ answer }) => certificates(itemsOf(dataOf(answer))),
  moveCertificates: ({ answer }) => {
    const data = dataOf(answer)
    return certificates(itemsOf(data, isLoose(data) ? data['certificates'] : undefined))
  },
  rotateDatabaseCertificate: ({ params, answer }) => {
    const data = dataOf(answer)
    const databaseId = params['id'] ?? null
    // The answer may be the database itself or a rotation naming it (databaseId).
    const aboutDatabase = text(data, 'databaseId') === databaseId || text(data, 'id') === databaseId
    const name = text(data, 'databaseName') ?? (aboutDatabase ? text(data, 'name') : null)
    if (databaseId === null) return []
    return [
      {
        kind: 'database',
        id: databaseId,
        name,
        status: null,
        nodeId: aboutDatabase ? text(data, 'nodeId') : null,
        fields: fieldsOf({ engine: aboutDatabase ? text(data, 'engine') : null }),
      },
    ]
  },
  reorderNginxTemplateFolders: ({ answer }) =>
    listOf('nginx-template-folder')(itemsOf(dataOf(answer))),
  reorderLoggingEnvironments: ({ answer }) =>
    listOf('logging-environment', (item) => ({
      slug: text(item, 'slug'),
      folderId: text(item, 'folderId'),
    }))(itemsOf(dataOf(answer))),
  resolveMigration: ({ params, answer }) => {
    const migration = dataOf(answer)
    const sourceNodeId = text(migration, 'sourceNodeId')
    const targetNodeId = text(migration, 'targetNodeId')
    const resourceType = text(migration, 'resourceType')
    const resourceName = text(migration, 'resourceName')
    const id = text(migration, 'id') ?? params['id'] ?? null
    if (id === null) return []
    return [
      {
        kind: 'migration',
        id,
        // A migration has no name of its own: it is known by what it moves.
        name: resourceName,
        status: text(migration, 'status'),
        nodeId: sourceNodeId,
        fields: fieldsOf({
          resourceType,
          resourceName,
          sourceNodeId,
          targetNodeId,
          targetNodeSlug: text(migration, 'targetNodeSlug'),
          deploymentId: text(migration, 'deploymentId'),
          phase: text(migration, 'phase'),
          // Why it stopped, which the resolve dialog shows before a decision: the spec's
          // errorCode/errorMessage (2.4), or the reason, message or detail another deployment sends.
          errorCode: text(migration, 'errorCode'),
          errorMessage: text(migration, 'errorMessage', 'reason', 'message', 'detail'),
        }),
      },
      ...reference('node', targetNodeId, text(migration, 'targetNodeSlug')),
      ...reference('node', sourceNodeId),
      ...reference(
        'deployment',
        text(migration, 'deploymentId'),
        resourceType === 'deployment' ? resourceName : null,
        sourceNodeId,
      ),
    ]
  },
  retryProxyRoute: ({ params, answer }) => {
    const route = dataOf(answer)
    const hostId = params['id'] ?? null
    const domain = text(route, 'domain')
    const path = text(route, 'path')
    const described = domain === null ? null : `${domain}${path ?? ''}`
    return [
      ...resource('proxy-route', route, {
        id: params['routeId'] ?? null,
        fields: { proxyHostId: hostId, domain, path, forwardTo: text(route, 'forwardTo') },
      }).map((sighting) => ({ ...sighting, name: sighting.name ?? described })),
      ...reference('proxy-host', hostId, text(route, 'proxyHostName')),
    ]
  },
  exportVolume: ({ params, answer }) => {
    const nodeId = params['nodeId'] ?? null
    const name = params['name'] ?? null
    if (name === null) return []
    const data = dataOf(answer)
    return [
      // A volume is addressed by its name on a node.
      {
        kind: 'volume',
        id: name,
        name,
        status: null,
        nodeId,
        fields: fieldsOf({ nodeId, sizeBytes: text(data, 'sizeBytes') }),
      },
      ...reference('node', nodeId, text(data, 'nodeName')),
    ]
  },
  cancelCopyJob: ({ params, answer }) => {
    const job = dataOf(answer)
    const source = isLoose(job) ? job['source'] : undefined
    const target = isLoose(job) ? job['target'] : undefined
    return resource('copy-job', job, {
      id: params['id'] ?? null,
      fields: {
        sourceNodeId: text(source, 'nodeId'),
        sourceVolume: text(source, 'volumeName'),
        targetNodeId: text(target, 'nodeId'),
        targetVolume: text(target, 'volumeName'),
      },
    })
  },
  resolveIncident: ({ params, answer }) =>
    resource('incident', dataOf(answer), { id: params['id'] ?? null }),
  resolveDeploymentSource: ({ params, answer }) => {
    const deployment = dataOf(answer)
    const nodeId = params['nodeId'] ?? null
    return [
      ...resource('deployment', deployment, {
        id: params['deploymentId'] ?? null,
        fields: { strategy: text(deployment, 'strategy') },
      }).map((sighting) => ({ ...sighting, nodeId: sighting.nodeId ?? nodeId })),
      ...reference('node', nodeId),
    ]
  },
  listAppMembers: ({ params, query, answer }) => [
    ...listOf('app-member', (member) => ({
      type: text(member, 'type'),
      environmentId: text(member, 'environmentId'),
    }))(itemsOf(dataOf(answer))),
    ...reference('app', params['id'] ?? null),
    ...reference('app-environment', text(query, 'environmentId')),
  ],
  getStatusPagePreview: ({ answer }) => {
    const page = dataOf(answer)
    if (!isLoose(page)) return []
    return [
      ...listOf('status-component')(itemsOf(page['components'])),
      ...listOf('incident')(
        itemsOf(page['openIncidents'], page['recentlyResolved'], page['incidents']),
      ),
    ]
  },
  getLoggingSchema: ({ params, answer }) => {
    const schema = dataOf(answer)
    const slug = text(schema, 'slug') ?? params['slug'] ?? null
    if (slug === null) return []
    // Schemas are addressed by slug (op 22); the service's own id is kept beside it.
    return [
      {
        kind: 'logging-schema',
        id: slug,
        name: text(schema, 'name', 'title'),
        status: null,
        nodeId: null,
        fields: fieldsOf({ schemaId: text(schema, 'id') }),
      },
    ]
  },
}

/**
 * The objects an operation's answer carried, each checked against the bridge's schema (an id
 * too long, a kind out of pattern: left out). Never throws: remembering is a side matter.
 */
export function objectsOfAnswer(
  operation: OperationName,
  exchange: Exchange,
  seenAt: number,
): KnownObject[] {
  const rule = RULES[operation]
  if (rule === undefined) return []
  let sightings: Sighting[]
  try {
    sightings = rule(exchange)
  } catch {
    return []
  }
  return sightings.flatMap((sighting) => {
    const parsed = knownObjectSchema.safeParse({ ...sighting, operation, seenAt })
    return parsed.success ? [parsed.data] : []
  })
}
