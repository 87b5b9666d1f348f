import { z } from 'zod'

/*
 * What a `cache.changed` event is about, named for the views that show it. Views reload on the
 * topics they show and never match the main process's SQLite table names: main maps its tables
 * to these topics where it emits, so renaming a topic fails the renderer's type check and a
 * table without topics fails the test that lists the cache's tables.
 */
export const CACHE_TOPICS = [
  /** Cached lists of a profile (main keeps them in its generic list tables). */
  'sessions',
  'inference',
  'incidents',
  'certificates',
  /** Cached answers of operations (the status page, orders). */
  'snapshots',
  'rotations',
  'activity',
  'transfers',
  'sqlTabs',
  'sqlHistory',
  'sqlSchema',
  'sqlLimits',
  'recents',
  /** Objects the service's answers carried (names beside ids). */
  'knownObjects',
] as const

export type CacheTopic = (typeof CACHE_TOPICS)[number]

export const cacheTopicSchema = z.enum(CACHE_TOPICS)
