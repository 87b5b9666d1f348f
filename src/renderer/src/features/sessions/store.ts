import { create } from 'zustand'
import type { Session } from '../../../../shared/api'
import type { BridgeError, ChannelOutput, ListSort } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { isAuthError, isConnectivityError } from '../../lib/errors'
import { PAGE_ROWS } from '../../ui/VirtualTable'

/*
 * The sessions screen's state. The list lives in main (it runs to 46,781 sessions, 11 MB): the
 * store holds its counts and first window, and the table reads further windows as it scrolls.
 * Showing a profile renders its cached list at once, then asks the service; a refresh that
 * cannot reach the service keeps the cached rows and flags the profile offline (the app shows
 * the banner). Answers for a profile no longer shown are dropped.
 */

type SessionWindow = ChannelOutput<'sessions.window'>
type LogoutOutcome = ChannelOutput<'sessions.logout'>

interface SessionsState {
  profileId: string | null
  /** Sessions in the list. */
  total: number
  /** The list's first window (in `sort` order). */
  firstRows: Session[]
  /** Names the list shown (profile, fetch, order): the table reads its windows again on change. */
  listKey: string
  sort: ListSort
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
  /** Orders the list by a field (in main); null: the service's order. */
  setSort(sort: ListSort): Promise<void>
  /** A window of the shown list, in the current order (for the table's pages). */
  loadRows(offset: number, limit: number): Promise<Session[]>
  logout(): Promise<boolean>
  clearLogoutState(): void
}

/** Bumped whenever the shown profile changes, so late answers for the old one are ignored. */
let generation = 0
/** Bumped for each list applied, so the table knows its pages are stale. */
let listNumber = 0

export const useSessionsStore = create<SessionsState>()((set, get) => {
  function apply(profileId: string, list: SessionWindow, fromRefresh: boolean) {
    const offline = list.offline || isConnectivityError(list.error)
    listNumber += 1
    set({
      total: list.matched,
      firstRows: list.items,
      listKey: `${profileId} ${listNumber}`,
      fetchedAt: list.fetchedAt,
      offline,
      error: list.error,
      loaded: true,
    })
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
      const list = await bridge.call('sessions.window', {
        profileId,
        offset: 0,
        limit: PAGE_ROWS,
        sort: get().sort,
      })
      if (mine === generation) apply(profileId, list, false)
    } catch (error) {
      if (mine === generation) fail(profileId, error)
    }
  }

  return {
    profileId: null,
    total: 0,
    firstRows: [],
    listKey: '',
    sort: null,
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
          total: 0,
          firstRows: [],
          listKey: '',
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
        const list = await bridge.call('sessions.fetch', {
          profileId,
          offset: 0,
          limit: PAGE_ROWS,
          sort: get().sort,
        })
        if (mine === generation) apply(profileId, list, true)
      } catch (error) {
        if (mine === generation) fail(profileId, error)
      } finally {
        if (mine === generation) set({ refreshing: false })
      }
    },

    async setSort(sort) {
      set({ sort })
      await get().reloadCached()
    },

    async loadRows(offset, limit) {
      const { profileId, sort } = get()
      if (!profileId) return []
      const window = await bridge.call('sessions.window', { profileId, offset, limit, sort })
      return window.items
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
