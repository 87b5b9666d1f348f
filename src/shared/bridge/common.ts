import { z } from 'zod'
import { bridgeErrorSchema } from './result'

/*
 * Building blocks every area's channels share (ids, the profile argument, the cached-list
 * answer), kept apart from contract.ts so the per-area channel modules can import them without
 * a cycle.
 */

export const id = z.string().min(1).max(200)
export const profileId = z.object({ profileId: id })
export const empty = z.object({})

/** A list read from the SQLite cache, then refreshed from the service. */
export function cachedListSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    /** When the items were fetched from the service (epoch ms); null when never. */
    fetchedAt: z.number().nullable(),
    /** True when the last refresh could not reach the service. */
    offline: z.boolean(),
    /** Why the last refresh failed, if it did. */
    error: bridgeErrorSchema.nullable(),
  })
}
