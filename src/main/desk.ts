import path from 'node:path'
import type { Notice } from '../shared/bridge'
import { sqlChannels } from '../shared/bridge/channels/sql'
import { volumeChannels } from '../shared/bridge/channels/volumes'
import { createDispatcher, describeUnexpectedError } from './bridge/dispatcher'
import {
  assertEveryChannelHandled,
  builtOnFirstCall,
  deferredHandlers,
} from './bridge/deferred-handlers'
import type { BridgeHandlers } from './bridge/dispatcher'
import { createEventHub } from './bridge/events'
import type { BridgeEventListener } from './bridge/events'
import { CACHE_FILE_NAME, openCache } from './cache'
import { preparePrivateFolder } from './data-folder'
import { createKnownObjects } from './cache/known-objects'
import { createRecentInputs } from './cache/recents'
import { createTransferLog } from './cache/transfers'
import { createNetworkStack } from './net'
import type { Environment, SystemProxyResolver } from './net'
import { createProfileStore, PROFILES_FILE_NAME } from './profiles'
import { createSettingsStore, defaultSettings, SETTINGS_FILE_NAME } from './settings'
import { createVault } from './vault'
import type { TokenVault } from './vault'
import type { DownloadTiming } from './transfers/volume-archive'
import { activityHandlers } from './features/activity'
import { startBackgroundRefresh } from './features/background-refresh'
import type { BackgroundRefreshOptions } from './features/background-refresh'
import { appHandlers } from './features/app'
import { bridgeErrorOf, createConnectivityTracker, createSecretRegistry } from './features/context'
import type { DeskContext, DesktopIntegration } from './features/context'
import { certificateHandlers } from './features/certificates'
import { migrationHandlers } from './features/migrations'
import { operationHandlers } from './features/operations'
import { overviewHandlers } from './features/overview'
import { recentsHandlers } from './features/recents'
import { settingsHandlers } from './features/settings'
import { sqlLibraryHandlers } from './features/sql-library'
import { browserDownloadHandlers, openHostedDownload } from './features/browser-downloads'
import { createDownloadTickets } from './transfers/download-tickets'
import { createEmbeddedSandbox } from './features/embedded-sandbox'
import type { SandboxFlavor } from '../shared/sandbox-flavor'
import { inferenceHandlers } from './features/inference'
import { knownObjectHandlers } from './features/known-objects'
import { profileHandlers } from './features/profiles'
import { restoreSandbox, sandboxHandlers } from './features/sandbox'
import { serviceHandlers } from './features/service'
import type { SqlFeature } from './features/sql'
import { sessionHandlers } from './features/sessions'
import { externalHttpsHref, shellHandlers } from './features/shell'
import type { BridgeEndpoint } from './web/host'

/*
 * The composition root, shared by the Electron app and web mode: it opens the profile store,
 * the cache and the vault, builds the feature modules, and hands back the bridge's two halves
 * (dispatch, events). Nothing here imports electron.
 */

export interface DeskDeps {
  /** Profiles, the cache and the window state live here (Electron's userData folder). */
  dataDir: string
  mode: 'desktop' | 'web'
  /** Opens an https URL in the system browser (the desk checks the scheme first). */
  openExternal(url: string): Promise<void>
  /** The token store; the OS keychain (service "Infradesk") when not given. */
  vault?: TokenVault
  /** Port for the embedded sandbox when it starts fresh (default: any free port). */
  sandboxPort?: number
  /** The embedded sandbox's personality (`--flavor`; default: the default one). */
  sandboxFlavor?: SandboxFlavor
  /**
   * Start the embedded sandbox again at launch when a sandbox profile has a stored token
   * (default true). Off, the sandbox profile shows its cached data as offline.
   */
  restoreSandbox?: boolean
  /** Per-request timeout for service calls, in ms, overriding the setting (tests). */
  requestTimeoutMs?: number
  /** The response size limit of the service client, in bytes (default 64 MiB). */
  maxResponseBytes?: number
  /** Timeouts and backoff of volume downloads (tests shorten them); defaults otherwise. */
  downloadTiming?: DownloadTiming
  /** The Electron shell's dialogs and notifications; absent in web mode. */
  desktop?: DesktopIntegration
  /** The downloads folder until the user picks one (default ~/Downloads); tests point it away. */
  defaultDownloadsDir?: string
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (default process.env); tests set their own. */
  environment?: Environment
  /**
   * The operating system's proxy setting (Electron's session.resolveProxy, src/main/shell),
   * asked when neither the environment nor the profile names a proxy; absent in web mode.
   */
  systemProxy?: SystemProxyResolver
  /**
   * Mark the transfers an earlier run left running as interrupted (default true). The terminal
   * companion (src/cli) says false: the app may be running beside it, its transfers still going.
   */
  markInterruptedTransfers?: boolean
  /**
   * Background refresh's clock and power events (tests inject theirs; see refresh/scheduler.ts);
   * false: none at all (a one-shot process such as the terminal companion).
   */
  backgroundRefresh?: BackgroundRefreshOptions | false
  version: string
}

export interface Desk extends BridgeEndpoint {
  /**
   * Ends every request to a service under way as cancelled, and refuses those asked later: the
   * process is about to end (the CLI's Ctrl-C), and the calls waiting on them must settle so
   * that `close` can close the cache under none.
   */
  stopRequests(): void
  /** Stops the embedded sandbox and closes the cache. */
  close(): Promise<void>
}

export async function createDesk(deps: DeskDeps): Promise<Desk> {
  // 0700 before anything is written in it; decided here, before the stores add their files.
  preparePrivateFolder(deps.dataDir, [CACHE_FILE_NAME, PROFILES_FILE_NAME, SETTINGS_FILE_NAME])
  const { cache, notices: cacheNotices } = openCache(path.join(deps.dataDir, CACHE_FILE_NAME))
  const profiles = createProfileStore(path.join(deps.dataDir, PROFILES_FILE_NAME))
  const settings = createSettingsStore(
    path.join(deps.dataDir, SETTINGS_FILE_NAME),
    defaultSettings(
      deps.defaultDownloadsDir === undefined ? {} : { downloadsDir: deps.defaultDownloadsDir },
    ),
  )
  const events = createEventHub()
  const secrets = createSecretRegistry()
  const notices: Notice[] = [...cacheNotices, ...profiles.notices, ...settings.notices]
  const cleanups: (() => void | Promise<void>)[] = []
  const requests = new AbortController()
  const context: DeskContext = {
    mode: deps.mode,
    version: deps.version,
    dataDir: deps.dataDir,
    profiles,
    cache,
    settings,
    recents: createRecentInputs(cache),
    knownObjects: createKnownObjects(cache),
    transfers: createTransferLog(cache, { secrets: () => secrets.list() }),
    desktop: deps.desktop ?? null,
    onClose: (cleanup) => {
      cleanups.push(cleanup)
    },
    vault: deps.vault ?? createVault(),
    events,
    secrets,
    sandbox: createEmbeddedSandbox(undefined, deps.sandboxFlavor),
    connectivity: createConnectivityTracker(events, secrets),
    network: createNetworkStack({
      // Proxy passwords are secrets like tokens: cut from the bridge, logs and exports.
      onSecrets: (found) => found.forEach((secret) => secrets.remember(secret)),
      ...(deps.environment === undefined ? {} : { env: deps.environment }),
      systemProxy: deps.systemProxy ?? null,
    }),
    notices,
    openExternal: (url) => openParsedHttps(deps.openExternal, url),
    ...(deps.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: deps.requestTimeoutMs }),
    ...(deps.maxResponseBytes === undefined ? {} : { maxResponseBytes: deps.maxResponseBytes }),
    requestsStopped: requests.signal,
    ...(deps.downloadTiming === undefined ? {} : { downloadTiming: deps.downloadTiming }),
  }
  // Rows a previous run left running are shown as interrupted, never as still going.
  if (deps.markInterruptedTransfers !== false) context.transfers.markInterrupted()
  // Bruno-style mutation events: after every cache write, views showing those tables refetch.
  const stopForwarding = cache.onChange((change) =>
    events.emit('cache.changed', { ...change, tables: [...change.tables] }),
  )
  const stopSettingsEvents = settings.onChange((value) => events.emit('settings.changed', value))

  // Web mode's "Download to this browser" (features/browser-downloads.ts): in memory, per launch.
  const downloadTickets = createDownloadTickets()
  const sandboxOptions = deps.sandboxPort === undefined ? {} : { sandboxPort: deps.sandboxPort }
  // The SQL console's modules (its guard, the worker's client, the audit's redaction) are the
  // largest the first screens never use: loaded at the first SQL call, one hub for the console
  // and `service.call`'s runPostgresQuery, which the same guard judges.
  const loadSqlFeature: () => Promise<SqlFeature> = builtOnFirstCall(() =>
    import('./features/sql').then(({ sqlFeature }) => sqlFeature(context)),
  )
  const handlers: BridgeHandlers = {
    ...appHandlers(context),
    ...profileHandlers(context),
    ...sandboxHandlers(context, sandboxOptions),
    ...sessionHandlers(context),
    ...inferenceHandlers(context),
    ...activityHandlers(context),
    ...serviceHandlers(context, {
      guardSql: async (input) => (await loadSqlFeature()).guardServiceCall(input),
    }),
    ...shellHandlers(context),
    ...settingsHandlers(context),
    ...recentsHandlers(context),
    ...knownObjectHandlers(context),
    ...certificateHandlers(context),
    // Volume exports (the download worker's client, the export stream): at the first call too.
    // transfers.downloadTicket: browserDownloadHandlers, below.
    ...deferredHandlers(
      volumeChannels,
      () => import('./features/volumes').then(({ volumeHandlers }) => volumeHandlers(context)),
      ['transfers.downloadTicket'],
    ),
    ...browserDownloadHandlers(context, downloadTickets),
    // Built at the first SQL call (bridge/deferred-handlers): see loadSqlFeature above.
    ...deferredHandlers(sqlChannels, async () => (await loadSqlFeature()).handlers),
    ...sqlLibraryHandlers(context),
    ...operationHandlers(context),
    ...migrationHandlers(context),
    ...overviewHandlers(context),
  }
  // Background refresh runs through the refresh handlers; users' refreshes take turns with it.
  if (deps.backgroundRefresh !== false) {
    Object.assign(handlers, startBackgroundRefresh(context, handlers, deps.backgroundRefresh))
  }
  assertEveryChannelHandled(handlers)
  const dispatcher = createDispatcher(handlers, {
    toBridgeError: (error) => bridgeErrorOf(context, error),
    onUnexpectedError: (channel, error) => console.error(describeUnexpectedError(channel, error)),
  })

  // In the background: the app opens at once; sandbox-profile calls wait for it to finish.
  const restoring =
    deps.restoreSandbox === false ? Promise.resolve() : restoreSandbox(context, sandboxOptions)
  context.sandbox.hold(restoring)
  // The keychain's first answer is slow (loading keytar, opening its D-Bus session: 20-30 ms)
  // and the renderer's first call, profiles.list, asks it about every profile. Asked in the
  // background, that cost is paid while the window loads its script; on the next turn of the
  // event loop, so that keytar's load does not hold back the desk's return to its caller.
  setImmediate(() => {
    void Promise.all(profiles.list().map((profile) => context.vault.get(profile.id))).catch(
      () => undefined,
    )
  })

  let closed = false
  return {
    dispatch: (channel, input) => dispatcher.dispatch(channel, input),
    dispatchJson: (channel, input) => dispatcher.dispatchJson(channel, input),
    onEvent: (listener: BridgeEventListener) => events.subscribe(listener),
    openDownload: (ticket) => openHostedDownload(context, downloadTickets, ticket),
    stopRequests: () => requests.abort(),
    async close() {
      if (closed) return
      closed = true
      stopForwarding()
      stopSettingsEvents()
      for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined)
      await restoring.catch(() => undefined)
      await context.sandbox.stop().catch(() => undefined)
      await context.network.close()
      cache.close()
    },
  }
}

/**
 * Every openExternal of the features goes through here: the system browser gets the URL as the
 * URL standard parsed it, https only, never the string a feature (or the service) handed over.
 */
function openParsedHttps(open: (url: string) => Promise<void>, url: string): Promise<void> {
  const href = externalHttpsHref(url)
  if (href === null) return Promise.reject(new Error('Only https links are opened'))
  return open(href)
}
