import { useEffect } from 'react'
import { create } from 'zustand'
import type { StoreApi, UseBoundStore } from 'zustand'
import type { BridgeError, Profile } from '../../../shared/bridge'
import { asBridgeError } from '../bridge-client'
import type { CacheTopic } from '../../../shared/bridge/cache-topics'
import { concerns, type CacheChange } from './cache-events'
import { isAuthError, isBrowserSessionOnly, isConnectivityError } from './errors'

/*
 * The state every cached list screen shares (sessions, certificates, the status page): the
 * cached list at once, then the service's; a refresh that cannot reach the service keeps the
 * cached rows and flags the profile offline (the app shows the banner). Answers for a profile
 * or a read no longer shown are dropped: each read carries the generation it started in.
 */

/** What main answers for a list, from its cache or from the service (which caches it). */
export interface ListAnswer {
  offline: boolean
  error: BridgeError | null
  fetchedAt: number | null
}

export type ListSource = 'cache' | 'service'

export interface CachedListState {
  profileId: string | null
  /** When the shown list was read from the service; null when never. */
  fetchedAt: number | null
  /** An answer (or a failure) has arrived for `profileId`. */
  loaded: boolean
  refreshing: boolean
  offline: boolean
  /** The last failure to read or refresh; connectivity failures included. */
  error: BridgeError | null

  /** Shows a profile's list: cached first, then (when asked) refreshed from the service. */
  show(profileId: string, options: { refresh: boolean }): Promise<void>
  /**
   * Starts reading the cached list before the screen is first rendered; the screen's show()
   * then waits for that read instead of making its own. With `firstScreenful` (the screen the
   * app opens on, shown as it is), a list that reads one (`CachedListOptions.firstScreenful`)
   * shows its first rows before the whole list is read.
   */
  preload(profileId: string, options?: { firstScreenful?: boolean }): void
  /** Re-reads the cache (after a `cache.changed` event), without calling the service. */
  reloadCached(): Promise<void>
  refresh(): Promise<void>
  /**
   * Re-reads the cached list on each change of its topics for the profile, until the returned
   * function is called; not during a refresh (its answer brings the same rows), nor while
   * `paused()` holds (the screen's own write is under way).
   */
  followCache(profileId: string, paused?: () => boolean): () => void
}

/**
 * A list screen's side of the store: the profile's cached list at once, then the service's
 * (again whenever the profile signs back in), then re-read on each change of the cache.
 */
export function useCachedList(
  list: Pick<CachedListState, 'show' | 'followCache'>,
  profile: Pick<Profile, 'id' | 'signedIn'>,
): void {
  const { show, followCache } = list
  useEffect(() => {
    void show(profile.id, { refresh: profile.signedIn })
  }, [show, profile.id, profile.signedIn])
  useEffect(() => followCache(profile.id), [followCache, profile.id])
}

/** The app-wide reactions a list reports to (the app store; a recorder in tests). */
export interface ListReporter {
  reportConnectivity(
    profileId: string,
    update: { offline: boolean; error: BridgeError | null; dataFetchedAt?: number | null },
  ): void
  requestSignIn(request: { profileId: string; message: string }): void
}

type ListFields<S> = Omit<S, keyof CachedListState>

export interface CachedListOptions<S extends CachedListState, Answer extends ListAnswer> {
  /**
   * The screen's own fields as they are before `profileId`'s list arrives (a screen may keep
   * some per profile, as the certificates screen keeps its filter).
   */
  blank(profileId: string): Partial<ListFields<S>>
  /** Reads the profile's list (the state gives the filter or order to read it in). */
  read(profileId: string, source: ListSource, state: S): Promise<Answer>
  /** The screen's own fields an answer sets. */
  fields(answer: Answer, state: S): Partial<ListFields<S>>
  reporter(): ListReporter
  /** The `cache.changed` topics the list is read from. */
  topics: readonly CacheTopic[]
  /** Subscribes to `cache.changed` (the bridge); returns the unsubscribe function. */
  onCacheChange(handler: (change: CacheChange) => void): () => void
  /** Waits between the cached list and the service's (to let the cached one paint first). */
  beforeRefresh?(): Promise<void>
  /**
   * How the list reads only its first screenful from the cache, and whether an answer was
   * only that (the list holds more): what the app opens on paints it, then reads the whole
   * list. A 10,000-row list takes ~400 ms more to arrive, be checked and rendered on the
   * 2-core machine.
   */
  firstScreenful?: {
    read(profileId: string, state: S): Promise<Answer>
    partial(answer: Answer): boolean
  }
  /** The status page shows no error while offline: the app's banner says it. */
  hideErrorWhenOffline?: boolean
  /** Whether an auth error in the service's answer asks the user to sign in (default true). */
  signInOnAuthError?: boolean
}

/** What a screen's own actions use to read and apply lists like the shared ones do. */
export interface CachedListControl<Answer extends ListAnswer> {
  /** Starts a new generation: answers of reads started before are dropped from now on. */
  begin(): number
  /** The generation now (reads started in it are still wanted). */
  current(): number
  /** Reads the cached list for `generation`, applying it unless a newer one began. */
  readCache(profileId: string, generation: number): Promise<void>
  /** Applies an answer the screen read itself (e.g. the page an action sent back). */
  apply(profileId: string, answer: Answer, source: ListSource): void
}

type Setter<S> = (partial: Partial<S>) => void

/**
 * A zustand store for one cached list screen: the shared state and actions, plus the screen's
 * own (`extend` gets the store's set and get and the list's control).
 */
export function createCachedListStore<S extends CachedListState, Answer extends ListAnswer>(
  options: CachedListOptions<S, Answer>,
  extend: (set: Setter<S>, get: () => S, list: CachedListControl<Answer>) => ListFields<S>,
): UseBoundStore<StoreApi<S>> {
  return create<S>()((set, get) => {
    let generation = 0
    /** The read preload() started, while no other read has started since. */
    let preloaded: { profileId: string; generation: number; read: Promise<void> } | null = null
    /** Sets the screen's own fields and the shared ones at once (one render). */
    function patch(own: Partial<ListFields<S>>, common: Partial<CachedListState>) {
      // The two halves of S, each checked on its own: their union is a partial S.
      set({ ...own, ...common } as Partial<S>)
    }

    function apply(profileId: string, answer: Answer, source: ListSource) {
      const offline = answer.offline || isConnectivityError(answer.error)
      // A service that keeps this list for browser sessions said so on the last read of it: a
      // fact about the token, which a re-read of the (empty) cache must not wipe from the screen.
      const previous = get().error
      const kept =
        source === 'cache' &&
        answer.error === null &&
        get().profileId === profileId &&
        isBrowserSessionOnly(previous)
          ? previous
          : answer.error
      patch(options.fields(answer, get()), {
        fetchedAt: answer.fetchedAt,
        offline,
        error: offline && options.hideErrorWhenOffline ? null : kept,
        loaded: true,
      })
      const reporter = options.reporter()
      reporter.reportConnectivity(profileId, {
        offline,
        error: offline ? answer.error : null,
        dataFetchedAt: answer.fetchedAt,
      })
      const signIn = options.signInOnAuthError ?? true
      if (signIn && source === 'service' && answer.error && isAuthError(answer.error)) {
        reporter.requestSignIn({ profileId, message: answer.error.message })
      }
    }

    function fail(profileId: string, error: unknown) {
      const bridgeError = asBridgeError(error)
      const offline = isConnectivityError(bridgeError)
      patch({}, { error: bridgeError, offline: offline || get().offline, loaded: true })
      const reporter = options.reporter()
      if (offline) {
        reporter.reportConnectivity(profileId, {
          offline: true,
          error: bridgeError,
          dataFetchedAt: get().fetchedAt,
        })
      }
      if (isAuthError(bridgeError)) {
        reporter.requestSignIn({ profileId, message: bridgeError.message })
      }
    }

    /** The first screenful, applied and painted, then the whole list (when there is more). */
    async function readFirstScreenful(
      profileId: string,
      mine: number,
      first: NonNullable<CachedListOptions<S, Answer>['firstScreenful']>,
    ) {
      let answer: Answer | null = null
      try {
        answer = await first.read(profileId, get())
      } catch {
        // The whole list's read, below, fails the same way and reports it.
      }
      if (mine !== generation) return
      if (answer !== null) {
        apply(profileId, answer, 'cache')
        if (!first.partial(answer)) return
        await afterNextPaint()
      }
      if (mine === generation) await read(profileId, mine, 'cache')
    }

    async function read(profileId: string, mine: number, source: ListSource) {
      try {
        const answer = await options.read(profileId, source, get())
        if (mine === generation) apply(profileId, answer, source)
      } catch (error) {
        if (mine === generation) fail(profileId, error)
      }
    }

    /** A profile other than the one shown: its list starts blank. */
    function switchTo(profileId: string) {
      if (get().profileId === profileId) return
      patch(options.blank(profileId), {
        profileId,
        fetchedAt: null,
        loaded: false,
        offline: false,
        error: null,
        refreshing: false,
      })
    }

    const control: CachedListControl<Answer> = {
      begin: () => ++generation,
      current: () => generation,
      readCache: (profileId, mine) => read(profileId, mine, 'cache'),
      apply,
    }

    const shared: Omit<CachedListState, 'profileId'> = {
      fetchedAt: null,
      loaded: false,
      refreshing: false,
      offline: false,
      error: null,

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
          await read(profileId, mine, 'cache')
        }
        if (refresh && mine === generation && options.beforeRefresh) await options.beforeRefresh()
        if (refresh && mine === generation) await get().refresh()
      },

      preload(profileId, { firstScreenful = false } = {}) {
        const mine = ++generation
        switchTo(profileId)
        const first = firstScreenful ? options.firstScreenful : undefined
        preloaded = {
          profileId,
          generation: mine,
          read:
            first === undefined
              ? read(profileId, mine, 'cache')
              : readFirstScreenful(profileId, mine, first),
        }
      },

      async reloadCached() {
        const { profileId } = get()
        if (profileId) await read(profileId, generation, 'cache')
      },

      async refresh() {
        const { profileId } = get()
        if (!profileId) return
        const mine = generation
        patch({}, { refreshing: true })
        try {
          await read(profileId, mine, 'service')
        } finally {
          if (mine === generation) patch({}, { refreshing: false })
        }
      },

      followCache(profileId, paused = () => false) {
        return options.onCacheChange((change) => {
          if (!concerns(change, options.topics, profileId)) return
          if (!get().refreshing && !paused()) void get().reloadCached()
        })
      },
    }

    // One object of S: the screen's own fields and actions, then the shared ones.
    return {
      ...extend(set, get, control),
      profileId: null,
      ...shared,
    } as S
  })
}

/** Settles once the next frame has been painted (what was rendered before it is on screen). */
export function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}

/**
 * The error a list screen shows itself: the shown profile's, and neither a connectivity error
 * (the app's offline banner says it) nor an auth error (the sign-in dialog and panel say it).
 */
export function shownError(list: CachedListState, profileId: string): BridgeError | null {
  const { error } = list
  if (list.profileId !== profileId || error === null) return null
  return isConnectivityError(error) || isAuthError(error) ? null : error
}
