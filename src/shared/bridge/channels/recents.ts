import { z } from 'zod'
import { id } from '../common'

/*
 * Ids the user typed, remembered per profile and kind (a migration id, a node id, a database
 * id...) and offered back as suggestions, newest first.
 */

/** `kind` names what the value is, e.g. "migration", "node", "database", "volume". */
export const recentKind = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'A lowercase kind name')
export const recentValue = z.string().trim().min(1).max(500)

export const recentsChannels = {
  'recents.list': () => ({
    input: z.object({ profileId: id, kind: recentKind, limit: z.int().min(1).max(50).default(10) }),
    output: z.array(z.string()),
  }),
  'recents.remember': () => ({
    input: z.object({ profileId: id, kind: recentKind, value: recentValue }),
    output: z.null(),
  }),
} as const

export const recentsEvents = {} as const
