import { z } from 'zod'
import { inferenceModelSchema, OPERATION_NAMES, sessionSchema } from '../api'
import { cacheTopicSchema } from './cache-topics'
import { activityChannels, activityFilterSchema } from './channels/activity'
import { backgroundRefreshEvents } from './channels/background-refresh'
import { certificateChannels, certificateEvents } from './channels/certificates'
import { knownObjectChannels } from './channels/known-objects'
import { listChannels } from './channels/lists'
import { migrationChannels, migrationEvents } from './channels/migrations'
import { operationChannels, operationEvents } from './channels/operations'
import { overviewChannels } from './channels/overview'
import { profileNetworkChannels, profileNetworkInput } from './channels/profiles-network'
import { recentsChannels, recentsEvents } from './channels/recents'
import { settingsChannels, settingsEvents } from './channels/settings'
import { sqlChannels, sqlEvents } from './channels/sql'
import { sqlLibraryChannels, sqlLibraryEvents } from './channels/sql-library'
import { volumeChannels, volumeEvents } from './channels/volumes'
import { cachedListSchema, empty, id, profileId } from './common'
import { bridgeErrorSchema } from './result'
import { reachMapSchema } from './connectivity'
import { buildOnFirstUse } from '../build-on-first-use'

/*
 * The bridge contract: every call the renderer may make (input and output schemas) and every
 * event the main process pushes. The main process validates each input against it (the renderer
 * is not trusted); the renderer's typed client is derived from it. One contract, two transports:
 * Electron IPC and the web-mode HTTP host.
 */

export const PROFILE_COLORS = [
  '#2563eb',
  '#16a34a',
  '#d97706',
  '#dc2626',
  '#7c3aed',
  '#0891b2',
  '#db2777',
  '#4b5563',
] as const

export const tokenStorageSchema = z.enum(['keychain', 'session'])
export type TokenStorage = z.infer<typeof tokenStorageSchema>

/** What the renderer knows of a profile: never its token. */
export const profileSchema = z.object({
  id,
  name: z.string(),
  baseUrl: z.string(),
  color: z.string(),
  /** A production environment: writes ask for an extra confirmation. */
  protected: z.boolean(),
  /** `sandbox` is the embedded local sandbox started by "Explore the local sandbox". */
  kind: z.enum(['service', 'sandbox']),
  signedIn: z.boolean(),
  /** Where the token lives; null when signed out. */
  tokenStorage: tokenStorageSchema.nullable(),
  createdAt: z.number(),
  /**
   * Saved while its service could not be reached ("Save anyway, check later"): its token was
   * never checked. Cleared by the first Connect that succeeds (profiles.connect, Read again,
   * background refresh, or any call once the service is seen again).
   */
  unverified: z.boolean().optional(),
})
export type Profile = z.infer<typeof profileSchema>

/** The editable fields of a profile, validated the same way in the form and in main. */
export const profileFieldsSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(60, 'At most 60 characters'),
  baseUrl: z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/, error: 'Enter an http:// or https:// URL' })),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'Pick a colour'),
  protected: z.boolean(),
})
export type ProfileFields = z.infer<typeof profileFieldsSchema>

/** A token as the user typed it; built for each channel that takes one, when that one is. */
function tokenInput() {
  return z.object({
    token: z.string().trim().min(1, 'Enter an access token').max(8192),
    /** Keep the token in memory only (when no keychain is available, or by choice). */
    sessionOnly: z.boolean().default(false),
  })
}

/**
 * What the token check learned beside "it authenticates": what the token may not do, when the
 * service answered its check 403 (an endpoint kept for browser sessions, a scope it lacks).
 */
function tokenCheckShape() {
  return { tokenLimitation: z.string().nullable() }
}

export const vaultStatusSchema = z.object({
  available: z.boolean(),
  /** Why the keychain cannot be used, in words a user understands. */
  reason: z.string().optional(),
  /** How to fix it. */
  fix: z.string().optional(),
})
export type VaultStatus = z.infer<typeof vaultStatusSchema>

export const noticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning', 'error']),
  message: z.string(),
})
export type Notice = z.infer<typeof noticeSchema>

export const activityEntrySchema = z.object({
  id: z.number(),
  /** Epoch ms. */
  at: z.number(),
  profileId: z.string(),
  profileName: z.string(),
  /** Operation name from the service contract, e.g. "logout". */
  operation: z.string(),
  targetId: z.string().nullable(),
  outcome: z.enum(['success', 'error']),
  errorCode: z.string().nullable(),
  message: z.string().nullable(),
})
export type ActivityEntry = z.infer<typeof activityEntrySchema>

/** The ids `/__sandbox/seed` returns; kept loose so new keys pass through. */
export const sandboxSeedSchema = z.record(z.string(), z.unknown())

/*
 * Each channel's and event's schemas are built on first use, not when this module is
 * evaluated: a session uses a part of the ~70 channels, and building the whole contract took
 * a large share of the page's script evaluation before its first bridge call
 * (bench/README.md, "startup"). Once built, an entry is a plain property: every later read,
 * in main's validation and in the renderer's client alike, gets the same schema object.
 *
 * The area modules (channels/*.ts) give their entries as builders too, and their named schemas
 * (and the service contract's, src/shared/api) are `z.lazy`: built at their first parse. A
 * schema other modules `.extend`, `.pick` or read the `.shape` of stays a plain constant (the
 * compiler says which: a lazy one has no shape). Together they took the schemas built when the
 * page's script evaluates from ~1,100 to ~330.
 */

export const channels = buildOnFirstUse({
  'app.info': () => ({
    input: empty,
    output: z.object({
      mode: z.enum(['desktop', 'web']),
      version: z.string(),
      notices: z.array(noticeSchema),
    }),
  }),
  'vault.status': () => ({ input: empty, output: vaultStatusSchema }),

  'profiles.list': () => ({
    input: empty,
    output: z.object({
      profiles: z.array(profileSchema),
      activeId: z.string().nullable(),
      /** What the last call to each profile's service found this run (none yet: absent). */
      connectivity: reachMapSchema,
    }),
  }),
  /**
   * Verifies the token with GET /auth/me/sessions before anything is saved. With `checkLater`,
   * a service that cannot be reached (OFFLINE, TIMEOUT, nothing else) does not stop it: the
   * profile and its token are saved, marked `unverified` until a Connect succeeds.
   */
  'profiles.add': () => ({
    input: profileFieldsSchema
      .extend(tokenInput().shape)
      .extend(profileNetworkInput.shape)
      .extend({ checkLater: z.boolean().default(false) }),
    output: profileSchema.extend(tokenCheckShape()),
  }),
  /**
   * Checks the stored token with the service now (as adding does), over the profile's own
   * route: a profile saved unchecked becomes verified; an unreachable service is reported.
   */
  'profiles.connect': () => ({
    input: z.object({ id }),
    output: profileSchema.extend(tokenCheckShape()),
  }),
  /**
   * Calls each signed-in profile's service now (all of them, or those named) and answers what
   * every call found: the Overview's "Read again".
   */
  'connectivity.check': () => ({
    input: z.object({ profileIds: z.array(id).max(100).optional() }),
    output: z.object({ connectivity: reachMapSchema }),
  }),
  'profiles.update': () => ({
    input: profileFieldsSchema.partial().extend({ id }).extend(profileNetworkInput.shape),
    output: profileSchema,
  }),
  'profiles.remove': () => ({ input: z.object({ id }), output: z.null() }),
  'profiles.activate': () => ({ input: z.object({ id }), output: profileSchema }),
  /** A new token for an existing profile (after 401 or log out), verified first. */
  'profiles.signIn': () => ({
    input: tokenInput().extend({ id }),
    output: profileSchema.extend(tokenCheckShape()),
  }),

  /** Starts the embedded sandbox and signs in to it with its admin token. */
  'sandbox.explore': () => ({ input: empty, output: profileSchema }),
  'sandbox.seed': () => ({ input: empty, output: sandboxSeedSchema }),

  'sessions.cached': () => ({ input: profileId, output: cachedListSchema(sessionSchema) }),
  'sessions.refresh': () => ({ input: profileId, output: cachedListSchema(sessionSchema) }),
  /**
   * Op 2; deletes the token, marks the profile signed out, and opens logoutUrl when it is https
   * on the profile's own site (src/main/features/logout-url.ts).
   */
  'sessions.logout': () => ({
    input: profileId,
    output: z.object({
      message: z.string(),
      logoutUrl: z.string().nullable(),
      /** Main's verdict: may be offered as a link to open; false: shown as text to copy only. */
      logoutUrlTrusted: z.boolean(),
      openedLogoutUrl: z.boolean(),
      /**
       * False when the service keeps logout for browser sessions and refused the API token
       * (BROWSER_SESSION_ONLY): the token was forgotten here, but it stays valid on the service
       * until it is revoked there; `message` says so in the app's words.
       */
      endedOnService: z.boolean(),
    }),
  }),

  'inference.list': () => ({
    input: profileId,
    output: z.object({ models: z.array(inferenceModelSchema) }),
  }),

  'activity.list': () => ({
    // profileId, operation, outcome and a time range (channels/activity.ts).
    input: activityFilterSchema.extend({
      limit: z.int().min(1).max(1000).default(200),
    }),
    output: z.array(activityEntrySchema),
  }),

  /**
   * Any of the 22 operations, by name: validated in main against the service contract,
   * recorded in the activity log when it changes something. Screens with special needs
   * (caching, downloads) have their own channels.
   */
  'service.call': () => ({
    input: profileId.extend({
      operation: z.enum(OPERATION_NAMES as [string, ...string[]]),
      params: z.record(z.string(), z.string()).default({}),
      query: z.record(z.string(), z.unknown()).default({}),
      body: z.unknown().optional(),
      /**
       * runPostgresQuery's statement is judged by the SQL console's guard first: the user
       * confirmed it (a protected profile's write, a destructive statement while the settings
       * ask first). Other operations' confirmation is asked by the caller.
       */
      confirmedWrite: z.boolean().default(false),
    }),
    output: z.unknown(),
  }),

  /** Opens an https URL in the system browser; anything else is refused. */
  'shell.openExternal': () => ({
    input: z.object({ url: z.string().max(4096) }),
    output: z.object({ opened: z.boolean() }),
  }),

  ...profileNetworkChannels,
  ...listChannels,
  ...settingsChannels,
  ...recentsChannels,
  ...knownObjectChannels,
  ...certificateChannels,
  ...volumeChannels,
  ...sqlChannels,
  ...sqlLibraryChannels,
  ...operationChannels,
  ...migrationChannels,
  ...overviewChannels,
  ...activityChannels,
})

export type Channels = typeof channels
export type ChannelName = keyof Channels
export const CHANNEL_NAMES = Object.keys(channels) as ChannelName[]
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === 'string' && Object.hasOwn(channels, value)
}

export const events = buildOnFirstUse({
  'profiles.changed': () => z.object({}),
  /** After a cache write (Bruno-style mutation event): views showing these tables refetch. */
  'cache.changed': () =>
    z.object({
      name: z.string(),
      tables: z.array(z.string()),
      /** What the write concerns: views match these, not main's table names. */
      topics: z.array(cacheTopicSchema),
      profileId: z.string().nullable(),
    }),
  /**
   * What a call to the profile's service found (src/main/profiles/connectivity.ts): on a change,
   * and while it holds at most every 30 s, so "checked … ago" stays near the last call.
   */
  'connectivity.changed': () =>
    z.object({
      profileId: z.string(),
      online: z.boolean(),
      error: bridgeErrorSchema.nullable(),
      /** When the call ended (epoch ms). */
      checkedAt: z.number(),
      /** Since when the state holds. */
      since: z.number(),
    }),
  /** The service answered 401: the profile is signed out and needs a new token. */
  'auth.required': () => z.object({ profileId: z.string(), message: z.string() }),
  /**
   * A read is waiting out the service's rate limit (429, or 503 with Retry-After) before it
   * tries again (src/main/api/retry-after.ts): the renderer says so until `retryInMs` passes.
   */
  'service.waiting': () =>
    z.object({
      profileId: z.string(),
      /** The contract's operation name, or null for a raw download. */
      operation: z.string().nullable(),
      retryInMs: z.number().nonnegative(),
      /** This wait's number from 1, and the most a call waits. */
      attempt: z.number().int().positive(),
      maxAttempts: z.number().int().positive(),
    }),
  notice: () => noticeSchema,

  ...settingsEvents,
  ...recentsEvents,
  ...certificateEvents,
  ...volumeEvents,
  ...sqlEvents,
  ...sqlLibraryEvents,
  ...operationEvents,
  ...migrationEvents,
  ...backgroundRefreshEvents,
})

export type Events = typeof events
export type EventName = keyof Events
export type EventPayload<E extends EventName> = z.output<Events[E]>
export const EVENT_NAMES = Object.keys(events) as EventName[]

/**
 * What a transport carries: the preload exposes exactly this to the renderer (two functions),
 * and the web-mode client implements it over HTTP.
 */
export interface BridgeTransport {
  invoke(channel: string, input: unknown): Promise<unknown>
  subscribe(listener: (event: string, payload: unknown) => void): () => void
}

// The window global and the IPC channel names live in a zod-free module for the preload.
export { BRIDGE_GLOBAL, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from './ipc-names'
