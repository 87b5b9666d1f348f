import type { SecureContext } from 'node:tls'
import type { Dispatcher } from 'undici'
import {
  basicAuthorization,
  credentialSecrets,
  environmentProxySecrets,
  parseProxyUrl,
  proxyFromEnvironment,
  proxyFromPacAnswer,
} from './proxy'
import type { Environment, ProxyAddress } from './proxy'
import { secureContextFor } from './trust'
import { loadUndici } from './undici'

export type { Environment, ProxyAddress } from './proxy'
export { bypassesProxy, parseProxyUrl, ProxySettingError, proxyFromPacAnswer } from './proxy'
export { openTunnel, ProxyRefusedError } from './tunnel'
export { readCaCertificates, isSelfSigned, systemTrustSummary, viewOf } from './trust'
export type { CaCertificateView, SystemTrustSummary } from './trust'
export { describeServerChain, UNKNOWN_ISSUER_CODES } from './peer'
export { loadUndici } from './undici'
export type { ServerChain } from './peer'

/*
 * The one place that decides, per URL and profile, how a connection is made: which proxy (the
 * profile's own, else the environment's HTTPS_PROXY/HTTP_PROXY/NO_PROXY, else the operating
 * system's setting in the desktop app, else none) and which certificate authorities are
 * trusted (the system's and bundled roots plus the profile's). The service client's fetch and
 * raw-http.ts (downloads) both take their route from here, so they can never disagree.
 */

/** A profile's choice of proxy; `system` (the default) means environment, then the OS. */
export type ProxyChoice = { mode: 'none' } | { mode: 'system' } | { mode: 'custom'; url: string }

export interface ProxyCredentials {
  username: string
  password: string
}

/** What a profile says about its connections. */
export interface ProfileNetwork {
  proxy: ProxyChoice
  /** For `custom`: the Basic login, from the keychain. */
  proxyCredentials: ProxyCredentials | null
  /** PEM CA certificates trusted for this profile only, beside the system's. */
  trustedCas: readonly string[]
}

export const DEFAULT_PROFILE_NETWORK: ProfileNetwork = {
  proxy: { mode: 'system' },
  proxyCredentials: null,
  trustedCas: [],
}

/**
 * The operating system's proxy setting for a URL, as a PAC-style answer (`DIRECT`,
 * `PROXY host:port`): Electron's `session.resolveProxy`, given by the shell; absent in web mode.
 */
export interface SystemProxyResolver {
  resolveProxy(url: string): Promise<string>
}

/** How one URL is reached. */
export interface NetworkRoute {
  proxy: ProxyAddress | null
  /** `Basic …` for the proxy, or null. */
  proxyAuthorization: string | null
  proxySource: 'environment' | 'profile' | 'system' | null
  /** The trust for TLS to the service (system + bundled + the profile's CAs). */
  secureContext: SecureContext
  /** fetch's transport for this route (undici), kept per route for connection reuse. */
  dispatcher: Dispatcher
}

/** What a service client is given: its routes. */
export interface ClientNetwork {
  route(url: URL): Promise<NetworkRoute>
  /** The profile's own CAs: a worker thread builds the same trust from them (TLS contexts do not cross). */
  readonly trustedCas: readonly string[]
}

export interface NetworkStack {
  forProfile(settings: ProfileNetwork): ClientNetwork
  /** Closes every kept connection. */
  close(): Promise<void>
}

export interface NetworkOptions {
  /** Where HTTPS_PROXY & co. are read; process.env when not given. */
  env?: Environment
  systemProxy?: SystemProxyResolver | null
  /**
   * Told every proxy credential the stack learns: the environment's at once, and each route's
   * (the system's PAC answer, a profile's proxy) when chosen. The desk registers them as secrets.
   */
  onSecrets?: (secrets: readonly string[]) => void
}

export function createNetworkStack(options: NetworkOptions = {}): NetworkStack {
  const env = options.env ?? process.env
  const systemProxy = options.systemProxy ?? null
  const onSecrets = options.onSecrets ?? (() => undefined)
  onSecrets(environmentProxySecrets(env))
  const dispatchers = new Map<string, Dispatcher>()

  async function dispatcherFor(
    proxy: ProxyAddress | null,
    authorization: string | null,
    trust: { key: string; context: SecureContext },
  ): Promise<Dispatcher> {
    const key = `${proxy?.origin ?? 'direct'}|${authorization ?? ''}|${trust.key}`
    const { Agent, ProxyAgent } = await loadUndici()
    let dispatcher = dispatchers.get(key)
    if (dispatcher === undefined) {
      dispatcher =
        proxy === null
          ? new Agent({ connect: { secureContext: trust.context } })
          : new ProxyAgent({
              uri: proxy.origin,
              ...(authorization === null ? {} : { token: authorization }),
              requestTls: { secureContext: trust.context },
              // http services go as absolute-form requests; https ones through CONNECT.
              proxyTunnel: false,
            })
      dispatchers.set(key, dispatcher)
    }
    return dispatcher
  }

  async function chooseProxy(
    url: URL,
    settings: ProfileNetwork,
  ): Promise<{ proxy: ProxyAddress | null; source: NetworkRoute['proxySource'] }> {
    if (settings.proxy.mode === 'none') return { proxy: null, source: null }
    if (settings.proxy.mode === 'custom') {
      const proxy = parseProxyUrl(settings.proxy.url, "profile's proxy setting")
      return {
        proxy: { ...proxy, credentials: settings.proxyCredentials ?? proxy.credentials },
        source: 'profile',
      }
    }
    if (namesProxy(url, env)) {
      const proxy = proxyFromEnvironment(url, env)
      return { proxy, source: proxy === null ? null : 'environment' }
    }
    if (systemProxy !== null) {
      let answer = 'DIRECT'
      try {
        answer = await systemProxy.resolveProxy(url.href)
      } catch {
        // No answer from the OS (a broken PAC script): go direct, as browsers do.
      }
      const proxy = proxyFromPacAnswer(answer)
      return { proxy, source: proxy === null ? null : 'system' }
    }
    return { proxy: null, source: null }
  }

  return {
    forProfile(settings) {
      const trust = secureContextFor(settings.trustedCas)
      return {
        trustedCas: settings.trustedCas,
        async route(url) {
          const { proxy, source } = await chooseProxy(url, settings)
          if (proxy?.credentials != null) onSecrets(credentialSecrets(proxy.credentials))
          const authorization =
            proxy?.credentials == null ? null : basicAuthorization(proxy.credentials)
          return {
            proxy,
            proxyAuthorization: authorization,
            proxySource: source,
            secureContext: trust.context,
            dispatcher: await dispatcherFor(proxy, authorization, trust),
          }
        },
      }
    },
    async close() {
      const all = [...dispatchers.values()]
      dispatchers.clear()
      await Promise.all(all.map((dispatcher) => dispatcher.close().catch(() => undefined)))
    },
  }
}

/**
 * Whether the environment takes the decision for this URL: its proxy variable is set (then
 * NO_PROXY may still send it direct, and the OS setting is not asked).
 */
function namesProxy(url: URL, env: Environment): boolean {
  const name = url.protocol === 'https:' ? 'https_proxy' : 'http_proxy'
  const value = env[name] ?? env[name.toUpperCase()]
  return value !== undefined && value.trim() !== ''
}
