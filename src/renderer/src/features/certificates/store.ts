import { OPENING_CERTIFICATE_FILTER } from '../../../../shared/bridge'
import type {
  ActiveFirstScreenful,
  CertificateFilter,
  CertificateFolder,
  CertificateList,
  CertificateRow,
  ListCompleteness,
} from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { bridge } from '../../bridge'
import { defaultSortLocale } from '../../../../shared/certificate-order'
import {
  afterNextPaint,
  createCachedListStore,
  type CachedListState,
} from '../../lib/cached-list-store'

/*
 * The certificates screen's state: the cached list at once, then every page from the service;
 * a refresh that cannot reach the service keeps the cached rows and flags the profile offline.
 * Filters go to the service and, offline, to the cache. Answers for a profile or a filter no
 * longer shown are dropped (the cached list store's generations).
 */

export type SortKey = 'name' | 'status' | 'expires' | 'type' | 'folder'
export interface Sort {
  key: SortKey
  direction: 'asc' | 'desc'
}

interface CertificatesState extends CachedListState {
  filter: CertificateFilter
  rows: CertificateRow[]
  /**
   * How many rows the list holds while `rows` are only its first screenful (the app opened on
   * this screen and the rest is on its way); null once they are all there.
   */
  firstOf: number | null
  folders: CertificateFolder[]
  /** The last refresh's note when the list may lack certificates (the screen says it). */
  completeness: ListCompleteness | null
  /** System certificates the filter hides that it would otherwise show (the screen says so). */
  systemHidden: number
  sort: Sort
  /** Ids of the selected certificates. */
  selected: ReadonlySet<string>
  /** Where shift-selection extends from, and where the keyboard is. */
  anchorId: string | null
  activeId: string | null

  setFilter(patch: Partial<CertificateFilter>): void
  setSort(key: SortKey): void
  select(
    ids: readonly string[],
    options?: { anchorId?: string | null; activeId?: string | null },
  ): void
}

let filterTimer: ReturnType<typeof setTimeout> | undefined

/** More rows than the tallest window shows: the first screenful main sends ahead. */
const FIRST_SCREENFUL_ROWS = 100

function firstScreenful() {
  return { count: FIRST_SCREENFUL_ROWS, locale: defaultSortLocale() }
}

/** The active profile's first screenful, asked for with the app's first calls. */
let activeFirstScreenful: Promise<ActiveFirstScreenful | null> | null = null

/**
 * The app opens on this screen: its first screenful is asked for now, with the app's first
 * calls, for whichever profile main has active. The store's first read takes the answer when
 * it is of the profile shown (profiles.list says which), one round trip sooner than asking
 * once that is known.
 */
export function readActiveFirstScreenful(): void {
  activeFirstScreenful = bridge
    .call('certificates.firstScreenful', { first: firstScreenful() })
    .catch(() => null)
}

/** The answer readActiveFirstScreenful asked for, when it is `profileId`'s list. */
async function activeFirstScreenfulOf(profileId: string): Promise<CertificateList | null> {
  const early = activeFirstScreenful
  activeFirstScreenful = null
  const answer = early === null ? null : await early
  return answer?.profileId === profileId ? answer.list : null
}

/** The selected ids still listed; the empty selection as it is (no set of 10,000 ids built). */
function keptSelection(
  selected: ReadonlySet<string>,
  rows: readonly CertificateRow[],
): ReadonlySet<string> {
  if (selected.size === 0) return selected
  const present = new Set(rows.map((row) => row.id))
  return new Set([...selected].filter((id) => present.has(id)))
}

/**
 * Each profile's filter as it was last left: a search typed for one profile is not
 * applied to another's list. For the app's run only, as the screen's other state is.
 */
const filtersByProfile = new Map<string, CertificateFilter>()

/** The filter `profileId`'s list was last shown with; the opening filter when none. */
export function filterOfProfile(profileId: string): CertificateFilter {
  return filtersByProfile.get(profileId) ?? OPENING_CERTIFICATE_FILTER
}

/**
 * A profile other than the one shown: its list starts empty, nothing selected, with its own
 * filter.
 */
function blank(profileId?: string) {
  return {
    filter: profileId === undefined ? OPENING_CERTIFICATE_FILTER : filterOfProfile(profileId),
    rows: [],
    firstOf: null,
    folders: [],
    completeness: null,
    systemHidden: 0,
    selected: new Set<string>(),
    anchorId: null,
    activeId: null,
  }
}

export const useCertificatesStore = createCachedListStore<CertificatesState, CertificateList>(
  {
    blank,
    read: (profileId, source, { filter }) =>
      bridge.call(source === 'cache' ? 'certificates.cached' : 'certificates.refresh', {
        profileId,
        filter,
      }),
    fields: (list, { selected }) => ({
      rows: list.rows,
      firstOf: list.firstOf ?? null,
      folders: list.folders,
      completeness: list.completeness,
      systemHidden: list.systemHidden ?? 0,
      selected: keptSelection(selected, list.rows),
    }),
    reporter: () => useAppStore.getState(),
    topics: ['certificates'],
    onCacheChange: (handler) => bridge.on('cache.changed', handler),
    // The cached list is painted before the service is asked: on a busy machine the refresh
    // (every page of op 16) competes for the CPU with that first paint.
    beforeRefresh: afterNextPaint,
    firstScreenful: {
      async read(profileId, { filter }) {
        const early = await activeFirstScreenfulOf(profileId)
        // The early read was of the opening filter; a new filter is a new object (setFilter).
        if (early !== null && filter === OPENING_CERTIFICATE_FILTER) return early
        return bridge.call('certificates.cached', { profileId, filter, first: firstScreenful() })
      },
      partial: (list) => list.firstOf !== undefined,
    },
  },
  (set, get, list) => ({
    ...blank(),
    sort: { key: 'name', direction: 'asc' },

    setFilter(patch) {
      const filter = { ...get().filter, ...patch }
      set({ filter })
      const { profileId } = get()
      if (!profileId) return
      filtersByProfile.set(profileId, filter)
      // The cache answers each keystroke; the service is asked once typing pauses.
      const mine = list.begin()
      void list.readCache(profileId, mine)
      clearTimeout(filterTimer)
      filterTimer = setTimeout(() => {
        if (mine === list.current() && !get().offline) void get().refresh()
      }, 400)
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
  }),
)
