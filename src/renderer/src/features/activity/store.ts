import { create } from 'zustand'
import type { ActivityEntry, BridgeError } from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'

interface ActivityState {
  entries: ActivityEntry[]
  loading: boolean
  loaded: boolean
  error: BridgeError | null
  /** Only the given profile's entries, or every profile's when null. */
  load(profileId: string | null): Promise<void>
}

let generation = 0

/** The activity log: every change made through the app, read from the local SQLite log. */
export const useActivityStore = create<ActivityState>()((set) => ({
  entries: [],
  loading: false,
  loaded: false,
  error: null,

  async load(profileId) {
    const mine = ++generation
    set({ loading: true, error: null })
    try {
      const entries = await bridge.call(
        'activity.list',
        profileId === null ? { limit: 500 } : { profileId, limit: 500 },
      )
      if (mine === generation) set({ entries, loading: false, loaded: true })
    } catch (error) {
      if (mine === generation) set({ error: asBridgeError(error), loading: false, loaded: true })
    }
  },
}))
