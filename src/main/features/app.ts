import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** What the app is and what it must tell the user (recoveries at start), and the keychain. */
export function appHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, 'app.info' | 'vault.status'> {
  return {
    async 'app.info'() {
      return { mode: context.mode, version: context.version, notices: [...context.notices] }
    },
    async 'vault.status'() {
      return context.vault.status()
    },
  }
}
