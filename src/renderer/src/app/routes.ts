/*
 * Every screen of the app, in navigation order, grouped as the sidebar shows them. Shell.tsx
 * maps each route to its component; the command palette lists them. A route may carry
 * parameters in the hash (`#/migrations?id=…`) so a screen opens with its ids prefilled.
 */

export const ROUTE_GROUPS = [
  'All profiles',
  'Account',
  'Certificates',
  'Databases',
  'Operations',
  'App',
] as const
export type RouteGroup = (typeof ROUTE_GROUPS)[number]

export interface RouteInfo {
  label: string
  group: RouteGroup
  /** One line for the command palette and tooltips. */
  description: string
}

export const ROUTE_INFO = {
  sessions: { label: 'Sessions', group: 'Account', description: 'Your browser sessions; log out' },
  inference: {
    label: 'Inference models',
    group: 'Account',
    description: 'Models you can call',
  },
  certificates: {
    label: 'Certificates',
    group: 'Certificates',
    description: 'SSL certificates: list, upload, move, export',
  },
  volumes: {
    label: 'Volume export',
    group: 'Certificates',
    description: 'Download a Docker volume archive',
  },
  transfers: {
    label: 'Transfers',
    group: 'Certificates',
    description: 'Exports and downloads written to disk',
  },
  sql: { label: 'SQL console', group: 'Databases', description: 'Run PostgreSQL statements' },
  databases: {
    label: 'Database certificates',
    group: 'Databases',
    description: "Rotate a managed database's TLS certificate",
  },
  migrations: {
    label: 'Migrations',
    group: 'Operations',
    description: 'Resolve a migration that needs attention',
  },
  'status-page': {
    label: 'Status page',
    group: 'Operations',
    description: 'Preview, and resolve incidents',
  },
  deployments: {
    label: 'Deployments',
    group: 'Operations',
    description: "Resolve a blue/green deployment's branch head",
  },
  'proxy-routes': {
    label: 'Proxy routes',
    group: 'Operations',
    description: 'Retry a failed additional route',
  },
  storage: { label: 'Storage jobs', group: 'Operations', description: 'Cancel a copy job' },
  logging: {
    label: 'Logging',
    group: 'Operations',
    description: 'Schemas by slug; reorder environments',
  },
  'nginx-templates': {
    label: 'Nginx templates',
    group: 'Operations',
    description: 'Reorder template folders',
  },
  'user-folders': {
    label: 'User folders',
    group: 'Operations',
    description: 'Move a user folder (admin)',
  },
  apps: { label: 'App members', group: 'Operations', description: "List an app's members" },
  activity: { label: 'Activity', group: 'App', description: 'Every write, with its outcome' },
  settings: {
    label: 'Settings',
    group: 'App',
    description: 'Downloads folder, timeouts, theme',
  },
  // Last in this list (so Alt+1…9 keep their screens), first in the sidebar by their group.
  overview: {
    label: 'Overview',
    group: 'All profiles',
    description: 'Every profile at a glance: expiring certificates, incidents, transfers',
  },
  // Issue 21's "Expiring everywhere". Not named "Exp…": "exp" in the palette means the exports.
  expiring: {
    label: 'All expiring certificates',
    group: 'All profiles',
    description: "Expiring everywhere: every profile's certificates; CSV and calendar export",
  },
} as const satisfies Record<string, RouteInfo>

export type Route = keyof typeof ROUTE_INFO
export const ROUTES = Object.keys(ROUTE_INFO) as Route[]

/** Screens that work without a profile. */
export const PROFILE_FREE_ROUTES: readonly Route[] = [
  'activity',
  'settings',
  'overview',
  'expiring',
]

export function isRoute(value: string): value is Route {
  return Object.hasOwn(ROUTE_INFO, value)
}

export type RouteParams = Record<string, string>

/** The screen a page opens on when its address names none: every profile at a glance. */
export const START_ROUTE: Route = 'overview'

/** `#/name?key=value` → route and parameters; unknown routes give null. */
export function parseHash(hash: string): { route: Route; params: RouteParams } | null {
  const [name = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2)
  if (!isRoute(name)) return null
  return { route: name, params: Object.fromEntries(new URLSearchParams(query)) }
}

export function formatHash(route: Route, params: RouteParams = {}): string {
  const query = new URLSearchParams(params).toString()
  return `#/${route}${query === '' ? '' : `?${query}`}`
}
