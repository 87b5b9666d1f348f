import { create } from 'zustand'
import type { BridgeError } from '../../../../shared/bridge'
import type { StatusPageState } from '../../../../shared/bridge/channels/operations'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { isAuthError, isConnectivityError } from '../../lib/errors'

/*
 * The status page screen's state: the cached page and incidents at once, then the service's;
 * offline, the cached ones stay under the app's offline banner. Answers for a profile no longer
 * shown are dropped.
 */

interface StatusPageStore {
  profileId: string | null
  state: StatusPageState | null
  loaded: boolean
  refreshing: boolean
  error: BridgeError | null
  show(profileId: string, options: { refresh: boolean }): Promise<void>
  reloadCached(): Promise<void>
  refresh(): Promise<void>
  /** Op 18; the page comes back refreshed. Returns the error, or null on success. */
  resolve(incidentId: string): Promise<BridgeError | null>
}

let generation = 0

export const useStatusPageStore = create<StatusPageStore>()((set, get) => {
  function apply(profileId: string, state: StatusPageState) {
    const offline = state.offline || isConnectivityError(state.error)
    set({ state, loaded: true, error: offline ? null : state.error })
    useAppStore.getState().reportConnectivity(profileId, {
      offline,
      error: offline ? state.error : null,
      dataFetchedAt: state.fetchedAt,
    })
  }

  function fail(profileId: string, error: unknown) {
    const bridgeError = asBridgeError(error)
    set({ error: bridgeError, loaded: true })
    if (isAuthError(bridgeError)) {
      useAppStore.getState().requestSignIn({ profileId, message: bridgeError.message })
    }
  }

  async function read(
    profileId: string,
    mine: number,
    channel: 'statusPage.cached' | 'statusPage.refresh',
  ) {
    try {
      const state = await bridge.call(channel, { profileId })
      if (mine === generation) apply(profileId, state)
    } catch (error) {
      if (mine === generation) fail(profileId, error)
    }
  }

  return {
    profileId: null,
    state: null,
    loaded: false,
    refreshing: false,
    error: null,

    async show(profileId, { refresh }) {
      const mine = ++generation
      if (get().profileId !== profileId) {
        set({ profileId, state: null, loaded: false, refreshing: false, error: null })
      }
      await read(profileId, mine, 'statusPage.cached')
      if (refresh && mine === generation) await get().refresh()
    },

    async reloadCached() {
      const { profileId } = get()
      if (profileId) await read(profileId, generation, 'statusPage.cached')
    },

    async refresh() {
      const { profileId } = get()
      if (!profileId) return
      const mine = generation
      set({ refreshing: true })
      await read(profileId, mine, 'statusPage.refresh')
      if (mine === generation) set({ refreshing: false })
    },

    async resolve(incidentId) {
      const { profileId } = get()
      if (!profileId) return null
      const mine = generation
      try {
        const outcome = await bridge.call('statusPage.resolveIncident', { profileId, incidentId })
        if (mine === generation) apply(profileId, outcome.page)
        return null
      } catch (error) {
        return asBridgeError(error)
      }
    },
  }
})
