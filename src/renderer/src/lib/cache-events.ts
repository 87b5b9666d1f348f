import type { EventPayload } from '../../../shared/bridge'
import type { CacheTopic } from '../../../shared/bridge/cache-topics'

/*
 * Which `cache.changed` events a view must reload on (the Bruno model: writes announce what they
 * touched, views that show it reload). Views name the topics they show; which of main's tables
 * feed a topic is main's business. A reload is a local SQLite read, so reading once too often is
 * cheap, missing one is not.
 */

export type CacheChange = EventPayload<'cache.changed'>

/**
 * Whether the change concerns one of `topics`; with a profile, only that profile's changes and
 * those of no one profile (they may concern every profile).
 */
export function concerns(
  change: CacheChange,
  topics: readonly CacheTopic[],
  profileId: string | null = null,
): boolean {
  if (profileId !== null && change.profileId !== null && change.profileId !== profileId) {
    return false
  }
  return change.topics.some((topic) => topics.includes(topic))
}
