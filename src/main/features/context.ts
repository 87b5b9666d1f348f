import type { OperationName } from '../../shared/api'
import { APP_ERROR_CODES } from '../../shared/bridge'
import type { Notice, Profile } from '../../shared/bridge'
import { isConnectivityError } from '../../shared/bridge/connectivity'
import { createServiceClient, isServiceError, redact, ServiceError, toBridgeError } from '../api'
import { MAX_RATE_LIMIT_WAITS } from '../api/retry-after'
import type { ServiceClient } from '../api'
import type { EventHub } from '../bridge/events'
import type { Cache } from '../cache'
import type { NetworkStack, ProfileNetwork } from '../net'
import type { KnownObjects } from '../cache/known-objects'
import type { RecentInputs } from '../cache/recents'
import type { TransferLog } from '../cache/transfers'
import type { SettingsStore } from '../settings'
import type { ProfileStore, StoredProfile } from '../profiles'
import type { TokenVault } from '../vault'
import type { DownloadTiming } from '../transfers/volume-archive'
import type { EmbeddedSandbox } from './embedded-sandbox'
import { rememberingAnswers } from './known-objects/remember-answers'
import type { PowerSource } from '../refresh/scheduler'
import type { ConnectivityTracker } from '../profiles/connectivity'

/*
 * What every feature module is given: the core's services, never electron. Features are bridge
 * handlers for one area; this file holds what they share (the profile view, the signed-in
 * client, token verification, connectivity).
 */

// Features ask it of what they caught; it is defined once, for main and renderer alike.
export { isConnectivityError }

export interface DeskContext {
  mode: 'desktop' | 'web'
  version: string
  /** The app's data folder (profiles, settings, cache). */
  dataDir: string
  profiles: ProfileStore
  cache: Cache
  settings: SettingsStore
  recents: RecentInputs
  /** Objects the service's answers carried, per profile (names beside ids). */
  knownObjects: KnownObjects
  /** Every export written to disk (Transfers panel), across runs. */
  transfers: TransferLog
  /** Save/open dialogs, reveal in folder, notifications: the Electron shell's; null in web mode. */
  desktop: DesktopIntegration | null
  /** Registers work to run when the desk closes (cancel transfers, stop timers); runs in order. */
  onClose(cleanup: () => void | Promise<void>): void
  vault: TokenVault
  events: EventHub
  secrets: SecretRegistry
  sandbox: EmbeddedSandbox
  connectivity: ConnectivityTracker
  /** Proxies and trust per profile (src/main/net); kept connections are closed with the desk. */
  network: NetworkStack
  /** Told to the user through app.info (recoveries at start, sandbox restarts). */
  notices: Notice[]
  /** Opens an https URL in the system browser; the shell feature checked the scheme. */
  openExternal(url: string): Promise<void>
  /** Per-call timeout of the service client, overriding the setting (tests shorten it). */
  requestTimeoutMs?: number
  /** The largest answer body the service client reads (default 64 MiB, see api/client.ts). */
  maxResponseBytes?: number
  /** Timeouts and backoff of volume downloads, overriding the defaults (tests shorten them). */
  downloadTiming?: DownloadTiming
  /** Aborted when the desk's requests are stopped (Desk.stopRequests): every client's end. */
  requestsStopped?: AbortSignal
}

/**
 * What only the desktop app can do, given by the Electron shell (src/main/shell); web mode has
 * none of it, and features fall back (downloads folder, copy the path) where it is null.
 */
export interface DesktopIntegration {
  /** A native save dialog; the chosen path, or null when the user cancelled. */
  chooseSavePath(options: {
    title: string
    defaultName: string
    filters?: { name: string; extensions: string[] }[]
  }): Promise<string | null>
  /** A native open dialog for one file; its path, or null when cancelled. */
  chooseOpenFile(options: {
    title: string
    filters?: { name: string; extensions: string[] }[]
  }): Promise<string | null>
  /** Shows the file selected in the system's file manager. */
  showItemInFolder(file: string): void
  /** Opens a folder (or file) with the system's default application. */
  openPath(target: string): Promise<void>
  /** A system notification (a finished long transfer); `onClick` runs when it is clicked. */
  notify(title: string, body: string, onClick?: () => void): void
  /** The machine's sleep and wake (Electron's powerMonitor), for background refresh. */
  power?: PowerSource
}

/**
 * Every token this process has handled, so that whatever crosses the bridge can be cut free of
 * them (defence in depth: the client already keeps tokens out of its errors). Memory only.
 */
export interface SecretRegistry {
  remember(secret: string): void
  list(): string[]
}

export function createSecretRegistry(): SecretRegistry {
  const secrets = new Set<string>()
  return {
    remember(secret) {
      // Every token the app accepted, however short: `redact` decides how each is looked for
      // (a very short one only where it stands alone, so ordinary words are not cut).
      if (secret.length > 0) secrets.add(secret)
    },
    list: () => [...secrets],
  }
}

/** The bridge error for anything a handler threw, with every known token cut out. */
export function bridgeErrorOf(context: Pick<DeskContext, 'secrets'>, error: unknown) {
  return toBridgeError(error, context.secrets.list())
}

// The tracker of what the last call to each profile's service found: src/main/profiles.
export { createConnectivityTracker } from '../profiles/connectivity'
export type { ConnectivityTracker } from '../profiles/connectivity'

export function requireProfile(context: DeskContext, profileId: string): StoredProfile {
  const profile = context.profiles.get(profileId)
  if (!profile) throw new ServiceError('NOT_FOUND', 'No such profile: it may have been removed')
  return profile
}

/** What the renderer sees of a profile: its fields, whether it is signed in, never the token. */
export async function profileView(context: DeskContext, stored: StoredProfile): Promise<Profile> {
  const token = await context.vault.get(stored.id)
  return {
    id: stored.id,
    name: stored.name,
    baseUrl: stored.baseUrl,
    color: stored.color,
    protected: stored.protected,
    kind: stored.kind,
    createdAt: stored.createdAt,
    signedIn: token !== null,
    tokenStorage: token === null ? null : (context.vault.storageOf(stored.id) ?? 'keychain'),
    ...(stored.verified === false ? { unverified: true } : {}),
  }
}

/**
 * The embedded sandbox's connections: it runs on this machine, so never through a proxy (the
 * environment's proxy would otherwise be asked for 127.0.0.1 on a machine that sets one).
 */
const DIRECT: ProfileNetwork = { proxy: { mode: 'none' }, proxyCredentials: null, trustedCas: [] }

/** How a profile connects: its proxy choice (with the login from the keychain) and its CAs. */
export async function networkOf(
  context: DeskContext,
  profile: StoredProfile,
): Promise<ProfileNetwork> {
  if (profile.kind === 'sandbox') return DIRECT
  const proxy = profile.proxy ?? { mode: 'system' }
  return {
    proxy,
    proxyCredentials:
      proxy.mode === 'custom' ? await context.vault.getProxyCredentials(profile.id) : null,
    trustedCas: profile.trustedCas ?? [],
  }
}

/**
 * A client for `baseUrl`; `network` defaults to a direct connection (the embedded sandbox).
 * With `profileId`, a read waiting out the service's rate limit is told to the renderer.
 */
export function makeClient(
  context: DeskContext,
  baseUrl: string,
  token: string,
  network: ProfileNetwork = DIRECT,
  profileId?: string,
): ServiceClient {
  context.secrets.remember(token)
  // The proxy password is a secret like the token: cut from whatever crosses the bridge.
  if (network.proxyCredentials) context.secrets.remember(network.proxyCredentials.password)
  return createServiceClient({
    baseUrl,
    token,
    network: context.network.forProfile(network),
    userAgent: `Infradesk/${context.version}`,
    ...(context.requestsStopped === undefined ? {} : { signal: context.requestsStopped }),
    timeoutMs: context.requestTimeoutMs ?? context.settings.get().requestTimeoutMs,
    ...(context.maxResponseBytes === undefined
      ? {}
      : { maxResponseBytes: context.maxResponseBytes }),
    ...(profileId === undefined
      ? {}
      : {
          onRateLimitWait: (wait) =>
            context.events.emit('service.waiting', {
              profileId,
              operation: wait.operation,
              retryInMs: wait.waitMs,
              attempt: wait.attempt,
              maxAttempts: MAX_RATE_LIMIT_WAITS,
            }),
        }),
  })
}

/**
 * The profile's token from the keychain, once its service can be called (a sandbox profile
 * talks to the embedded sandbox, which may still be starting); NOT_SIGNED_IN without one.
 */
export async function signedInToken(context: DeskContext, profile: StoredProfile): Promise<string> {
  if (profile.kind === 'sandbox') await context.sandbox.settled()
  const token = await context.vault.get(profile.id)
  if (token === null) {
    throw new ServiceError(
      APP_ERROR_CODES.NOT_SIGNED_IN,
      `"${profile.name}" is signed out: enter an access token to sign in again`,
    )
  }
  return token
}

/**
 * Runs `work` with a client signed in as the profile. A 401 means the token is no longer good:
 * it is deleted, the profile is signed out and the renderer is asked for a new token (keeping
 * the user's place). An unreachable service is reported as a connectivity change.
 */
export async function withProfileClient<T>(
  context: DeskContext,
  profileId: string,
  work: (client: ServiceClient, profile: StoredProfile) => Promise<T>,
): Promise<T> {
  const profile = requireProfile(context, profileId)
  const token = await signedInToken(context, profile)
  const client = rememberingAnswers(
    makeClient(context, profile.baseUrl, token, await networkOf(context, profile), profileId),
    profileId,
    context.knownObjects,
  )
  try {
    const result = await work(client, profile)
    context.connectivity.reachable(profileId)
    return result
  } catch (error) {
    if (isServiceError(error) && error.code === 'UNAUTHORIZED') {
      await signOutAfterRefusal(context, profile)
    } else if (isConnectivityError(error)) {
      context.connectivity.unreachable(profileId, error)
    } else if (isServiceError(error) && error.status !== undefined) {
      // The service answered (403, 404, ...): it is reachable.
      context.connectivity.reachable(profileId)
    }
    throw error
  }
}

async function signOutAfterRefusal(context: DeskContext, profile: StoredProfile) {
  await context.vault.delete(profile.id).catch(() => undefined)
  context.connectivity.reachable(profile.id)
  context.events.emit('profiles.changed', {})
  context.events.emit('auth.required', {
    profileId: profile.id,
    message: `The service refused the access token of "${profile.name}" (401): enter a new token to continue`,
  })
}

/** What a token check learned beside "it authenticates". */
export interface TokenCheck {
  /**
   * What the token may not do, in words, when the check's call was refused with 403 (an
   * endpoint kept for browser sessions, or a scope the token lacks); null when it listed the
   * sessions. Not an error: a token with narrow scopes is a normal one.
   */
  limitation: string | null
}

/**
 * Checks a token before anything is saved, with op 1 (GET /auth/me/sessions), and says exactly
 * what failed: a bad URL, an unreachable service, a TLS problem, or a token that does not
 * authenticate. The errors name the form field they concern in `details`, as validation errors
 * do.
 *
 * A 403 from the service accepts the token. A real deployment keeps op 1 for browser sessions
 * and answers every API token 403 there, and its auth middleware answers 401 to a credential it
 * does not know before any route rule (scope or browser-only) runs: a 403 with the service's own
 * error body therefore proves the token authenticated. What it may not do is handed back.
 * A 403 without a service error body (a proxy's or firewall's page) proves nothing and refuses.
 */
export async function verifyToken(
  context: DeskContext,
  baseUrl: string,
  token: string,
  network?: ProfileNetwork,
): Promise<TokenCheck> {
  const client = makeClient(context, baseUrl, token, network)
  try {
    // Every row is read and checked (a wrong service fails here), none is kept.
    await client.callRows('listSessions', { begin: () => undefined, row: () => undefined })
    return { limitation: null }
  } catch (error) {
    if (authenticatedButRefused(error)) return { limitation: error.message }
    throw explainVerification(error)
  }
}

/** A 403 in the service's own words: the credential authenticated (see verifyToken). */
function authenticatedButRefused(error: unknown): error is ServiceError {
  return (
    isServiceError(error) &&
    error.status === 403 &&
    error.serviceCode !== undefined &&
    (error.code === 'FORBIDDEN' || error.code === APP_ERROR_CODES.BROWSER_SESSION_ONLY)
  )
}

function explainVerification(error: unknown): unknown {
  if (!isServiceError(error)) return error
  const field = (path: string, message: string) => [{ path: [path], message }]
  const wrap = (message: string, path: string, fieldMessage: string) =>
    new ServiceError(error.code, message, {
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(error.serviceCode === undefined ? {} : { serviceCode: error.serviceCode }),
      details: field(path, fieldMessage),
    })
  switch (error.code) {
    case APP_ERROR_CODES.BAD_URL:
      return wrap(`Bad URL: ${error.message}`, 'baseUrl', error.message)
    case APP_ERROR_CODES.OFFLINE:
      return wrap(
        `The service is unreachable: ${error.message}. Check the URL and your network.`,
        'baseUrl',
        'Unreachable',
      )
    case APP_ERROR_CODES.TIMEOUT:
      return wrap(`The service did not answer: ${error.message}`, 'baseUrl', 'No answer')
    case APP_ERROR_CODES.TLS_ERROR:
      // A certificate named (details.certificate, .ca) stays: the form offers to trust its CA.
      return hasServerCertificate(error.details)
        ? new ServiceError(error.code, `TLS error: ${error.message}`, { details: error.details })
        : wrap(`TLS error: ${error.message}`, 'baseUrl', 'TLS error')
    case 'UNAUTHORIZED':
      return wrap(
        `The service refused the token (401): it does not authenticate with this service. Check that it is a valid, unexpired access token. The service said: ${error.message}`,
        'token',
        'The service refused this token',
      )
    case 'FORBIDDEN':
    case APP_ERROR_CODES.BROWSER_SESSION_ONLY:
      // Only a 403 without the service's own error body reaches here (see verifyToken).
      return wrap(
        `Something in front of the service refused the request (403) without the service's answer: ${error.message}`,
        'baseUrl',
        'Refused before the service',
      )
    case APP_ERROR_CODES.BAD_RESPONSE:
    case 'NOT_FOUND':
      return wrap(
        `This does not look like the Infrastructure Management Service: ${error.message}`,
        'baseUrl',
        'Not the service',
      )
    default:
      return error
  }
}

function hasServerCertificate(details: unknown): boolean {
  return typeof details === 'object' && details !== null && 'certificate' in details
}

/** The target of an operation for the activity log: params.id, else the first path parameter. */
export function targetIdOf(params: Record<string, string>): string | null {
  if (params['id'] !== undefined) return params['id']
  const first = Object.values(params)[0]
  return first ?? null
}

export function recordActivity(
  context: DeskContext,
  profile: StoredProfile,
  operation: OperationName,
  targetId: string | null,
  outcome: { error: unknown } | { message: string | null },
  /** Said after the outcome's message, whatever it was (an SQL statement's redacted text). */
  detail?: string,
): void {
  const failed = 'error' in outcome
  const bridgeError = failed ? bridgeErrorOf(context, outcome.error) : null
  // A success message is the service's text too (logout's answer): it may echo the token.
  const said = bridgeError
    ? bridgeError.message
    : 'message' in outcome && outcome.message !== null
      ? redact(outcome.message, context.secrets.list())
      : null
  const message =
    detail === undefined || detail === ''
      ? said
      : `${said ?? ''}${said ? ' · ' : ''}${redact(detail, context.secrets.list())}`
  writeActivity(context, profile, operation, targetId, bridgeError, message)
}

/**
 * One line of the activity log, as every writer of it words a line: who (the owner: a profile,
 * or EVERY_PROFILE), what, on what, and how it ended (the bridge's error when it failed).
 */
export function writeActivity(
  context: Pick<DeskContext, 'cache'>,
  owner: { id: string; name: string },
  operation: string,
  targetId: string | null,
  failure: { code: string } | null,
  message: string | null,
): void {
  context.cache.recordActivity({
    at: Date.now(),
    profileId: owner.id,
    profileName: owner.name,
    operation,
    targetId,
    outcome: failure === null ? 'success' : 'error',
    errorCode: failure?.code ?? null,
    message,
  })
}
