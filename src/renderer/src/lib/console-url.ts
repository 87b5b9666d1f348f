/*
 * Ids out of what users paste: a link copied from the service's web console. The console's
 * addresses are not documented; they are taken to follow the API's own paths (the interface's
 * section 4), with or without the `/api` prefix, in the path or after `#` (a client-side
 * router): `/docker/migrations/<id>`, `/proxy-hosts/<id>/additional-routes/<routeId>`,
 * `/docker/nodes/<nodeId>/deployments/<deploymentId>`, `/docker/nodes/<nodeId>/volumes/<name>`,
 * `/storage/copy-jobs/<id>`, `/apps/<id>?environmentId=<id>`, `/logging/schemas/by-slug/<slug>`...
 * Beyond those, any UUID in the path is an id of a kind not known. Pure: no DOM, no bridge.
 */

/** One id found in a link, with the suggestion kind its place in the path names (or null). */
export interface LinkedId {
  kind: string | null
  id: string
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi

/** The collection segment of a path, as the kind of the value that follows it. */
const KIND_AFTER: Record<string, string> = {
  migrations: 'migration',
  nodes: 'node',
  deployments: 'deployment',
  volumes: 'volume',
  'proxy-hosts': 'proxy-host',
  'additional-routes': 'proxy-route',
  routes: 'proxy-route',
  'copy-jobs': 'copy-job',
  apps: 'app',
  environments: 'app-environment',
  members: 'app-member',
  databases: 'database',
  managed: 'database',
  incidents: 'incident',
  'by-slug': 'logging-schema',
  schemas: 'logging-schema',
  'user-folders': 'user-folder',
  'environment-folders': 'logging-folder',
  'ssl-certificates': 'certificate',
  certificates: 'certificate',
}

/** `folders` names a different kind under each area. */
const FOLDER_KIND_UNDER: Record<string, string> = {
  'ssl-certificates': 'certificate-folder',
  certificates: 'certificate-folder',
  'nginx-templates': 'nginx-template-folder',
  'user-folders': 'user-folder',
}

/** Kinds addressed by a name rather than a UUID (a volume's name, a schema's slug). */
const NAMED_KINDS = new Set(['volume', 'logging-schema'])

/** Query parameters that name an id's kind. */
const KIND_OF_QUERY: Record<string, string> = {
  environmentId: 'app-environment',
  nodeId: 'node',
  migrationId: 'migration',
  deploymentId: 'deployment',
  routeId: 'proxy-route',
  folderId: 'certificate-folder',
  parentId: 'user-folder',
}

/** The ids in a pasted http(s) link, in the order they appear; none for anything else. */
export function idsInConsoleLink(text: string): LinkedId[] {
  const url = parseHttpUrl(text.trim())
  if (url === null) return []
  const hashPath = url.hash.startsWith('#/') ? url.hash.slice(1).split('?')[0] : ''
  const segments = [...pathSegments(url.pathname), ...pathSegments(hashPath ?? '')]
  const found: LinkedId[] = []
  segments.forEach((segment, index) => {
    const kind = kindAt(segments, index)
    if (kind !== undefined) found.push({ kind, id: segment })
    else if (UUID.test(segment)) found.push({ kind: null, id: segment })
    else
      for (const match of segment.match(UUID_ANYWHERE) ?? []) found.push({ kind: null, id: match })
  })
  for (const [key, value] of url.searchParams) {
    if (UUID.test(value)) found.push({ kind: KIND_OF_QUERY[key] ?? null, id: value })
  }
  const seen = new Set<string>()
  return found.filter((entry) => {
    const key = `${entry.kind ?? ''}:${entry.id}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/**
 * What to put in a field of `kind` when `text` is pasted into it: the link's id of that kind,
 * else its only id (or only UUID of no known kind); null to keep the pasted text as it is (not
 * a link, or a link whose ids do not say which one is meant).
 */
export function idFromPastedLink(text: string, kind: string | null): string | null {
  const ids = idsInConsoleLink(text)
  if (ids.length === 0) return null
  const ofKind = ids.filter((entry) => kind !== null && entry.kind === kind)
  if (ofKind.length > 0) return ofKind[ofKind.length - 1]?.id ?? null
  const distinct = [...new Set(ids.map((entry) => entry.id))]
  if (distinct.length === 1) return distinct[0] ?? null
  const unnamed = [...new Set(ids.filter((entry) => entry.kind === null).map((entry) => entry.id))]
  return unnamed.length === 1 ? (unnamed[0] ?? null) : null
}

function parseHttpUrl(text: string): URL | null {
  if (!/^https?:\/\//i.test(text) || /\s/.test(text)) return null
  try {
    return new URL(text)
  } catch {
    return null
  }
}

function pathSegments(pathname: string): string[] {
  return pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment)
      } catch {
        return segment
      }
    })
}

/** The kind of the segment at `index`, when the segment before it is a known collection. */
function kindAt(segments: string[], index: number): string | undefined {
  const segment = segments[index] as string
  const previous = segments[index - 1]
  if (previous === undefined || isCollection(segment)) return undefined
  const kind =
    previous === 'folders'
      ? FOLDER_KIND_UNDER[segments[index - 2] ?? '']
      : Object.hasOwn(KIND_AFTER, previous)
        ? KIND_AFTER[previous]
        : undefined
  if (kind === undefined) return undefined
  return UUID.test(segment) || NAMED_KINDS.has(kind) ? kind : undefined
}

function isCollection(segment: string): boolean {
  return Object.hasOwn(KIND_AFTER, segment) || segment === 'folders'
}
