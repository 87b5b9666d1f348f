import { z } from 'zod'
import { resourceSchema } from '../../api'
import { cachedListSchema, id, profileId } from '../common'

/*
 * Every remaining operation's screens: incidents and the status page, database certificates,
 * logging environments and nginx template folders. One-shot operations without state
 * to keep (ops 4, 14, 17, 19, 20, 22) go through `service.call`; these channels exist where the
 * main process keeps something in SQLite: the status page and its incidents (shown offline),
 * database certificate rotations (a scheduled reread finishes later), and the last known order
 * of environments and template folders (the service has no operation that lists them).
 * contract.ts spreads them into the one bridge contract.
 */

/**
 * A status page incident as op 21 returns it, kept as the service sent it. The spec leaves its
 * fields open ("generic resource"), so only a string `id` is required (op 18 needs it); names,
 * types and units of the rest are the service's, read through src/shared/status-page.ts.
 */
export const incidentSchema = z.lazy(() => z.looseObject({ id: z.string() }))
export type Incident = z.infer<typeof incidentSchema>

/**
 * The page itself (op 21's `data` without its incident lists, which are cached as a list), as
 * the service sent it: any fields, read through src/shared/status-page.ts.
 */
export const statusPageSchema = z.lazy(() => z.record(z.string(), z.unknown()))
export type StatusPage = z.infer<typeof statusPageSchema>

const statusPageState = cachedListSchema(incidentSchema).extend({
  /** The page as last fetched; null when it never was. */
  page: statusPageSchema.nullable(),
})
export type StatusPageState = z.infer<typeof statusPageState>

/** One rotation as this app requested it (op 8), kept so a scheduled reread is followed. */
export const rotationRecordSchema = z.lazy(() =>
  z.object({
    /** The rotation's id from the service, else one of ours. */
    id: z.string(),
    databaseId: z.string(),
    /** Epoch ms when we asked. */
    requestedAt: z.number(),
    allowRestart: z.boolean(),
    /**
     * `completed` when the engine took the certificate before the answer; `pending` while a
     * scheduled reread is still due (it becomes `completed` at `completesAt`).
     */
    status: z.enum(['completed', 'pending']),
    /** Epoch ms the scheduled reread is due; null when there is none. */
    completesAt: z.number().nullable(),
    /** The service's answer, whole (shown field by field). */
    answer: resourceSchema,
  }),
)
export type RotationRecord = z.infer<typeof rotationRecordSchema>

/** An item of a reorderable list (a logging environment, an nginx template folder). */
export const orderedItemSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    name: z.string().optional(),
    sortOrder: z.number().optional(),
    folderId: z.string().optional(),
    folderName: z.string().nullable().optional(),
  }),
)
export type OrderedItem = z.infer<typeof orderedItemSchema>

const knownOrder = z.lazy(() =>
  z.object({
    /** Every item of the last answer, in the service's order; empty when never fetched. */
    items: z.array(orderedItemSchema),
    fetchedAt: z.number().nullable(),
  }),
)
export type KnownOrder = z.infer<typeof knownOrder>

const orderItems = z
  .array(z.object({ id: z.string(), sortOrder: z.int() }))
  .min(1)
  .max(1000)

export const operationChannels = {
  /** Op 21's page and incidents as last cached: answers at once, offline too. */
  'statusPage.cached': () => ({ input: profileId, output: statusPageState }),
  /** Op 21 from the service, stored in the cache; offline, the cached state with the error. */
  'statusPage.refresh': () => ({ input: profileId, output: statusPageState }),
  /** Op 18; recorded in the activity log; the page is fetched again afterwards. */
  'statusPage.resolveIncident': () => ({
    input: profileId.extend({ incidentId: id }),
    output: z.object({ incident: resourceSchema, page: statusPageState }),
  }),

  /** Op 8; the rotation is kept, and a scheduled reread is followed until it is due. */
  'databases.rotate': () => ({
    input: profileId.extend({ databaseId: id, allowRestart: z.boolean() }),
    output: rotationRecordSchema,
  }),
  /** The rotations this app requested for the profile, newest first. */
  'databases.rotations': () => ({
    input: profileId.extend({ limit: z.int().min(1).max(100).default(20) }),
    output: z.array(rotationRecordSchema),
  }),

  /** Op 11 for the items given; the answer (every environment, in order) is kept. */
  'logging.reorder': () => ({
    /** `folderId` names the folder in the activity log; op 11 itself does not take it. */
    input: profileId.extend({ folderId: id.optional(), items: orderItems }),
    output: knownOrder,
  }),
  /** The environments as the last op 11 answer listed them. */
  'logging.knownEnvironments': () => ({ input: profileId, output: knownOrder }),

  /** Op 9 for the items given; the answer (every folder, in order) is kept. */
  'nginxTemplates.reorder': () => ({
    input: profileId.extend({ items: orderItems }),
    output: knownOrder,
  }),
  /** The template folders as the last op 9 answer listed them. */
  'nginxTemplates.knownFolders': () => ({ input: profileId, output: knownOrder }),
} as const

export const operationEvents = {
  /** A scheduled reread came due: the rotation is now completed. */
  'databases.rotationSettled': () =>
    z.object({
      profileId: z.string(),
      rotation: rotationRecordSchema,
    }),
} as const
