import { OPERATION_NAMES, operations, pathParamNames } from '../../../shared/api'
import type { OperationName } from '../../../shared/api'
import { ROUTE_INFO, ROUTES, type Route, type RouteParams } from './routes'

/*
 * What the command palette offers: every screen, and every one of the 22 operations of the
 * service contract, each mapped to the screen that performs it. Pure, so the list is checked
 * against the contract without a browser.
 *
 * An operation opens its screen with `op=<operation name>` and the ids it needs when they are
 * known: ids the user typed in the query (UUIDs, in the order of the path's parameters), else
 * the ids the current screen already has for that operation's parameters.
 */

/** The screen that performs each operation (the compiler refuses a missing one). */
export const OPERATION_ROUTES: Record<OperationName, Route> = {
  listSessions: 'sessions',
  logout: 'sessions',
  moveCertificateFolder: 'certificates',
  moveUserFolder: 'user-folders',
  runPostgresQuery: 'sql',
  listInferenceModels: 'inference',
  uploadCertificate: 'certificates',
  rotateDatabaseCertificate: 'databases',
  reorderNginxTemplateFolders: 'nginx-templates',
  moveCertificates: 'certificates',
  reorderLoggingEnvironments: 'logging',
  exportCertificate: 'certificates',
  resolveMigration: 'migrations',
  retryProxyRoute: 'proxy-routes',
  exportVolume: 'volumes',
  listCertificates: 'certificates',
  cancelCopyJob: 'storage',
  resolveIncident: 'status-page',
  resolveDeploymentSource: 'deployments',
  listAppMembers: 'apps',
  getStatusPagePreview: 'status-page',
  getLoggingSchema: 'logging',
}

export type PaletteEntry =
  | { kind: 'screen'; key: string; title: string; detail: string; route: Route }
  | {
      kind: 'operation'
      key: string
      title: string
      detail: string
      route: Route
      operation: OperationName
      /** The path parameters the operation needs, in order (`id`, `routeId`...). */
      idParams: string[]
    }

export const PALETTE_ENTRIES: readonly PaletteEntry[] = [
  ...ROUTES.map((route): PaletteEntry => ({
    kind: 'screen',
    key: `screen:${route}`,
    title: ROUTE_INFO[route].label,
    detail: ROUTE_INFO[route].description,
    route,
  })),
  ...OPERATION_NAMES.map((name): PaletteEntry => {
    const def = operations[name]
    const route = OPERATION_ROUTES[name]
    return {
      kind: 'operation',
      key: `operation:${name}`,
      title: def.summary,
      detail: `Op ${def.number} · ${def.method} ${def.path} · ${ROUTE_INFO[route].label}`,
      route,
      operation: name,
      idParams: pathParamNames(def.path),
    }
  }),
]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface PaletteMatch {
  entry: PaletteEntry
  /** Where choosing it goes. */
  params: RouteParams
}

/**
 * The entries whose text holds every word of the query (any case, any order), screens first.
 * UUIDs in the query are ids, not words: they prefill the operation's path parameters.
 * `current` is where the user is now: its ids prefill operations of the same screen.
 */
export function searchPalette(
  query: string,
  current: { route: Route; params: RouteParams },
  entries: readonly PaletteEntry[] = PALETTE_ENTRIES,
): PaletteMatch[] {
  const tokens = query.trim().split(/\s+/).filter(Boolean)
  const typedIds = tokens.filter((token) => UUID.test(token))
  const words = tokens.filter((token) => !UUID.test(token)).map((word) => word.toLowerCase())
  return entries
    .filter((entry) => {
      const text = `${entry.title} ${entry.detail} ${entry.kind === 'operation' ? entry.operation : entry.route}`
      const haystack = text.toLowerCase()
      return words.every((word) => haystack.includes(word))
    })
    .map((entry) => ({ entry, params: paramsFor(entry, typedIds, current) }))
}

function paramsFor(
  entry: PaletteEntry,
  typedIds: string[],
  current: { route: Route; params: RouteParams },
): RouteParams {
  if (entry.kind === 'screen') return {}
  const params: RouteParams = { op: entry.operation }
  entry.idParams.forEach((name, index) => {
    const typed = typedIds[index]
    const known = current.route === entry.route ? current.params[name] : undefined
    const value = typed ?? known
    if (value !== undefined && value !== '') params[name] = value
  })
  return params
}
