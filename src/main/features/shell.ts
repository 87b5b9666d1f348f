import { ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** Only https URLs, as parsed by the URL standard, ever reach the system browser. */
export function isExternalHttps(candidate: string): boolean {
  try {
    return new URL(candidate).protocol === 'https:'
  } catch {
    return false
  }
}

export function shellHandlers(context: DeskContext): Pick<BridgeHandlers, 'shell.openExternal'> {
  return {
    async 'shell.openExternal'({ url }) {
      if (!isExternalHttps(url)) {
        throw new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
          details: [{ path: ['url'], message: 'Only https:// links can be opened' }],
        })
      }
      // A machine without a desktop cannot open a browser: the page shows the link instead.
      // electronegativity: OPEN_EXTERNAL_JS_CHECK — https checked just above; the desk's
      // openExternal (src/main/index.ts, web/open-browser.ts) checks again.
      const opened = await context.openExternal(url).then(
        () => true,
        () => false,
      )
      return { opened }
    },
  }
}
