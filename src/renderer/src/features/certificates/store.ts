import { create } from 'zustand'
import type {
  BridgeError,
  CertificateFilter,
  CertificateFolder,
  CertificateList,
  CertificateRow,
  ListCompleteness,
} from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { isAuthError, isConnectivityError } from '../../lib/errors'

/*
 * The certificates screen's state: the cached list at once, then every page from the service;
 * a refresh that cannot reach the service keeps the cached rows and flags the profile offline.
 * Filters go to the service and, offline, to the cache. Answers for a profile or a filter no
 * longer shown are dropped (a generation counter).
 */

export type SortKey = 'name' | 'status' | 'expires' | 'type' | 'folder'
export interface Sort {
  key: SortKey
  direction: 'asc' | 'desc'
}

interface CertificatesState {
  profileId: string | null
  filter: CertificateFilter
  rows: CertificateRow[]
  folders: CertificateFolder[]
  fetchedAt: number | null
  /** The last refresh's note when the list may lack certificates (the screen says it). */
  completeness: ListCompleteness | null
  loaded: boolean
  refreshing: boolean
  offline: boolean
  error: BridgeError | null
  sort: Sort
  /** Ids of the selected certificates. */
  selected: ReadonlySet<string>
  /** Where shift-selection extends from, and where the keyboard is. */
  anchorId: string | null
  activeId: string | null

  show(profileId: string, options: { refresh: boolean }): Promise<void>
  /**
   * Starts reading the cached list before the screen is first rendered (the app calls it as
   * soon as it knows the active profile); the screen's show() then waits for that read
   * instead of making its own.
   */
  preload(profileId: string): void
  setFilter(patch: Partial<CertificateFilter>): void
  reloadCached(): Promise<void>
  refresh(): Promise<void>
  setSort(key: SortKey): void
  select(
    ids: readonly string[],
    options?: { anchorId?: string | null; activeId?: string | null },
  ): void
}

let generation = 0
/** The read preload() started, while no other read has started since. */
let preloaded: { profileId: string; generation: number; read: Promise<void> } | null = null
let filterTimer: ReturnType<typeof setTimeout> | undefined

const DEFAULT_FILTER: CertificateFilter = { showSystem: false }

/** The selected ids still listed; the empty selection as it is (no set of 10,000 ids built). */
function keptSelection(
  selected: ReadonlySet<string>,
  rows: readonly CertificateRow[],
): ReadonlySet<string> {
  if (selected.size === 0) return selected
  const present = new Set(rows.map((row) => row.id))
  return new Set([...selected].filter((id) => present.has(id)))
}

function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}

export const useCertificatesStore = create<CertificatesState>()((set, get) => {
  function apply(profileId: string, list: CertificateList, fromRefresh: boolean) {
    const offline = list.offline || isConnectivityError(list.error)
    const selected = keptSelection(get().selected, list.rows)
    set({
      rows: list.rows,
      folders: list.folders,
      fetchedAt: list.fetchedAt,
      completeness: list.completeness,
      offline,
      error: list.error,
      loaded: true,
      selected,
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
    if (isAuthError(bridgeError)) {
      useAppStore.getState().requestSignIn({ profileId, message: bridgeError.message })
    }
  }

  /** A profile other than the one shown: its list starts empty, nothing selected. */
  function switchTo(profileId: string) {
    if (get().profileId === profileId) return
    set({
      profileId,
      rows: [],
      folders: [],
      fetchedAt: null,
      completeness: null,
      loaded: false,
      offline: false,
      error: null,
      refreshing: false,
      selected: new Set(),
      anchorId: null,
      activeId: null,
    })
  }

  async function readCache(profileId: string, mine: number) {
    try {
      const list = await bridge.call('certificates.cached', { profileId, filter: get().filter })
      if (mine === generation) apply(profileId, list, false)
    } catch (error) {
      if (mine === generation) fail(profileId, error)
    }
  }

  return {
    profileId: null,
    filter: DEFAULT_FILTER,
    rows: [],
    folders: [],
    fetchedAt: null,
    completeness: null,
    loaded: false,
    refreshing: false,
    offline: false,
    error: null,
    sort: { key: 'name', direction: 'asc' },
    selected: new Set(),
    anchorId: null,
    activeId: null,

    async show(profileId, { refresh }) {
      const early = preloaded
      preloaded = null
      let mine: number
      if (early !== null && early.profileId === profileId && early.generation === generation) {
        mine = early.generation
        await early.read
      } else {
        mine = ++generation
        switchTo(profileId)
        await readCache(profileId, mine)
      }
      // The cached list is painted before the service is asked: on a busy machine the refresh
      // (every page of op 16) competes for the CPU with that first paint.
      if (refresh && mine === generation) await afterNextPaint()
      if (refresh && mine === generation) await get().refresh()
    },

    preload(profileId) {
      const mine = ++generation
      switchTo(profileId)
      preloaded = { profileId, generation: mine, read: readCache(profileId, mine) }
    },

    setFilter(patch) {
      const filter = { ...get().filter, ...patch }
      set({ filter })
      const { profileId } = get()
      if (!profileId) return
      // The cache answers each keystroke; the service is asked once typing pauses.
      const mine = ++generation
      void readCache(profileId, mine)
      clearTimeout(filterTimer)
      filterTimer = setTimeout(() => {
        if (mine === generation && !get().offline) void get().refresh()
      }, 400)
    },

    async reloadCached() {
      const { profileId } = get()
      if (profileId) await readCache(profileId, generation)
    },

    async refresh() {
      const { profileId, filter } = get()
      if (!profileId) return
      const mine = generation
      set({ refreshing: true })
      try {
        const list = await bridge.call('certificates.refresh', { profileId, filter })
        if (mine === generation) apply(profileId, list, true)
      } catch (error) {
        if (mine === generation) fail(profileId, error)
      } finally {
        if (mine === generation) set({ refreshing: false })
      }
    },

    setSort(key) {
      const { sort } = get()
      set({
        sort:
          sort.key === key
            ? { key, direction: sort.direction === 'asc' ? 'desc' : 'asc' }
            : { key, direction: 'asc' },
      })
    },

    select(ids, options = {}) {
      set({
        selected: new Set(ids),
        ...(options.anchorId === undefined ? {} : { anchorId: options.anchorId }),
        ...(options.activeId === undefined ? {} : { activeId: options.activeId }),
      })
    },
  }
})
