import { create } from 'zustand'
import type { BridgeError, Notice, Profile } from '../../../shared/bridge'
import type { Reach } from '../../../shared/bridge/connectivity'
import { asBridgeError, bridge } from '../bridge'
import { NO_CONNECTIVITY, seededConnectivity } from './connectivity-account'
import { formatHash, parseHash, START_ROUTE, type Route, type RouteParams } from './routes'

/*
 * App-wide state: which profiles exist and which one is active, where the user is, what the
 * app has to tell them (notices, offline, sign-in needed). Feature screens keep their own
 * stores and report connectivity here, so the banner and the sign-in dialog live in one place.
 */

export { isRoute, ROUTES, type Route } from './routes'

export interface Connectivity {
  /** The last call could not reach the service (OFFLINE or TIMEOUT). */
  offline: boolean
  error: BridgeError | null
  /** When the data on screen was fetched from the service (epoch ms), if known. */
  dataFetchedAt: number | null
  /** When the last call to the service ended (main's tracker); null: none this run. */
  checkedAt: number | null
}

export type ProfileDialog =
  { kind: 'add' } | { kind: 'edit'; profileId: string } | { kind: 'remove'; profileId: string }

export interface SignInRequest {
  profileId: string
  message: string
}

interface AppState {
  phase: 'loading' | 'ready' | 'failed'
  loadError: BridgeError | null
  mode: 'desktop' | 'web' | null
  version: string
  profiles: Profile[]
  activeId: string | null
  notices: Notice[]
  connectivity: Record<string, Connectivity>
  signIn: SignInRequest | null
  profileDialog: ProfileDialog | null
  route: Route
  /** Parameters the screen opens with (ids to prefill), from the hash or the palette. */
  routeParams: RouteParams

  start(): Promise<void>
  reloadProfiles(): Promise<void>
  /** Makes a profile active; throws a BridgeCallError when the main process refuses. */
  activate(profileId: string): Promise<void>
  navigate(route: Route, params?: RouteParams): void
  addNotice(notice: Notice): void
  dismissNotice(id: string): void
  reportConnectivity(profileId: string, update: Partial<Connectivity>): void
  /** What main's calls found (connectivity.check), into the one account above. */
  applyReach(reach: Record<string, Reach>): void
  requestSignIn(request: SignInRequest): void
  closeSignIn(): void
  openProfileDialog(dialog: ProfileDialog | null): void
}

/**
 * The screen the address names (a bookmark, a second window, a reload), else the default. Read
 * once, when this module loads: the web transport has taken its launch secret out of the
 * fragment by then (bridge.ts loads first), so `#secret=…#/sessions` reads as `#/sessions`.
 */
function locationFromHash(): { route: Route; routeParams: RouteParams } {
  const parsed = parseHash(window.location.hash)
  return parsed ? { route: parsed.route, routeParams: parsed.params } : INITIAL_LOCATION
}

/** Only when the address names no screen; the first run still lands on the new profile's sessions. */
const INITIAL_LOCATION: { route: Route; routeParams: RouteParams } = {
  route: START_ROUTE,
  routeParams: {},
}

export const useAppStore = create<AppState>()((set, get) => ({
  phase: 'loading',
  loadError: null,
  mode: null,
  version: '',
  profiles: [],
  activeId: null,
  notices: [],
  connectivity: {},
  signIn: null,
  profileDialog: null,
  ...locationFromHash(),

  async start() {
    set({ phase: 'loading', loadError: null })
    try {
      const askedAt = Date.now()
      const [info, list] = await Promise.all([
        bridge.call('app.info', {}),
        bridge.call('profiles.list', {}),
      ])
      set((state) => ({
        phase: 'ready',
        mode: info.mode,
        version: info.version,
        profiles: list.profiles,
        activeId: list.activeId,
        connectivity: seededConnectivity(state.connectivity, list.connectivity, askedAt),
        notices: mergeNotices(state.notices, info.notices),
      }))
    } catch (error) {
      set({ phase: 'failed', loadError: asBridgeError(error) })
    }
  },

  async reloadProfiles() {
    try {
      const askedAt = Date.now()
      const list = await bridge.call('profiles.list', {})
      set((state) => ({
        profiles: list.profiles,
        activeId: list.activeId,
        connectivity: seededConnectivity(state.connectivity, list.connectivity, askedAt),
      }))
    } catch (error) {
      get().addNotice({
        id: 'profiles-reload',
        level: 'error',
        message: `Could not reload profiles: ${asBridgeError(error).message}`,
      })
    }
  },

  async activate(profileId) {
    const profile = await bridge.call('profiles.activate', { id: profileId })
    set((state) => ({
      activeId: profile.id,
      profiles: state.profiles.some((p) => p.id === profile.id)
        ? state.profiles.map((p) => (p.id === profile.id ? profile : p))
        : [...state.profiles, profile],
    }))
  },

  navigate(route, params = {}) {
    const hash = formatHash(route, params)
    if (window.location.hash !== hash) window.location.hash = hash.slice(1)
    set({ route, routeParams: params })
  },

  addNotice(notice) {
    set((state) => ({ notices: mergeNotices(state.notices, [notice]) }))
  },

  dismissNotice(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }))
  },

  reportConnectivity(profileId, update) {
    set((state) => {
      const current = state.connectivity[profileId] ?? NO_CONNECTIVITY
      // A finding older than the one shown (an answer overtaken by an event) changes nothing
      // of the state; a screen's data age (dataFetchedAt) is still taken.
      const older =
        update.checkedAt != null &&
        current.checkedAt !== null &&
        update.checkedAt < current.checkedAt
      const next = older
        ? {
            ...current,
            ...(update.dataFetchedAt === undefined ? {} : { dataFetchedAt: update.dataFetchedAt }),
          }
        : { ...current, ...update }
      return { connectivity: { ...state.connectivity, [profileId]: next } }
    })
  },

  applyReach(reachMap) {
    for (const [profileId, reach] of Object.entries(reachMap)) {
      get().reportConnectivity(profileId, {
        offline: !reach.online,
        error: reach.error,
        checkedAt: reach.checkedAt,
      })
    }
  },

  requestSignIn(request) {
    // A second 401 for the same profile while the dialog is open changes nothing.
    if (get().signIn?.profileId === request.profileId) return
    set({ signIn: request })
  },

  closeSignIn() {
    set({ signIn: null })
  },

  openProfileDialog(dialog) {
    set({ profileDialog: dialog })
  },
}))

/*
 * The address names the screen whenever it changes, from the start: also while the app is still
 * loading and no shell is mounted to listen (a route asked for then was lost, and the app
 * opened on the Overview instead). Here rather than in a component: the store outlives them all.
 */
window.addEventListener('hashchange', () => {
  const parsed = parseHash(window.location.hash)
  if (parsed === null) return
  const { route, routeParams, navigate } = useAppStore.getState()
  // The change navigate() made itself: the store is there already.
  if (formatHash(route, routeParams) === formatHash(parsed.route, parsed.params)) return
  navigate(parsed.route, parsed.params)
})

/** Newer notices replace older ones with the same id; order is kept. */
function mergeNotices(current: Notice[], incoming: Notice[]): Notice[] {
  const byId = new Map(current.map((notice) => [notice.id, notice]))
  for (const notice of incoming) byId.set(notice.id, notice)
  return [...byId.values()]
}

export function selectActiveProfile(state: AppState): Profile | null {
  return state.profiles.find((profile) => profile.id === state.activeId) ?? null
}

export function selectProfile(profileId: string | null | undefined) {
  return (state: AppState): Profile | null =>
    state.profiles.find((profile) => profile.id === profileId) ?? null
}
