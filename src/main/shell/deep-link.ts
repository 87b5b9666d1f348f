import { operations } from '../../shared/api'
import { id } from '../../shared/bridge/common'

/*
 * Deep links into the desktop app: `infradesk://migrations/<id>/resolve` opens the migration
 * resolution dialog for that id. Plain Node (no electron import), so it is unit-tested; index.ts
 * registers the scheme and hands links over from the OS, a second instance or macOS's open-url.
 *
 * A link only ever opens a dialog with an id filled in: nothing is sent from a link, the
 * operator still picks a side, ticks the reconciliation box and presses Resolve.
 */

export const DEEP_LINK_SCHEME = 'infradesk'

export type DeepLink = { kind: 'resolveMigration'; id: string }

const migrationId = operations.resolveMigration.params.shape.id.pipe(id)

/** The link's meaning, or null for anything that is not exactly one of ours. */
export function parseDeepLink(candidate: string): DeepLink | null {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return null
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.host !== 'migrations') return null
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    return null
  }
  const segments = url.pathname.replace(/\/$/, '').split('/').slice(1)
  if (segments.length !== 2 || segments[1] !== 'resolve') return null
  let decoded: string
  try {
    decoded = decodeURIComponent(segments[0] ?? '')
  } catch {
    return null
  }
  // An id is one path segment on the service too: no slashes, no control characters, and no
  // format characters (U+202E turns the rest of a line around, U+200B hides itself).
  if (/[/\\\p{Cc}\p{Cf}]/u.test(decoded)) return null
  const parsed = migrationId.safeParse(decoded)
  return parsed.success ? { kind: 'resolveMigration', id: parsed.data } : null
}

/** The first deep link among command-line arguments (Windows and Linux pass links this way). */
export function deepLinkFromArgv(argv: readonly string[]): DeepLink | null {
  for (const arg of argv) {
    if (!arg.toLowerCase().startsWith(`${DEEP_LINK_SCHEME}:`)) continue
    const link = parseDeepLink(arg)
    if (link) return link
  }
  return null
}

/** Where the window goes for a link: the renderer's hash route (src/renderer/src/app/routes.ts). */
export function deepLinkHash(link: DeepLink): string {
  return `#/migrations?${new URLSearchParams({ id: link.id }).toString()}`
}
