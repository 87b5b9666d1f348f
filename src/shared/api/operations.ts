import { z } from 'zod'
import { buildOnFirstUse } from '../build-on-first-use'
import {
  appMemberSchema,
  certificateExportSchema,
  dataEnvelope,
  dataOrSuccessEnvelope,
  EXPORT_FORMATS,
  inferenceCatalogSchema,
  inferenceModelSchema,
  logoutResponseSchema,
  migrationSchema,
  pageMetaSchema,
  resourceSchema,
  sessionSchema,
  sqlResultSchema,
  volumeExportSchema,
} from './resources'

/*
 * The service contract: one entry per operation of the spec's section 4.
 * Requests are strict (to the letter of the spec); responses are lenient.
 * The sandbox validates incoming requests with these very schemas, and the client
 * validates outgoing ones, so both report the same `details[].path`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT'

/** How many rounds of percent-decoding are looked through; deeper nesting is refused. */
const MAX_DECODE_ROUNDS = 8

/** Every valid `%XX` as its byte; a malformed escape stays as it is (servers differ there). */
function decodeEscapes(text: string): string {
  return text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  )
}

/**
 * Whether a path parameter could be folded into a dot segment on its way to a handler: `.` or
 * `..` itself, an escaped form (`%2e`, `.%2E`, `%252e%252e` for a server that decodes twice), or
 * one part of it once a server reads `%2F` or `\` as a separator (`x/..`). Sent, such a value
 * would make the URL name another operation, with our token: `exportVolume {nodeId:'..',
 * name:'..'}` became `GET /api/docker/export`. No real id, name or slug looks like this.
 */
export function foldsToDotSegment(value: string): boolean {
  let current = value
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    if (current.split(/[/\\]/).some((part) => part === '.' || part === '..')) return true
    const decoded = decodeEscapes(current)
    if (decoded === current) return false
    current = decoded
  }
  // Escapes nested deeper than any server would decode: refused rather than guessed about.
  return true
}

export const DOT_SEGMENT_MESSAGE =
  'Cannot be "." or ".." (nor encode one): it would change the path'

/**
 * A path parameter: non-empty, or the URL would not name a resource, and never a dot segment,
 * or it would name another one (see foldsToDotSegment).
 */
const segment = z
  .string()
  .min(1)
  .refine((value) => !foldsToDotSegment(value), DOT_SEGMENT_MESSAGE)
const uuid = z.uuid()

/**
 * Query values arrive as strings on the wire and as typed values from the client:
 * both are accepted, and a string that does not read as the type is reported on its field.
 */
const queryNumber = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value),
  z.number(),
)
const queryBooleanOrNull = z.preprocess((value) => {
  if (value === 'true') return true
  if (value === 'false') return false
  if (value === 'null') return null
  return value
}, z.boolean().nullable())

const noParams = z.strictObject({})
const noQuery = z.strictObject({})

export interface OperationDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** The number of the operation in the spec's section 4. */
  number: number
  summary: string
  method: HttpMethod
  /** Path template with `{name}` placeholders. */
  path: string
  params: P
  query: Q
  /** `null` when the operation takes no body. */
  body: B | null
  /** Whether a body must be present (op 8's body is optional). */
  bodyRequired: boolean
  response: R
  /** Changes state on the service: never retried, always recorded in the activity log. */
  mutates: boolean
}

function op<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  def: OperationDef<P, Q, B, R>,
): OperationDef<P, Q, B, R> {
  return def
}

/**
 * Ops 3 and 4: one folder moved under another (`parentId` null: the top level), or refused. The
 * answer is the moved folder, or `{"success": true}` alone (dataOrSuccessEnvelope).
 */
function moveFolderOp<R extends z.ZodType>(
  number: number,
  summary: string,
  path: string,
  response: R,
) {
  return op({
    number,
    summary,
    method: 'PUT',
    path,
    params: z.strictObject({ id: segment }),
    query: noQuery,
    body: z.strictObject({ parentId: uuid.nullable() }),
    bodyRequired: true,
    response,
    mutates: true,
  })
}

/** `{"success": true}` without `data` as `{success: true, data: {}}`; anything else as it is. */
function bareSuccessAsEmptyData(answer: unknown): unknown {
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return answer
  const record = answer as Record<string, unknown>
  return record['success'] === true && record['data'] === undefined
    ? { ...record, data: {} }
    : answer
}

const orderItems = z.array(z.strictObject({ id: uuid, sortOrder: z.int() }))

/**
 * The 22 operations, each built at its first read (the page and main's core import this module
 * at start and use a few of them then: bridge/contract.ts says why).
 */
export const operations = buildOnFirstUse({
  listSessions: () =>
    op({
      number: 1,
      summary: 'List active browser sessions of the current user',
      method: 'GET',
      path: '/auth/me/sessions',
      params: noParams,
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: z.array(sessionSchema),
      mutates: false,
    }),
  logout: () =>
    op({
      number: 2,
      summary: 'Log out the current browser session',
      method: 'POST',
      path: '/auth/logout',
      params: noParams,
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: logoutResponseSchema,
      mutates: true,
    }),
  moveCertificateFolder: () =>
    moveFolderOp(
      3,
      'Move an SSL certificate folder',
      '/api/ssl-certificates/folders/{id}/move',
      // A bare `{"success": true}` reads as a folder the service said nothing about (`data: {}`):
      // the certificates feature's moveFolder hands on a folder object, so `data` stays one here.
      z.preprocess(bareSuccessAsEmptyData, dataEnvelope(resourceSchema)),
    ),
  moveUserFolder: () =>
    moveFolderOp(
      4,
      'Move a user folder (admin)',
      '/api/admin/user-folders/{id}/move',
      dataOrSuccessEnvelope(resourceSchema),
    ),
  runPostgresQuery: () =>
    op({
      number: 5,
      summary: 'Execute a PostgreSQL SQL statement',
      method: 'POST',
      path: '/api/databases/{id}/postgres/query',
      params: z.strictObject({ id: segment }),
      query: noQuery,
      body: z.strictObject({ sql: z.string(), maxRows: z.int().optional() }),
      bodyRequired: true,
      response: dataEnvelope(sqlResultSchema),
      // A statement may write; it is never retried and always recorded.
      mutates: true,
    }),
  listInferenceModels: () =>
    op({
      number: 6,
      summary: 'List the inference models the current user can call',
      method: 'GET',
      path: '/api/inference/catalog',
      params: noParams,
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: inferenceCatalogSchema,
      mutates: false,
    }),
  uploadCertificate: () =>
    op({
      number: 7,
      summary: 'Upload an SSL certificate',
      method: 'POST',
      path: '/api/ssl-certificates/upload',
      params: noParams,
      query: noQuery,
      body: z.strictObject({
        name: z.string(),
        folderId: uuid.nullable().optional(),
        certificatePem: z.string(),
        privateKeyPem: z.string(),
        chainPem: z.string().optional(),
      }),
      bodyRequired: true,
      response: dataEnvelope(resourceSchema),
      mutates: true,
    }),
  rotateDatabaseCertificate: () =>
    op({
      number: 8,
      summary: 'Rotate a managed database direct-TLS certificate',
      method: 'POST',
      path: '/api/databases/managed/{id}/rotate-certificate',
      params: z.strictObject({ id: segment }),
      query: noQuery,
      body: z.strictObject({ allowRestart: z.boolean().optional() }),
      bodyRequired: false,
      response: dataEnvelope(resourceSchema),
      mutates: true,
    }),
  reorderNginxTemplateFolders: () =>
    op({
      number: 9,
      summary: 'Reorder nginx template folders',
      method: 'PUT',
      path: '/api/nginx-templates/folders/reorder',
      params: noParams,
      query: noQuery,
      body: z.strictObject({ items: orderItems }),
      bodyRequired: true,
      response: dataOrSuccessEnvelope(z.unknown()),
      mutates: true,
    }),
  moveCertificates: () =>
    op({
      number: 10,
      summary: 'Move certificates to a folder',
      method: 'POST',
      path: '/api/certificates/folders/move-certificates',
      params: noParams,
      query: noQuery,
      body: z.strictObject({ ids: z.array(z.string()).min(1), folderId: uuid.nullable() }),
      bodyRequired: true,
      response: dataOrSuccessEnvelope(z.unknown()),
      mutates: true,
    }),
  reorderLoggingEnvironments: () =>
    op({
      number: 11,
      summary: 'Reorder logging environments',
      method: 'PUT',
      path: '/api/logging/environment-folders/reorder-environments',
      params: noParams,
      query: noQuery,
      body: z.strictObject({ items: orderItems.min(1) }),
      bodyRequired: true,
      response: dataOrSuccessEnvelope(z.unknown()),
      mutates: true,
    }),
  exportCertificate: () =>
    op({
      number: 12,
      summary: 'Export a certificate, PEM chain, private key, or PEM bundle',
      method: 'POST',
      path: '/api/certificates/{id}/export',
      params: z.strictObject({ id: segment }),
      query: noQuery,
      body: z.strictObject({ format: z.enum(EXPORT_FORMATS), passphrase: z.string().optional() }),
      bodyRequired: true,
      // The JSON form; raw bytes are asked for with Accept: application/octet-stream.
      response: dataEnvelope(certificateExportSchema),
      mutates: false,
    }),
  resolveMigration: () =>
    op({
      number: 13,
      summary: 'Resolve a migration that needs attention',
      method: 'POST',
      path: '/api/docker/migrations/{id}/resolve',
      params: z.strictObject({ id: segment }),
      query: noQuery,
      body: z.strictObject({ authoritativeSide: z.enum(['source', 'target']) }),
      bodyRequired: true,
      response: dataEnvelope(migrationSchema),
      mutates: true,
    }),
  retryProxyRoute: () =>
    op({
      number: 14,
      summary: 'Retry a failed managed additional route',
      method: 'POST',
      path: '/api/proxy-hosts/{id}/additional-routes/{routeId}/retry',
      params: z.strictObject({ id: segment, routeId: segment }),
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(resourceSchema),
      mutates: true,
    }),
  exportVolume: () =>
    op({
      number: 15,
      summary: 'Export a volume',
      method: 'GET',
      path: '/api/docker/nodes/{nodeId}/volumes/{name}/export',
      params: z.strictObject({ nodeId: segment, name: segment }),
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(volumeExportSchema),
      mutates: false,
    }),
  listCertificates: () =>
    op({
      number: 16,
      summary: 'List SSL certificates',
      method: 'GET',
      path: '/api/ssl-certificates',
      params: noParams,
      query: z.strictObject({
        page: queryNumber.optional(),
        limit: queryNumber.optional(),
        type: z.string().optional(),
        status: z.string().optional(),
        search: z.string().optional(),
        showSystem: queryBooleanOrNull.optional(),
      }),
      body: null,
      bodyRequired: false,
      response: z.looseObject({ data: z.array(resourceSchema), meta: pageMetaSchema.optional() }),
      mutates: false,
    }),
  cancelCopyJob: () =>
    op({
      number: 17,
      summary: 'Cancel a storage copy job',
      method: 'POST',
      path: '/api/storage/copy-jobs/{id}/cancel',
      params: z.strictObject({ id: uuid }),
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(resourceSchema),
      mutates: true,
    }),
  resolveIncident: () =>
    op({
      number: 18,
      summary: 'Resolve a status page incident',
      method: 'POST',
      path: '/api/status-page/incidents/{id}/resolve',
      params: z.strictObject({ id: segment }),
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(resourceSchema),
      mutates: true,
    }),
  resolveDeploymentSource: () =>
    op({
      number: 19,
      summary: "Resolve the branch head of a blue/green deployment's Git source",
      method: 'POST',
      path: '/api/docker/nodes/{nodeId}/deployments/{deploymentId}/source/resolve',
      params: z.strictObject({ nodeId: segment, deploymentId: segment }),
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(resourceSchema),
      mutates: true,
    }),
  listAppMembers: () =>
    op({
      number: 20,
      summary: 'List app members',
      method: 'GET',
      path: '/api/apps/{id}/members',
      params: z.strictObject({ id: segment }),
      query: z.strictObject({ environmentId: uuid.optional() }),
      body: null,
      bodyRequired: false,
      response: dataEnvelope(z.array(appMemberSchema)),
      mutates: false,
    }),
  getStatusPagePreview: () =>
    op({
      number: 21,
      summary: 'Get status page preview data',
      method: 'GET',
      path: '/api/status-page/preview',
      params: noParams,
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(z.unknown()),
      mutates: false,
    }),
  getLoggingSchema: () =>
    op({
      number: 22,
      summary: 'Resolve a logging schema by slug',
      method: 'GET',
      path: '/api/logging/schemas/by-slug/{slug}',
      params: z.strictObject({ slug: segment }),
      query: noQuery,
      body: null,
      bodyRequired: false,
      response: dataEnvelope(resourceSchema),
      mutates: false,
    }),
})

export type Operations = typeof operations
export type OperationName = keyof Operations
export const OPERATION_NAMES = Object.keys(operations) as OperationName[]

export type ParamsOf<N extends OperationName> = z.input<Operations[N]['params']>
export type QueryOf<N extends OperationName> = z.input<Operations[N]['query']>
// Distributes over `schema | null` (the type of every `body`), keeping the schema's input.
export type BodyOf<N extends OperationName> = Operations[N]['body'] extends infer B
  ? B extends z.ZodType
    ? z.input<B>
    : never
  : never
export type ResponseOf<N extends OperationName> = z.output<Operations[N]['response']>

/**
 * Fills a path template; each value is URL-encoded as one segment. The params schemas have
 * refused dot segments already; refusing them here too keeps a schema that forgot the rule (a
 * new operation's plain `z.string()`) from sending a request to another path.
 */
export function buildPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`Missing path parameter "${name}"`)
    if (foldsToDotSegment(value)) {
      throw new Error(`Path parameter "${name}" ${DOT_SEGMENT_MESSAGE.toLowerCase()}`)
    }
    return encodeURIComponent(value)
  })
}

/** Names of a template's placeholders, in order. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
}

/**
 * The operations whose answer is one big list (10 MB and more), and where the list is
 * in the body (`member` null: the body is the array). The client reads these row by row as
 * they arrive (`callRows`): each row is parsed and validated on its own and handed on as the
 * text the service sent.
 */
export const LIST_OPERATIONS = {
  listSessions: { member: null, row: sessionSchema },
  /** One page of certificates at a time; the refresh reads 20 of them for 10,000. */
  listCertificates: { member: 'data', row: resourceSchema },
  listInferenceModels: { member: 'data', row: inferenceModelSchema },
} as const satisfies Partial<Record<OperationName, { member: string | null; row: z.ZodType }>>
export type ListOperationName = keyof typeof LIST_OPERATIONS
