import type { BridgeError } from '../../../../shared/bridge'
import type { StatusPageState } from '../../../../shared/bridge/channels/operations'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { createCachedListStore, type CachedListState } from '../../lib/cached-list-store'

/*
 * The status page screen's state: the cached page and incidents at once, then the service's;
 * offline, the cached ones stay under the app's offline banner (the screen shows no error).
 */

interface StatusPageStore extends CachedListState {
  state: StatusPageState | null
  /** Op 18; the page comes back refreshed. Returns the error, or null on success. */
  resolve(incidentId: string): Promise<BridgeError | null>
}

export const useStatusPageStore = createCachedListStore<StatusPageStore, StatusPageState>(
  {
    blank: () => ({ state: null }),
    read: (profileId, source) =>
      bridge.call(source === 'cache' ? 'statusPage.cached' : 'statusPage.refresh', { profileId }),
    fields: (state) => ({ state }),
    reporter: () => useAppStore.getState(),
    topics: ['incidents', 'snapshots'],
    onCacheChange: (handler) => bridge.on('cache.changed', handler),
    hideErrorWhenOffline: true,
    // As this screen always did: only a read that fails asks the user to sign in.
    signInOnAuthError: false,
  },
  (_set, get, list) => ({
    state: null,

    async resolve(incidentId) {
      const { profileId } = get()
      if (!profileId) return null
      const mine = list.current()
      try {
        const outcome = await bridge.call('statusPage.resolveIncident', { profileId, incidentId })
        if (mine === list.current()) list.apply(profileId, outcome.page, 'service')
        return null
      } catch (error) {
        return asBridgeError(error)
      }
    },
  }),
)
