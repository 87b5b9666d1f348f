import { create } from 'zustand'
import type { InferenceModel } from '../../../../shared/api'
import type { BridgeError, ChannelOutput, ListSort } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { isAuthError, isConnectivityError } from '../../lib/errors'
import { PAGE_ROWS } from '../../ui/VirtualTable'

type ModelWindow = ChannelOutput<'inference.window'>

interface InferenceState {
  profileId: string | null
  /** Models in the catalog. */
  total: number
  /** Models that match the filter (total without one). */
  matched: number
  /** The first window of the filtered, sorted catalog. */
  firstRows: InferenceModel[]
  /** Fields the models carry beside `id`: the table's columns. */
  keys: string[]
  /** Names the list shown (profile, fetch, filter, order): the table re-reads its pages. */
  listKey: string
  /** The filter the shown list answers (words of the model id). */
  query: string
  sort: ListSort
  /** When the shown catalog was read from the service; null when never. */
  fetchedAt: number | null
  loading: boolean
  loaded: boolean
  offline: boolean
  error: BridgeError | null
  /** Reads the catalog from the service (into main) and shows its first window. */
  load(profileId: string): Promise<void>
  /** Filters the catalog already read (in main). */
  setQuery(query: string): Promise<void>
  setSort(sort: ListSort): Promise<void>
  loadRows(offset: number, limit: number): Promise<InferenceModel[]>
}

let generation = 0
let listNumber = 0

/** A window of the catalog, filtered and sorted in main: as read ('window') or fetched anew. */
function readModels(
  channel: 'inference.window' | 'inference.fetch',
  profileId: string,
  view: { query: string; sort: ListSort },
  offset = 0,
  limit = PAGE_ROWS,
): Promise<ModelWindow> {
  return bridge.call(channel, { profileId, offset, limit, query: view.query, sort: view.sort })
}

/**
 * The inference catalog (op 6) of the shown profile, read on every visit. It runs to 150,000
 * models (10 MB), so it stays in main: the store holds the counts and the first window.
 */
export const useInferenceStore = create<InferenceState>()((set, get) => {
  function apply(profileId: string, window: ModelWindow, query: string) {
    listNumber += 1
    set({
      total: window.total,
      matched: window.matched,
      firstRows: window.items,
      keys: window.keys,
      listKey: `${profileId} ${listNumber}`,
      query,
      fetchedAt: window.fetchedAt,
      offline: window.offline,
      loaded: true,
    })
  }

  function fail(profileId: string, error: unknown) {
    const bridgeError = asBridgeError(error)
    set({ error: bridgeError, loading: false, loaded: true })
    if (isConnectivityError(bridgeError)) {
      useAppStore.getState().reportConnectivity(profileId, { offline: true, error: bridgeError })
    }
    if (isAuthError(bridgeError)) {
      useAppStore.getState().requestSignIn({ profileId, message: bridgeError.message })
    }
  }

  async function readWindow(profileId: string, query: string, sort: ListSort) {
    const mine = generation
    try {
      const window = await readModels('inference.window', profileId, { query, sort })
      if (mine === generation && get().profileId === profileId) apply(profileId, window, query)
    } catch (error) {
      if (mine === generation) fail(profileId, error)
    }
  }

  return {
    profileId: null,
    total: 0,
    matched: 0,
    firstRows: [],
    keys: [],
    listKey: '',
    query: '',
    sort: null,
    fetchedAt: null,
    loading: false,
    loaded: false,
    offline: false,
    error: null,

    async load(profileId) {
      const mine = ++generation
      if (get().profileId !== profileId) {
        set({
          profileId,
          total: 0,
          matched: 0,
          firstRows: [],
          keys: [],
          listKey: '',
          fetchedAt: null,
          loaded: false,
        })
      }
      set({ loading: true, error: null })
      const { query, sort } = get()
      try {
        const window = await readModels('inference.fetch', profileId, { query, sort })
        if (mine !== generation) return
        apply(profileId, window, query)
        set({ loading: false, error: window.offline ? window.error : null })
        useAppStore.getState().reportConnectivity(profileId, {
          offline: window.offline,
          error: window.offline ? window.error : null,
        })
      } catch (error) {
        if (mine !== generation) return
        fail(profileId, error)
      }
    },

    async setQuery(query) {
      const { profileId, sort, query: shown } = get()
      if (!profileId || query === shown) return
      set({ query })
      await readWindow(profileId, query, sort)
    },

    async setSort(sort) {
      const { profileId, query } = get()
      set({ sort })
      if (profileId) await readWindow(profileId, query, sort)
    },

    async loadRows(offset, limit) {
      const { profileId, query, sort } = get()
      if (!profileId) return []
      const window = await readModels('inference.window', profileId, { query, sort }, offset, limit)
      return window.items
    },
  }
})
