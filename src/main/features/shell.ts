import { ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/**
 * The address the system browser is given for `candidate`: parsed by the URL standard and
 * written back (`new URL(candidate).href`), https only; null for anything else. Callers pass
 * this, never the raw string, so the browser opens exactly what was checked (no stray spaces,
 * backslashes or case tricks for its own parser to read differently).
 */
export function externalHttpsHref(candidate: string): string | null {
  try {
    const url = new URL(candidate)
    return url.protocol === 'https:' ? url.href : null
  } catch {
    return null
  }
}

export function shellHandlers(context: DeskContext): Pick<BridgeHandlers, 'shell.openExternal'> {
  return {
    async 'shell.openExternal'({ url }) {
      const href = externalHttpsHref(url)
      if (href === null) {
        throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
          details: [{ path: ['url'], message: 'Only https:// links can be opened' }],
        })
      }
      // A machine without a desktop cannot open a browser: the page shows the link instead.
      // electronegativity: OPEN_EXTERNAL_JS_CHECK — https checked just above; the desk's
      // openExternal (desk.ts, then src/main/index.ts or web/open-browser.ts) checks again.
      const opened = await context.openExternal(href).then(
        () => true,
        () => false,
      )
      return { opened }
    },
  }
}
