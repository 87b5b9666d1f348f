import type { Session } from '../../../../shared/api'
import type { BridgeError, ChannelOutput, ListSort } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { createCachedListStore, type CachedListState } from '../../lib/cached-list-store'
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

interface SessionsState extends CachedListState {
  /** Sessions in the list. */
  total: number
  /** The list's first window (in `sort` order). */
  firstRows: Session[]
  /** Names the list shown (profile, fetch, order): the table reads its windows again on change. */
  listKey: string
  sort: ListSort
  loggingOut: boolean
  logoutError: BridgeError | null
  lastLogout: LogoutOutcome | null

  /** Orders the list by a field (in main); null: the service's order. */
  setSort(sort: ListSort): Promise<void>
  /** A window of the shown list, in the current order (for the table's pages). */
  loadRows(offset: number, limit: number): Promise<Session[]>
  logout(): Promise<boolean>
  clearLogoutState(): void
}

/** Bumped for each list applied, so the table knows its pages are stale. */
let listNumber = 0

function blank() {
  return {
    total: 0,
    firstRows: [],
    listKey: '',
    lastLogout: null,
    logoutError: null,
  }
}

export const useSessionsStore = createCachedListStore<SessionsState, SessionWindow>(
  {
    blank,
    read: (profileId, source, { sort }) =>
      bridge.call(source === 'cache' ? 'sessions.window' : 'sessions.fetch', {
        profileId,
        offset: 0,
        limit: PAGE_ROWS,
        sort,
      }),
    fields(list, { profileId }) {
      listNumber += 1
      return { total: list.matched, firstRows: list.items, listKey: `${profileId} ${listNumber}` }
    },
    reporter: () => useAppStore.getState(),
    topics: ['sessions'],
    onCacheChange: (handler) => bridge.on('cache.changed', handler),
  },
  (set, get) => ({
    ...blank(),
    sort: null,
    loggingOut: false,

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
  }),
)
