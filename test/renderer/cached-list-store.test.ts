import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BridgeError } from '../../src/shared/bridge'
import { BridgeCallError } from '../../src/renderer/src/bridge-client'
import type { CacheChange } from '../../src/renderer/src/lib/cache-events'
import {
  createCachedListStore,
  type CachedListOptions,
  type CachedListState,
  type ListAnswer,
  type ListReporter,
  type ListSource,
} from '../../src/renderer/src/lib/cached-list-store'

/*
 * The cached list store the sessions, certificates and status page screens are built on. The
 * far side (main's cache and the service) is a script of answers the test releases one by one,
 * so the order in which answers arrive is the test's to choose.
 */

interface NamesAnswer extends ListAnswer {
  names: string[]
  /** A first screenful's answer: how many names the whole list holds. */
  of?: number
}

interface NamesState extends CachedListState {
  names: string[]
  /** Set by the screen's own action (extend). */
  marked: string | null
  mark(name: string): void
}

interface PendingRead {
  profileId: string
  source: ListSource
  answer(value: NamesAnswer | Error): void
}

const OFFLINE: BridgeError = { code: 'OFFLINE', message: 'the service could not be reached' }
const UNAUTHORIZED: BridgeError = { code: 'UNAUTHORIZED', message: 'token expired', status: 401 }

function answer(names: string[], patch: Partial<ListAnswer> = {}): NamesAnswer {
  return { names, offline: false, error: null, fetchedAt: 1_700_000_000_000, ...patch }
}

/** A store whose reads wait for the test, and the record of what it told the app. */
function scriptedStore(options: Partial<CachedListOptions<NamesState, NamesAnswer>> = {}) {
  const pending: PendingRead[] = []
  const connectivity: { profileId: string; offline: boolean; error: BridgeError | null }[] = []
  const signIns: { profileId: string; message: string }[] = []
  const cacheListeners = new Set<(change: CacheChange) => void>()
  const reporter: ListReporter = {
    reportConnectivity: (profileId, update) =>
      connectivity.push({ profileId, offline: update.offline, error: update.error }),
    requestSignIn: (request) => signIns.push(request),
  }
  const store = createCachedListStore<NamesState, NamesAnswer>(
    {
      blank: () => ({ names: [] }),
      read: (profileId, source) =>
        new Promise((resolve, reject) => {
          pending.push({
            profileId,
            source,
            answer: (value) => (value instanceof Error ? reject(value) : resolve(value)),
          })
        }),
      fields: (list) => ({ names: list.names }),
      reporter: () => reporter,
      topics: ['sessions'],
      onCacheChange: (handler) => {
        cacheListeners.add(handler)
        return () => cacheListeners.delete(handler)
      },
      ...options,
    },
    (set) => ({
      names: [],
      marked: null,
      mark: (name) => set({ marked: name }),
    }),
  )

  /** Answers the oldest read still waiting (after checking what it asked for). */
  async function release(
    expected: { profileId: string; source: ListSource },
    value: NamesAnswer | Error,
  ) {
    await until(() => pending.length > 0)
    const read = pending.shift()!
    expect({ profileId: read.profileId, source: read.source }).toEqual(expected)
    read.answer(value)
  }

  /** Shows p1 from its cache alone, the cache read answered with `names` (and `patch`). */
  async function showCached(names: string[], patch: Partial<ListAnswer> = {}) {
    const shown = store.getState().show('p1', { refresh: false })
    await release({ profileId: 'p1', source: 'cache' }, answer(names, patch))
    await shown
  }

  /** Pushes a `cache.changed` event as main would. */
  function cacheChanged(change: Partial<CacheChange>) {
    const full = { name: 'putList', tables: [], topics: [], profileId: 'p1', ...change }
    for (const listener of cacheListeners) listener(full)
  }

  return { store, pending, connectivity, signIns, release, showCached, cacheChanged }
}

/**
 * Lets the store's awaited reads run until `done` holds (bounded: a stuck store fails). A turn is
 * a microtask by default; `nextTimer` lets timers run between checks, for waits that go
 * through one.
 */
async function until(done: () => boolean, turn: () => Promise<unknown> = () => Promise.resolve()) {
  for (let count = 0; count < 100 && !done(); count += 1) await turn()
  expect(done()).toBe(true)
}

const nextTimer = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('cached list store', () => {
  it('shows the cached list at once, then the service list, reporting each to the app', async () => {
    const { store, connectivity, release } = scriptedStore()
    const shown = store.getState().show('p1', { refresh: true })
    expect(store.getState()).toMatchObject({ profileId: 'p1', loaded: false, names: [] })

    await release({ profileId: 'p1', source: 'cache' }, answer(['cached'], { fetchedAt: 1 }))
    await until(() => store.getState().refreshing)
    expect(store.getState()).toMatchObject({ names: ['cached'], loaded: true, fetchedAt: 1 })

    await release({ profileId: 'p1', source: 'service' }, answer(['fresh'], { fetchedAt: 2 }))
    await shown
    expect(store.getState()).toMatchObject({
      names: ['fresh'],
      fetchedAt: 2,
      refreshing: false,
      offline: false,
      error: null,
    })
    expect(connectivity).toEqual([
      { profileId: 'p1', offline: false, error: null },
      { profileId: 'p1', offline: false, error: null },
    ])
  })

  it('drops the answers for a profile no longer shown', async () => {
    const { store, release } = scriptedStore()
    const first = store.getState().show('p1', { refresh: false })
    const second = store.getState().show('p2', { refresh: false })
    expect(store.getState()).toMatchObject({ profileId: 'p2', names: [] })

    await release({ profileId: 'p1', source: 'cache' }, answer(['of p1']))
    await release({ profileId: 'p2', source: 'cache' }, answer(['of p2']))
    await Promise.all([first, second])
    expect(store.getState().names).toEqual(['of p2'])
  })

  it('starts a switched-to profile blank, keeping the screen fields that are not per profile', async () => {
    const { store, showCached } = scriptedStore()
    await showCached(['a'])
    store.getState().mark('kept')

    void store.getState().show('p2', { refresh: false })
    expect(store.getState()).toMatchObject({
      profileId: 'p2',
      names: [],
      fetchedAt: null,
      loaded: false,
      marked: 'kept',
    })
  })

  it('keeps the cached rows when the service cannot be reached, and flags the profile offline', async () => {
    const { store, connectivity, signIns, release } = scriptedStore()
    const shown = store.getState().show('p1', { refresh: true })
    await release({ profileId: 'p1', source: 'cache' }, answer(['cached']))
    await release(
      { profileId: 'p1', source: 'service' },
      answer(['cached'], { offline: true, error: OFFLINE }),
    )
    await shown
    expect(store.getState()).toMatchObject({ names: ['cached'], offline: true, error: OFFLINE })
    expect(connectivity.at(-1)).toEqual({ profileId: 'p1', offline: true, error: OFFLINE })
    expect(signIns).toEqual([])
  })

  it('hides the error of an offline answer when asked (the app banner says it)', async () => {
    const { store, showCached } = scriptedStore({ hideErrorWhenOffline: true })
    await showCached([], { offline: true, error: OFFLINE })
    expect(store.getState()).toMatchObject({ offline: true, error: null })
  })

  it('asks for sign-in on an auth error from the service, not on one from the cache', async () => {
    const { store, signIns, release } = scriptedStore()
    const shown = store.getState().show('p1', { refresh: true })
    await release({ profileId: 'p1', source: 'cache' }, answer([], { error: UNAUTHORIZED }))
    await until(() => store.getState().refreshing)
    expect(signIns).toEqual([])
    await release({ profileId: 'p1', source: 'service' }, answer([], { error: UNAUTHORIZED }))
    await shown
    expect(signIns).toEqual([{ profileId: 'p1', message: 'token expired' }])
  })

  it('leaves sign-in to failed reads when the screen asks so', async () => {
    const { store, signIns, release } = scriptedStore({ signInOnAuthError: false })
    const refreshed = store.getState().show('p1', { refresh: true })
    await release({ profileId: 'p1', source: 'cache' }, answer([]))
    await release({ profileId: 'p1', source: 'service' }, answer([], { error: UNAUTHORIZED }))
    await refreshed
    expect(signIns).toEqual([])

    const failed = store.getState().refresh()
    await release({ profileId: 'p1', source: 'service' }, new BridgeCallError('x', UNAUTHORIZED))
    await failed
    expect(signIns).toEqual([{ profileId: 'p1', message: 'token expired' }])
    expect(store.getState()).toMatchObject({ error: { code: 'UNAUTHORIZED' }, refreshing: false })
  })

  it('reports a read that fails to reach main as offline, keeping what was shown', async () => {
    const { store, connectivity, release, showCached } = scriptedStore()
    await showCached(['cached'], { fetchedAt: 5 })
    const failed = store.getState().refresh()
    await release({ profileId: 'p1', source: 'service' }, new BridgeCallError('x', OFFLINE))
    await failed
    expect(store.getState()).toMatchObject({ names: ['cached'], offline: true, error: OFFLINE })
    expect(connectivity.at(-1)).toEqual({ profileId: 'p1', offline: true, error: OFFLINE })
  })

  it('lets show() wait for the read preload() started instead of reading again', async () => {
    const { store, pending, release } = scriptedStore()
    store.getState().preload('p1')
    const shown = store.getState().show('p1', { refresh: false })
    expect(pending).toHaveLength(1)
    await release({ profileId: 'p1', source: 'cache' }, answer(['early']))
    await shown
    expect(pending).toHaveLength(0)
    expect(store.getState().names).toEqual(['early'])
  })

  describe('opening on the screen: its first screenful, then the whole list', () => {
    // The store waits for a painted frame between the two: Node has no frames, so one is a
    // timer turn here.
    const realFrame = globalThis.requestAnimationFrame
    beforeEach(() => {
      globalThis.requestAnimationFrame = (next) => setTimeout(() => next(0), 0) as never
    })
    afterEach(() => {
      globalThis.requestAnimationFrame = realFrame
    })

    function withFirstScreenful() {
      const firstReads: PendingRead[] = []
      const scripted = scriptedStore({
        firstScreenful: {
          read: (profileId) =>
            new Promise((resolve, reject) => {
              firstReads.push({
                profileId,
                source: 'cache',
                answer: (value) => (value instanceof Error ? reject(value) : resolve(value)),
              })
            }),
          partial: (list) => list.of !== undefined,
        },
      })
      return { ...scripted, firstReads }
    }

    it('shows the first rows, then reads the whole list; show() waits for both', async () => {
      const { store, pending, release, firstReads } = withFirstScreenful()
      store.getState().preload('p1', { firstScreenful: true })
      const shown = store.getState().show('p1', { refresh: false })
      expect(firstReads.map((read) => read.profileId)).toEqual(['p1'])
      expect(pending).toHaveLength(0)
      firstReads[0]!.answer({ ...answer(['a', 'b']), of: 3 })
      await until(() => store.getState().names.length === 2)
      expect(store.getState()).toMatchObject({ loaded: true, names: ['a', 'b'] })
      // Not before the frame that shows them.
      expect(pending).toHaveLength(0)
      // The frame (a timer here), then the store's timer after it: however many timer turns
      // that takes on a busy machine, not a fixed wait.
      await until(() => pending.length > 0, nextTimer)
      await release({ profileId: 'p1', source: 'cache' }, answer(['a', 'b', 'c']))
      await shown
      expect(store.getState().names).toEqual(['a', 'b', 'c'])
      expect(pending).toHaveLength(0)
    })

    it('reads no more when the first answer was the whole list', async () => {
      const { store, pending, firstReads } = withFirstScreenful()
      store.getState().preload('p1', { firstScreenful: true })
      const shown = store.getState().show('p1', { refresh: false })
      firstReads[0]!.answer(answer(['only']))
      await shown
      expect(store.getState().names).toEqual(['only'])
      expect(pending).toHaveLength(0)
    })

    it('reads the whole list when the first read fails, and drops a first answer no longer wanted', async () => {
      const { store, pending, release, firstReads } = withFirstScreenful()
      store.getState().preload('p1', { firstScreenful: true })
      const shown = store.getState().show('p1', { refresh: false })
      firstReads[0]!.answer(new Error('refused'))
      await release({ profileId: 'p1', source: 'cache' }, answer(['x', 'y']))
      await shown
      expect(store.getState().names).toEqual(['x', 'y'])

      store.getState().preload('p1', { firstScreenful: true })
      // Another profile is shown before the first screenful arrives: it never shows.
      const other = store.getState().show('p2', { refresh: false })
      firstReads[1]!.answer({ ...answer(['stale']), of: 9 })
      await release({ profileId: 'p2', source: 'cache' }, answer(['p2 row']))
      await other
      expect(store.getState()).toMatchObject({ profileId: 'p2', names: ['p2 row'] })
      expect(pending).toHaveLength(0)
    })

    it('reads the whole list at once without firstScreenful (the screen opened with parameters)', async () => {
      const { store, pending, release, firstReads } = withFirstScreenful()
      store.getState().preload('p1')
      const shown = store.getState().show('p1', { refresh: false })
      expect(firstReads).toHaveLength(0)
      expect(pending).toHaveLength(1)
      await release({ profileId: 'p1', source: 'cache' }, answer(['all']))
      await shown
      expect(store.getState().names).toEqual(['all'])
    })
  })

  it('re-reads the cache for the shown profile on reloadCached()', async () => {
    const { store, showCached, release } = scriptedStore()
    await showCached(['old'])
    const reloaded = store.getState().reloadCached()
    await release({ profileId: 'p1', source: 'cache' }, answer(['new']))
    await reloaded
    expect(store.getState().names).toEqual(['new'])
  })

  it('follows the cache: re-reads on its topics for the profile, not during a refresh or a pause', async () => {
    const { store, showCached, pending, release, cacheChanged } = scriptedStore()
    await showCached(['old'])
    let paused = false
    const stop = store.getState().followCache('p1', () => paused)

    cacheChanged({ topics: ['activity'] })
    cacheChanged({ topics: ['sessions'], profileId: 'p2' })
    paused = true
    cacheChanged({ topics: ['sessions'] })
    expect(pending).toHaveLength(0)

    paused = false
    cacheChanged({ topics: ['sessions'] })
    await release({ profileId: 'p1', source: 'cache' }, answer(['new']))
    await until(() => store.getState().names[0] === 'new')

    const refreshed = store.getState().refresh()
    cacheChanged({ topics: ['sessions'], profileId: null })
    await release({ profileId: 'p1', source: 'service' }, answer(['fresh']))
    await refreshed
    expect(pending).toHaveLength(0)

    stop()
    cacheChanged({ topics: ['sessions'] })
    expect(pending).toHaveLength(0)
  })
})

describe('a list the service keeps for browser sessions', () => {
  it('keeps saying so when the cache is read again after the refusal', async () => {
    const BROWSER_ONLY: BridgeError = {
      code: 'BROWSER_SESSION_ONLY',
      message: 'an API token cannot list or end them',
      status: 403,
    }
    const { store, release, cacheChanged } = scriptedStore()
    const stop = store.getState().followCache('p1')
    const shown = store.getState().show('p1', { refresh: true })
    await release({ profileId: 'p1', source: 'cache' }, answer([]))
    await release({ profileId: 'p1', source: 'service' }, new BridgeCallError('x', BROWSER_ONLY))
    await shown
    expect(store.getState().error).toEqual(BROWSER_ONLY)
    // Main wrote the cache meanwhile (the refusal's own bookkeeping): the re-read finds it empty.
    cacheChanged({ topics: ['sessions'] })
    await release({ profileId: 'p1', source: 'cache' }, answer([]))
    await until(() => store.getState().loaded)
    expect(store.getState().error).toEqual(BROWSER_ONLY)
    stop()
  })
})
