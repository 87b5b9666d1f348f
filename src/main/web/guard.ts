import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { SECRET_HEADER } from '../../shared/bridge/web-protocol'

/*
 * The web host's gate. A loopback port is reachable by every local process and, through DNS
 * rebinding or a hostile page's fetch, by the browser's other tabs; so a bridge request must
 * carry the per-launch secret in a header, name our own Host, and, when the browser says where
 * it comes from, our own Origin. The secret is never a cookie: cookies are not separated by
 * port, so the browser would hand it to every other server on 127.0.0.1 it visits.
 */

export { SECRET_HEADER }

/** 32 random bytes, base64url: printed once in the URL, never stored by the host. */
export function newLaunchSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function secretsMatch(expected: string, given: string | undefined | null): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(expected)
  const b = Buffer.from(given)
  // timingSafeEqual needs equal lengths; a length mismatch is a plain refusal.
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The Host values that name this server; anything else may be a DNS-rebinding attempt. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`])
}

/** The origins our own pages have, parsed so `http://127.0.0.1:4000.evil.test` cannot pass. */
export function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`])
}

export function hostIsOurs(request: IncomingMessage, port: number): boolean {
  const host = request.headers.host
  return typeof host === 'string' && allowedHosts(port).has(host.toLowerCase())
}

/** An absent Origin is fine (top-level navigations, curl); a present one must be ours. */
export function originIsOurs(request: IncomingMessage, port: number): boolean {
  const origin = request.headers.origin
  if (origin === undefined) return true
  try {
    return allowedOrigins(port).has(new URL(origin).origin)
  } catch {
    // "null" (sandboxed frames, file://) and garbage do not parse as our origin.
    return false
  }
}

/** The secret in SECRET_HEADER, and nowhere else: not a cookie, not the URL. */
export function requestCarriesSecret(request: IncomingMessage, secret: string): boolean {
  const header = request.headers[SECRET_HEADER]
  return typeof header === 'string' && secretsMatch(secret, header)
}
