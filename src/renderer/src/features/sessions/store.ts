import { create } from 'zustand'
import type { Session } from '../../../../shared/api'
import type { BridgeError, ChannelOutput } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { isAuthError, isConnectivityError } from '../../lib/errors'

/*
 * The sessions screen's state. Showing a profile renders its cached list at once, then asks the
 * service; a refresh that cannot reach the service keeps the cached rows and flags the profile
 * offline (the app shows the banner). Answers for a profile no longer shown are dropped.
 */

type CachedSessions = ChannelOutput<'sessions.cached'>
type LogoutOutcome = ChannelOutput<'sessions.logout'>

interface SessionsState {
  profileId: string | null
  items: Session[]
  fetchedAt: number | null
  /** The cached list has arrived for `profileId`. */
  loaded: boolean
  refreshing: boolean
  offline: boolean
  /** The last failure to read or refresh; connectivity failures included. */
  error: BridgeError | null
  loggingOut: boolean
  logoutError: BridgeError | null
  lastLogout: LogoutOutcome | null

  /** Shows a profile's sessions: cached first, then (when asked) refreshed from the service. */
  show(profileId: string, options: { refresh: boolean }): Promise<void>
  /** Re-reads the cache (after a `cache.changed` event), without calling the service. */
  reloadCached(): Promise<void>
  refresh(): Promise<void>
  logout(): Promise<boolean>
  clearLogoutState(): void
}

/** Bumped whenever the shown profile changes, so late answers for the old one are ignored. */
let generation = 0

export const useSessionsStore = create<SessionsState>()((set, get) => {
  function apply(profileId: string, list: CachedSessions, fromRefresh: boolean) {
    const offline = list.offline || isConnectivityError(list.error)
    set({ items: list.items, fetchedAt: list.fetchedAt, offline, error: list.error, loaded: true })
    useAppStore.getState().reportConnectivity(profileId, {
      offline,
      error: offline ? list.error : null,
      dataFetchedAt: list.fetchedAt,
    })
    if (fromRefresh && isAuthError(list.error) && list.error) {
      useAppStore.getState().requestSignIn({ profileId, message: list.error.message })
    }
  }

  function fail(profileId: string, error: unknown) {
    const bridgeError = asBridgeError(error)
    const offline = isConnectivityError(bridgeError)
    set({ error: bridgeError, offline: offline || get().offline, loaded: true })
    if (offline) {
      useAppStore.getState().reportConnectivity(profileId, {
        offline: true,
        error: bridgeError,
        dataFetchedAt: get().fetchedAt,
      })
    }
    if (isAuthError(bridgeError)) {
      useAppStore.getState().requestSignIn({ profileId, message: bridgeError.message })
    }
  }

  async function readCache(profileId: string, mine: number) {
    try {
      const list = await bridge.call('sessions.cached', { profileId })
      if (mine === generation) apply(profileId, list, false)
    } catch (error) {
      if (mine === generation) fail(profileId, error)
    }
  }

  return {
    profileId: null,
    items: [],
    fetchedAt: null,
    loaded: false,
    refreshing: false,
    offline: false,
    error: null,
    loggingOut: false,
    logoutError: null,
    lastLogout: null,

    async show(profileId, { refresh }) {
      const mine = ++generation
      if (get().profileId !== profileId) {
        set({
          profileId,
          items: [],
          fetchedAt: null,
          loaded: false,
          offline: false,
          error: null,
          refreshing: false,
          lastLogout: null,
          logoutError: null,
        })
      }
      await readCache(profileId, mine)
      if (refresh && mine === generation) await get().refresh()
    },

    async reloadCached() {
      const { profileId } = get()
      if (profileId) await readCache(profileId, generation)
    },

    async refresh() {
      const { profileId } = get()
      if (!profileId) return
      const mine = generation
      set({ refreshing: true })
      try {
        const list = await bridge.call('sessions.refresh', { profileId })
        if (mine === generation) apply(profileId, list, true)
      } catch (error) {
        if (mine === generation) fail(profileId, error)
      } finally {
        if (mine === generation) set({ refreshing: false })
      }
    },

    async logout() {
      const { profileId } = get()
      if (!profileId) return false
      set({ loggingOut: true, logoutError: null })
      try {
        const outcome = await bridge.call('sessions.logout', { profileId })
        set({ lastLogout: outcome, loggingOut: false })
        await useAppStore.getState().reloadProfiles()
        await get().reloadCached()
        return true
      } catch (error) {
        set({ logoutError: asBridgeError(error), loggingOut: false })
        return false
      }
    },

    clearLogoutState() {
      set({ logoutError: null })
    },
  }
})
