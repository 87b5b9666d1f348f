import type { BridgeTransport } from '../../shared/bridge'
// Not from the contract's index: this module is in the page's first chunk (page-start.ts).
import { BRIDGE_GLOBAL } from '../../shared/bridge/ipc-names'

/*
 * Which transport a page gets (bridge.ts): the preload's when it exposed one; on a `file:` page
 * (the desktop app; web mode is never served from `file:`) without one, a transport that says
 * the preload failed; else web mode's. No side effects here, so it can be tested alone.
 */

function isTransport(value: unknown): value is BridgeTransport {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Partial<BridgeTransport>
  return typeof candidate.invoke === 'function' && typeof candidate.subscribe === 'function'
}

/** What every call answers when the desktop's preload did not load (main shows a dialog too). */
export const DESKTOP_BRIDGE_MISSING =
  "The desktop bridge did not load (the window's preload failed), so the app cannot reach its " +
  'core. Restart Infradesk; if it happens again, reinstall it.'

function missingDesktopBridge(): BridgeTransport {
  return {
    invoke: () =>
      Promise.resolve({
        ok: false,
        error: { code: 'DESKTOP_BRIDGE_MISSING', message: DESKTOP_BRIDGE_MISSING },
      }),
    subscribe: () => () => undefined,
  }
}

export function chooseTransport(
  scope: object & { location: { protocol: string } },
  makeWebTransport: () => BridgeTransport,
): BridgeTransport {
  const exposed: unknown = Reflect.get(scope, BRIDGE_GLOBAL)
  if (isTransport(exposed)) return exposed
  return scope.location.protocol === 'file:' ? missingDesktopBridge() : makeWebTransport()
}
