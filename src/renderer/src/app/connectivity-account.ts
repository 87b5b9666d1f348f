import type { Reach } from '../../../shared/bridge/connectivity'
import type { Connectivity } from './store'

/*
 * The app store's mirror of main's account of each profile's connectivity
 * (src/main/profiles/connectivity.ts): seeded from profiles.list, followed by
 * connectivity.changed. Kept apart from the store so the merge is tested without a window.
 */

/** A profile no call was made for this run: not offline, not known to be online either. */
export const NO_CONNECTIVITY: Connectivity = {
  offline: false,
  error: null,
  dataFetchedAt: null,
  checkedAt: null,
}

/**
 * Main's account of every profile's connectivity (profiles.list) laid over the store's: main's
 * entry wins unless the store heard of a later call (an event that overtook the answer); a
 * profile main knows nothing of is "not checked" again (its URL or route changed), unless the
 * store heard of a call since the list was asked for. The screens' own data ages are kept.
 */
export function seededConnectivity(
  current: Record<string, Connectivity>,
  fromMain: Record<string, Reach>,
  askedAt: number,
): Record<string, Connectivity> {
  const next: Record<string, Connectivity> = {}
  for (const [profileId, entry] of Object.entries(current)) {
    const reach = fromMain[profileId]
    const heardSince = entry.checkedAt !== null && entry.checkedAt >= askedAt
    if (reach === undefined && !heardSince) {
      next[profileId] = { ...entry, offline: false, error: null, checkedAt: null }
    } else next[profileId] = entry
  }
  for (const [profileId, reach] of Object.entries(fromMain)) {
    const entry = next[profileId] ?? NO_CONNECTIVITY
    if (entry.checkedAt !== null && entry.checkedAt > reach.checkedAt) continue
    next[profileId] = {
      ...entry,
      offline: !reach.online,
      error: reach.error,
      checkedAt: reach.checkedAt,
    }
  }
  return next
}
