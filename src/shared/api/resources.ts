import { z } from 'zod'

/*
 * Resources as the service returns them. Responses are parsed leniently (docs/SERVICE.md,
 * "Full field sets of the generic resources"):
 * unknown fields pass through, so every object here is a loose object.
 */

/** The generic resource of the spec's 2.1: optional id and name, anything else. */
export const resourceSchema = z.lazy(() =>
  z.looseObject({
    id: z.string().optional(),
    name: z.string().optional(),
  }),
)
export type Resource = z.infer<typeof resourceSchema>

export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.looseObject({ data })
}

/**
 * The envelope of a move or reorder (ops 3, 4, 9, 10, 11): `{data}`, or a real deployment's
 * bare `{"success": true}` with no `data` (the work is done; there is nothing to show of it).
 * Anything else (neither `data` nor `success: true`) is still not an answer the app can use.
 */
export function dataOrSuccessEnvelope<T extends z.ZodType>(data: T) {
  return z
    .looseObject({ data: data.optional(), success: z.boolean().optional() })
    .refine((answer) => answer.data !== undefined || answer.success === true, {
      message: 'Neither "data" nor "success": true',
      path: ['data'],
    })
}

export const AUTH_METHODS = ['oidc', 'password', 'email_otp'] as const

/** 2.2. Timestamps are integers of an unshown unit: seconds or milliseconds (see `toEpochMs`). */
export const sessionSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    authMethod: z.string(),
    createdAt: z.number(),
    lastSeenAt: z.number(),
    expiresAt: z.number(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
    mfaSatisfiedAt: z.number().nullable(),
    isCurrent: z.boolean(),
  }),
)
export type Session = z.infer<typeof sessionSchema>

/** 2.3 */
export const logoutResponseSchema = z.lazy(() =>
  z.looseObject({
    message: z.string(),
    logoutUrl: z.string().optional(),
  }),
)
export type LogoutResponse = z.infer<typeof logoutResponseSchema>

export const MIGRATION_STATUSES = [
  'pending',
  'running',
  'waiting',
  'cancelling',
  'cancelled',
  'completed',
  'failed',
  'cleanup_pending',
  'needs_attention',
] as const
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number]

/**
 * The phases a real deployment's docker migration goes through, in order (its docker module's
 * DockerMigrationPhase; `rollback` stands aside). The spec shows `phase` as a string only: the
 * app reads any phase, and places these on the way from queued to done.
 */
export const MIGRATION_PHASES = [
  'queued',
  'locking',
  'preparing',
  'maintenance',
  'stopping_source',
  'preparing_volumes',
  'transferring',
  'creating_target',
  'verifying_target',
  'starting_target',
  'cutover',
  'proxy_cutover',
  'cleanup_source',
  'finalizing',
  'done',
] as const

/** 2.4. `status` is read as any string: the client shows whatever status comes back. */
export const migrationSchema = z.lazy(() =>
  z.looseObject({
    id: z.string(),
    resourceType: z.string(),
    resourceName: z.string(),
    deploymentId: z.string().nullable(),
    sourceNodeId: z.string(),
    targetNodeId: z.string(),
    targetNodeSlug: z.string().nullable(),
    targetResourceId: z.string().nullable(),
    keepSource: z.boolean(),
    sourceState: z.string(),
    status: z.string(),
    phase: z.string(),
    progress: z.record(z.string(), z.unknown()),
    verification: z.record(z.string(), z.unknown()),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    cancellationRequestedAt: z.string().nullable(),
    cutoverAt: z.string().nullable(),
    createdAt: z.string().nullable(),
    startedAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
  }),
)
export type Migration = z.infer<typeof migrationSchema>

/** 2.5 */
/** One model of the inference catalog (op 6): an id, and whatever else the service sends. */
export const inferenceModelSchema = z.lazy(() => z.looseObject({ id: z.string() }))
export type InferenceModel = z.infer<typeof inferenceModelSchema>

export const inferenceCatalogSchema = z.lazy(() =>
  z.looseObject({
    object: z.literal('list'),
    data: z.array(inferenceModelSchema),
  }),
)
export type InferenceCatalog = z.infer<typeof inferenceCatalogSchema>

/** 2.6. Field types are not shown by the spec, so they are read as unknown-but-present. */
export const appMemberSchema = z.lazy(() =>
  z.looseObject({
    type: z.unknown(),
    id: z.unknown(),
    name: z.unknown(),
    environmentId: z.unknown(),
    nodeIds: z.unknown(),
    nodeId: z.unknown().optional(),
  }),
)
export type AppMember = z.infer<typeof appMemberSchema>

/** Op 5. Rows come as arrays (the sandbox) or as objects (accepted from a real service). */
export const sqlResultSchema = z.lazy(() =>
  z.looseObject({
    command: z.string().optional(),
    rowCount: z.number().nullable().optional(),
    fields: z
      .array(z.looseObject({ name: z.string(), dataType: z.unknown().optional() }))
      .optional(),
    rows: z.array(z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())])).optional(),
    truncated: z.boolean().optional(),
    durationMs: z.number().optional(),
  }),
)
export type SqlResult = z.infer<typeof sqlResultSchema>

export const EXPORT_FORMATS = [
  'pem',
  'der',
  'pkcs12',
  'jks',
  'chain',
  'fullchain',
  'private-key',
  'pem-bundle',
] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** Op 12 as JSON (when not asked for raw bytes). */
export const certificateExportSchema = z.lazy(() =>
  z.looseObject({
    filename: z.string(),
    mediaType: z.string(),
    encoding: z.enum(['base64', 'utf8']),
    content: z.string(),
  }),
)
export type CertificateExport = z.infer<typeof certificateExportSchema>

/** Op 15: a signed download link (the sandbox), or inline base64 `content`. */
export const volumeExportSchema = z.lazy(() =>
  z.looseObject({
    id: z.string().optional(),
    name: z.string().optional(),
    nodeId: z.string().optional(),
    format: z.string().optional(),
    sizeBytes: z.number().optional(),
    sha256: z.string().optional(),
    downloadUrl: z.string().optional(),
    expiresAt: z.string().optional(),
    content: z.string().optional(),
  }),
)
export type VolumeExport = z.infer<typeof volumeExportSchema>

/** Op 16's optional paging block. */
/** Each part on its own: a service may send some of them (the walk reads each it gets). */
export const pageMetaSchema = z.lazy(() =>
  z.looseObject({
    page: z.number().optional(),
    limit: z.number().optional(),
    total: z.number().optional(),
  }),
)

/** Session timestamps: values below 10^12 are seconds, others milliseconds (one reader). */
export { epochMsOf as toEpochMs } from '../time'
