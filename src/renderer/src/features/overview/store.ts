import { create } from 'zustand'
import type { BridgeError } from '../../../../shared/bridge'
import type { CacheTopic } from '../../../../shared/bridge/cache-topics'
import type {
  ExpiringList,
  ExpiryDays,
  Overview,
} from '../../../../shared/bridge/channels/overview'
import { useAppStore } from '../../app/store'
import type { Route, RouteParams } from '../../app/routes'
import { asBridgeError, bridge } from '../../bridge'
import { concerns } from '../../lib/cache-events'

/*
 * The Overview and Expiring everywhere: both read every profile's caches through
 * main (no network call), so they paint at once and offline. They follow the caches: a write
 * to a certificate list, the status page, a transfer (cache.changed) or a profile's
 * connectivity reads them again, coalesced to one read per burst of writes.
 */

interface OverviewState {
  overview: Overview | null
  overviewError: BridgeError | null
  /** The expiry chart's counts, read after the summary (the table does not wait for them). */
  expiryDays: ExpiryDays | null
  expiryDaysError: BridgeError | null
  expiring: ExpiringList | null
  expiringError: BridgeError | null
  loadOverview(): Promise<void>
  /**
   * The overview as a screen about to show it needs it: the read already on its way, or none
   * when the last one is still current (no cache or profile change since), else a new read.
   */
  ensureOverview(): Promise<void>
  /**
   * The expiry chart's counts. The screen asks once its table has been painted with a new
   * overview, so the chart's read never delays the figures.
   */
  loadExpiryDays(): Promise<void>
  /** `days` omitted: the setting's window. */
  loadExpiring(days?: number): Promise<void>
  /** Follows the caches while a screen shows them; returns the unsubscribe. */
  follow(which: 'overview' | 'expiring'): () => void
}

let overviewGeneration = 0
let expiringGeneration = 0
let expiryDaysGeneration = 0
/** The overview read on its way; null when none is. */
let overviewLoading: Promise<void> | null = null
/**
 * Whether the overview in the store still says what the caches hold: false until a read
 * succeeds, and again at any change of what it counts (followChanges). Lets the screen, opened
 * just after the app started its first read (Shell's preload), use that read instead of a
 * second one.
 */
let overviewCurrent = false

export const useOverviewStore = create<OverviewState>()((set, get) => ({
  overview: null,
  overviewError: null,
  expiryDays: null,
  expiryDaysError: null,
  expiring: null,
  expiringError: null,

  loadOverview() {
    const mine = ++overviewGeneration
    followChanges()
    // Current unless a change comes while the read is on its way (it may predate the change).
    overviewCurrent = true
    const loading = (async () => {
      try {
        const overview = await bridge.call('overview.summary', {})
        if (mine === overviewGeneration) set({ overview, overviewError: null })
      } catch (error) {
        overviewCurrent = false
        if (mine === overviewGeneration) set({ overviewError: asBridgeError(error) })
      }
    })()
    overviewLoading = loading
    void loading.finally(() => {
      if (overviewLoading === loading) overviewLoading = null
    })
    return loading
  },

  ensureOverview() {
    if (overviewLoading !== null) return overviewLoading
    if (overviewCurrent && get().overview !== null) return Promise.resolve()
    return get().loadOverview()
  },

  async loadExpiryDays() {
    const mine = ++expiryDaysGeneration
    try {
      const expiryDays = await bridge.call('overview.expiryDays', {})
      if (mine === expiryDaysGeneration) set({ expiryDays, expiryDaysError: null })
    } catch (error) {
      if (mine === expiryDaysGeneration) set({ expiryDaysError: asBridgeError(error) })
    }
  },

  async loadExpiring(days) {
    const mine = ++expiringGeneration
    try {
      const expiring = await bridge.call('overview.expiring', days === undefined ? {} : { days })
      if (mine === expiringGeneration) set({ expiring, expiringError: null })
    } catch (error) {
      if (mine === expiringGeneration) set({ expiringError: asBridgeError(error) })
    }
  },

  follow(which) {
    let timer: ReturnType<typeof setTimeout> | undefined
    // A refresh writes several tables in a row, a transfer its progress many times a second:
    // at most one read per 150 ms, the last write always followed by one.
    const reload = () => {
      if (timer !== undefined) return
      timer = setTimeout(() => {
        timer = undefined
        if (which === 'overview') void get().loadOverview()
        else void get().loadExpiring(get().expiring?.days)
      }, 150)
    }
    const stops = [
      bridge.on('cache.changed', (change) => {
        if (concerns(change, FOLLOWED_TOPICS)) reload()
      }),
      bridge.on('connectivity.changed', () => {
        if (which === 'overview') reload()
      }),
      bridge.on('profiles.changed', reload),
    ]
    return () => {
      clearTimeout(timer)
      for (const stop of stops) stop()
    }
  },
}))

/**
 * From the first read on, any change of what the overview counts makes the one in the store no
 * longer current (the screen's follow() reads it again while shown; ensureOverview then does).
 */
let followingChanges = false
function followChanges(): void {
  if (followingChanges) return
  followingChanges = true
  const stale = () => {
    overviewCurrent = false
  }
  bridge.on('cache.changed', (change) => {
    if (concerns(change, FOLLOWED_TOPICS)) stale()
  })
  bridge.on('connectivity.changed', stale)
  bridge.on('profiles.changed', stale)
}

/**
 * What the figures are read from (cache/overview.ts in main): the certificate lists, every
 * cached list's date (sessions, inference, incidents: the last refresh), the status page's
 * incidents, transfers.
 */
const FOLLOWED_TOPICS: readonly CacheTopic[] = [
  'certificates',
  'sessions',
  'inference',
  'incidents',
  'transfers',
]

/**
 * Opens a screen about one profile: that profile becomes the active one first (a figure of
 * another profile's row opens that profile's screen), then the screen with its parameters.
 */
export async function openForProfile(
  profileId: string,
  route: Route,
  params: RouteParams = {},
): Promise<void> {
  const app = useAppStore.getState()
  if (app.activeId !== profileId) await app.activate(profileId)
  useAppStore.getState().navigate(route, params)
}
