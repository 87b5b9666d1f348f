import { ServiceError } from '../api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { externalHttpsHref } from '../shell/app-url'
import type { DeskContext } from './context'

// The one https check for links leaving the app; pure, so the shell's window guards use it too.
export { externalHttpsHref }

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
