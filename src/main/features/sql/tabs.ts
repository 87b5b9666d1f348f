import type { BridgeHandlers } from '../../bridge/dispatcher'
import { requireProfile } from '../context'
import type { SqlHub } from './hub'

/*
 * The console's editor tabs (saved as the user types) and its query history, in the SQL cache.
 */

export function sqlTabHandlers(
  hub: SqlHub,
): Pick<BridgeHandlers, 'sql.tabs.list' | 'sql.tabs.save' | 'sql.tabs.close' | 'sql.history.list'> {
  const { context, store } = hub
  return {
    async 'sql.tabs.list'({ profileId }) {
      return store.listTabs(profileId)
    },

    async 'sql.tabs.save'(tab) {
      requireProfile(context, tab.profileId)
      return store.saveTab(tab)
    },

    async 'sql.tabs.close'({ id }) {
      store.closeTab(id)
      await hub.results().releaseTab(id)
      return null
    },

    async 'sql.history.list'(query) {
      return store.listHistory(query)
    },
  }
}
