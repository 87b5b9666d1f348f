import { isIP } from 'node:net'

/*
 * Which proxy a URL goes through, from the environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, in
 * either case) or from the operating system's settings (a PAC-style answer). Plain functions,
 * no I/O: src/main/net/index.ts combines them with the profile's own choice.
 */

export type Environment = Readonly<Record<string, string | undefined>>

/** A proxy as the app uses it: `http://host:port` (the only kind spoken), maybe with a login. */
export interface ProxyAddress {
  /** `http://host:port`, no credentials: what messages name. */
  origin: string
  host: string
  port: number
  /** From `http://user:pass@host:port` (environment) or the keychain (profile). */
  credentials: { username: string; password: string } | null
}

/** The environment variable's value for `name`; the lower-case form wins, as curl does. */
function envValue(env: Environment, name: string): string | undefined {
  const value = env[name.toLowerCase()] ?? env[name.toUpperCase()]
  return value === undefined || value.trim() === '' ? undefined : value.trim()
}

/**
 * The proxy the environment names for `url`, or null: HTTPS_PROXY for https URLs, HTTP_PROXY
 * for http ones, unless NO_PROXY covers the host. A value that is not a usable http:// proxy
 * throws, so a typo is reported instead of silently going direct.
 */
export function proxyFromEnvironment(url: URL, env: Environment): ProxyAddress | null {
  const value = envValue(env, url.protocol === 'https:' ? 'https_proxy' : 'http_proxy')
  if (value === undefined) return null
  const noProxy = envValue(env, 'no_proxy')
  if (noProxy !== undefined && bypassesProxy(url, noProxy)) return null
  return parseProxyUrl(value, 'environment')
}

/**
 * The secrets in the environment's proxy variables (HTTP_PROXY, HTTPS_PROXY, either case): each
 * password, its raw percent-encoded spelling, and `user:password` (what a Basic header encodes).
 * They are secrets like tokens: a proxy may echo them in a refusal, and whatever crosses the
 * bridge, reaches the activity log or a terminal must be cut free of them.
 */
export function environmentProxySecrets(env: Environment): string[] {
  const found: string[] = []
  for (const name of ['http_proxy', 'https_proxy']) {
    for (const value of [env[name], env[name.toUpperCase()]]) {
      if (value === undefined || value.trim() === '') continue
      try {
        const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`)
        if (url.password === '') continue
        found.push(
          ...credentialSecrets({
            username: safeDecode(url.username),
            password: safeDecode(url.password),
          }),
          url.password,
        )
      } catch {
        // Not a URL: parseProxyUrl says so when it is used; nothing to register.
      }
    }
  }
  return [...new Set(found)]
}

/** A proxy login's secret spellings: the password, and `user:password` of a Basic header. */
export function credentialSecrets(credentials: { username: string; password: string }): string[] {
  if (credentials.password === '') return []
  return [credentials.password, `${credentials.username}:${credentials.password}`]
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * Whether NO_PROXY's list covers the URL: entries separated by commas or spaces; `*` covers
 * everything; `host`, `.host` and `*.host` cover the host and its subdomains (curl's reading);
 * `host:port` only that port; IP addresses compare exactly (no CIDR ranges).
 */
export function bypassesProxy(url: URL, noProxy: string): boolean {
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .toLowerCase()
    .replace(/\.$/, '')
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase()
    if (entry === '') continue
    if (entry === '*') return true
    const { name, entryPort } = splitEntry(entry)
    if (entryPort !== null && entryPort !== port) continue
    const domain = name.replace(/^\*?\./, '').replace(/\.$/, '')
    if (domain === '') continue
    if (host === domain) return true
    if (isIP(domain) === 0 && host.endsWith(`.${domain}`)) return true
  }
  return false
}

/** `host:port`, `[v6]:port`, a bare IPv6 address, or a name. */
function splitEntry(entry: string): { name: string; entryPort: string | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
  if (bracketed) return { name: bracketed[1] ?? '', entryPort: bracketed[2] ?? null }
  if (isIP(entry) === 6) return { name: entry, entryPort: null }
  const withPort = /^(.*):(\d+)$/.exec(entry)
  if (withPort) return { name: withPort[1] ?? '', entryPort: withPort[2] ?? null }
  return { name: entry, entryPort: null }
}

/** Thrown for a proxy setting that cannot be used; the message says where it came from. */
export class ProxySettingError extends Error {
  readonly code = 'ERR_PROXY_SETTING'
}

/**
 * `http://host:port` (a scheme-less `host:port` means http, as curl reads it). https:// and
 * SOCKS proxies are not spoken: refused with a message rather than used wrongly.
 */
export function parseProxyUrl(value: string, source: string): ProxyAddress {
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`)
  } catch {
    throw new ProxySettingError(`The ${source} names a proxy that is not a URL`)
  }
  if (url.protocol !== 'http:') {
    throw new ProxySettingError(
      `The ${source} names a ${url.protocol.replace(':', '')} proxy; only http:// proxies are supported`,
    )
  }
  const port = Number(url.port || 80)
  const credentials =
    url.username === ''
      ? null
      : { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }
  return {
    origin: `http://${url.host}`,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    credentials,
  }
}

/**
 * The first usable entry of a PAC-style answer (Electron's `session.resolveProxy`):
 * `DIRECT`, `PROXY host:port; DIRECT`… `PROXY` and `HTTP` entries are http proxies; `HTTPS`,
 * `SOCKS*` and `QUIC` ones are skipped (not spoken here) in favour of the next; null is direct.
 */
export function proxyFromPacAnswer(answer: string): ProxyAddress | null {
  for (const entry of answer.split(';')) {
    const [kind = '', address = ''] = entry.trim().split(/\s+/)
    const type = kind.toUpperCase()
    if (type === 'DIRECT') return null
    if ((type === 'PROXY' || type === 'HTTP') && address !== '') {
      return parseProxyUrl(`http://${address}`, "system's proxy setting")
    }
  }
  return null
}

/** `Basic …` for a proxy login. */
export function basicAuthorization(credentials: { username: string; password: string }): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`
}
