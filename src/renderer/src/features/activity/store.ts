import { create } from 'zustand'
import type { ActivityEntry, BridgeError } from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'
import { activityRequest, type ActivityFilters } from './filters'

interface ActivityState {
  entries: ActivityEntry[]
  loading: boolean
  loaded: boolean
  error: BridgeError | null
  /** The lines these filters let through (every profile's when no profile is chosen). */
  load(filters: ActivityFilters): Promise<void>
}

let generation = 0

/**
 * The activity log: every change, export and SQL statement made through the app, read from the
 * local SQLite log.
 */
export const useActivityStore = create<ActivityState>()((set) => ({
  entries: [],
  loading: false,
  loaded: false,
  error: null,

  async load(filters) {
    const mine = ++generation
    set({ loading: true, error: null })
    try {
      const entries = await bridge.call('activity.list', activityRequest(filters))
      if (mine === generation) set({ entries, loading: false, loaded: true })
    } catch (error) {
      if (mine === generation) set({ error: asBridgeError(error), loading: false, loaded: true })
    }
  },
}))
