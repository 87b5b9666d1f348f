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
  | {
      /** A certificate found in a profile's cache: opens it in its profile. */
      kind: 'certificate'
      key: string
      title: string
      detail: string
      route: Route
      profileId: string
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

export interface OperationRequest {
  operation: OperationName
  /** The operation's path parameters the route gave, by name; empty values left out. */
  ids: Readonly<Record<string, string>>
}

function isOperationName(value: string): value is OperationName {
  return (OPERATION_NAMES as readonly string[]).includes(value)
}

/**
 * What an operation's entry asked its screen for (paramsFor, below, writes it): the request
 * the route parameters make, when it is for one of `accepted`; else null.
 */
export function operationRequestOf(
  params: RouteParams,
  accepted: readonly OperationName[],
): OperationRequest | null {
  const operation = params['op']
  if (operation === undefined || !isOperationName(operation) || !accepted.includes(operation)) {
    return null
  }
  const ids: Record<string, string> = {}
  for (const name of pathParamNames(operations[operation].path)) {
    const value = params[name]?.trim()
    if (value) ids[name] = value
  }
  return { operation, ids }
}

/** A UUID typed in the query: an id, not a word. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface PaletteMatch {
  entry: PaletteEntry
  /** Where choosing it goes. */
  params: RouteParams
  /** Higher is better: words found in the title count more than words in the detail. */
  score: number
  /**
   * The operation offered on a name no object of the profile is known by (palette-names): the
   * palette says so, and where such an id comes from.
   */
  unknownName?: { kind: string; name: string }
}

/**
 * The entries whose text holds every word of the query (any case, any order), in the order they
 * are shown: in two groups (screens, operations), the group holding the best match first (on a
 * tie, screens), best first within each. So the first entry is always the best match: the one
 * highlighted, the one Enter opens.
 * UUIDs in the query are ids, not words: they prefill the operation's path parameters.
 * `current` is where the user is now: its ids prefill operations of the same screen.
 */
export function searchPalette(
  query: string,
  current: { route: Route; params: RouteParams },
  entries: readonly PaletteEntry[] = PALETTE_ENTRIES,
): PaletteMatch[] {
  const tokens = query.trim().split(/\s+/).filter(Boolean)
  const typedIds = tokens.filter((token) => UUID_PATTERN.test(token))
  const words = tokens
    .filter((token) => !UUID_PATTERN.test(token))
    .map((word) => word.toLowerCase())
  const matches: PaletteMatch[] = []
  for (const entry of entries) {
    const score = scoreOfWords(entry, words)
    if (score !== null) matches.push({ entry, params: paramsFor(entry, typedIds, current), score })
  }
  const bestOf = (kind: PaletteEntry['kind']) =>
    Math.max(-1, ...matches.filter((match) => match.entry.kind === kind).map((m) => m.score))
  const operationsFirst = bestOf('operation') > bestOf('screen')
  const groupOrder = (match: PaletteMatch) =>
    (match.entry.kind === 'screen') === operationsFirst ? 1 : 0
  // Array.prototype.sort is stable: equal scores keep the navigation and contract order.
  return matches.sort((a, b) => groupOrder(a) - groupOrder(b) || b.score - a.score)
}

/** The best match of a search (the one Enter opens first), or -1 when there is none. */
export function bestMatchIndex(matches: readonly PaletteMatch[]): number {
  let best = -1
  matches.forEach((match, index) => {
    if (best === -1 || match.score > (matches[best]?.score ?? 0)) best = index
  })
  return best
}

export interface PaletteGroup {
  label: 'Screens' | 'Operations' | 'Certificates'
  items: PaletteMatch[]
  /** The position of the group's first entry among all shown entries. */
  offset: number
}

const GROUP_LABELS: Record<PaletteEntry['kind'], PaletteGroup['label']> = {
  screen: 'Screens',
  operation: 'Operations',
  certificate: 'Certificates',
}

/**
 * Certificates found by name in every profile's cache (main's `overview.searchCertificates`),
 * as palette entries after the screens and operations: choosing one makes its profile active
 * and opens the certificates screen on it (found by name, selected by id).
 */
export function certificateMatches(
  found: readonly {
    profileId: string
    row: { id: string; name: string; notAfter: string | null }
  }[],
  profileNames: ReadonlyMap<string, string>,
): PaletteMatch[] {
  return found.map(({ profileId, row }) => ({
    entry: {
      kind: 'certificate',
      key: `certificate:${profileId}:${row.id}`,
      title: row.name,
      detail: `${profileNames.get(profileId) ?? 'Removed profile'} · ${
        row.notAfter === null ? 'no expiry known' : `expires ${row.notAfter.slice(0, 10)}`
      }`,
      route: 'certificates',
      profileId,
    },
    params: { search: row.name, select: row.id },
    score: 0,
  }))
}

/** Matches in searchPalette's order, cut into their groups as shown. */
export function paletteGroups(matches: readonly PaletteMatch[]): PaletteGroup[] {
  const groups: PaletteGroup[] = []
  matches.forEach((match, index) => {
    const label = GROUP_LABELS[match.entry.kind]
    const last = groups.at(-1)
    if (last?.label === label) last.items.push(match)
    else groups.push({ label, items: [match], offset: index })
  })
  return groups
}

/** How well lowercase `words` match an entry (see searchPalette); null when one is missing. */
export function scoreOfWords(entry: PaletteEntry, words: readonly string[]): number | null {
  const title = entry.title.toLowerCase()
  const name = entry.kind === 'operation' ? entry.operation : entry.route
  const rest = `${entry.detail} ${name}`.toLowerCase()
  let score = 0
  for (const word of words) {
    if (title.startsWith(word)) score += 3
    else if (title.includes(word)) score += 2
    else if (rest.includes(word)) score += 1
    else return null
  }
  return score
}

function paramsFor(
  entry: PaletteEntry,
  typedIds: string[],
  current: { route: Route; params: RouteParams },
): RouteParams {
  if (entry.kind !== 'operation') return {}
  const params: RouteParams = { op: entry.operation }
  entry.idParams.forEach((name, index) => {
    const typed = typedIds[index]
    const known = current.route === entry.route ? current.params[name] : undefined
    const value = typed ?? known
    if (value !== undefined && value !== '') params[name] = value
  })
  return params
}
