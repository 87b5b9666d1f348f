import { z } from 'zod'
import { id, profileId } from '../common'
import { recentKind } from './recents'

/*
 * Objects the service's answers carried, remembered per profile (the service has no list
 * operation for most of them): so the app shows a name beside an id, and suggests ids by name.
 */

export const knownObjectSchema = z.lazy(() =>
  z.object({
    /** What it is, in the suggestion kinds' words: "migration", "copy-job", "node"... */
    kind: recentKind,
    /** The value that addresses it in the service's paths (a volume's or schema's: its name/slug). */
    id,
    name: z.string().nullable(),
    status: z.string().nullable(),
    /** The node it lives on, when the answer said. */
    nodeId: z.string().nullable(),
    /** The other fields that identify it (a migration's source and target nodes, a slug...). */
    fields: z.record(z.string(), z.string()),
    /** The operation whose answer last carried it. */
    operation: z.string(),
    /** Epoch ms of that answer. */
    seenAt: z.number(),
  }),
)
export type KnownObject = z.infer<typeof knownObjectSchema>

export const knownObjectChannels = {
  /** What is known of these ids (any kind), newest sighting first. */
  'knownObjects.lookup': () => ({
    input: profileId.extend({ ids: z.array(id).max(500) }),
    output: z.array(knownObjectSchema),
  }),
  /** Objects of a kind whose id or name contains the text (all of the kind when empty). */
  'knownObjects.search': () => ({
    input: profileId.extend({
      kind: recentKind,
      text: z.string().max(200).default(''),
      limit: z.int().min(1).max(100).default(25),
    }),
    output: z.array(knownObjectSchema),
  }),
} as const
