/*
 * Which `cache.changed` events a view must refetch on (the Bruno model: writes announce the
 * tables they touched, views that read those tables reload). The main process's cache keeps all
 * cached lists in two generic tables, so a change to them may concern the session list; a
 * refetch is a local SQLite read, so reading once too often is cheap, missing one is not.
 */

export interface CacheChange {
  name: string
  tables: string[]
  profileId: string | null
}

const LIST_TABLES = ['cached_items', 'cached_lists']

function mentions(change: CacheChange, pattern: RegExp): boolean {
  return [change.name, ...change.tables].some((name) => pattern.test(name))
}

/** Whether the change may alter the cached session list of `profileId`. */
export function touchesSessions(change: CacheChange, profileId: string): boolean {
  if (change.profileId !== null && change.profileId !== profileId) return false
  return mentions(change, /session/i) || change.tables.some((table) => LIST_TABLES.includes(table))
}

/** Whether the change may alter the activity log. */
export function touchesActivity(change: CacheChange): boolean {
  return mentions(change, /activity/i)
}
