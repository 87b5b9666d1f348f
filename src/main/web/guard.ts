import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/*
 * The web host's gate. A loopback port is reachable by every local process and, through DNS
 * rebinding or a hostile page's fetch, by the browser's other tabs; so a request must carry the
 * per-launch secret (as an HttpOnly cookie after the first visit, or a header for scripts and
 * tests), name our own Host, and, when the browser says where it comes from, our own Origin.
 */

export const SECRET_HEADER = 'x-infradesk-secret'
export const SECRET_QUERY = 'secret'

/** 32 random bytes, base64url: printed once in the URL, never stored. */
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

/**
 * Cookies are shared by every port of a host, so the name carries the port: two web hosts (two
 * app instances, or tests in parallel) on 127.0.0.1 must not overwrite each other's cookie.
 */
export function cookieName(port: number): string {
  return `infradesk_${port}`
}

export function sessionCookie(port: number, secret: string): string {
  return `${cookieName(port)}=${secret}; Path=/; HttpOnly; SameSite=Strict`
}

export function cookieValue(request: IncomingMessage, name: string): string | undefined {
  const header = request.headers.cookie
  if (!header) return undefined
  for (const part of header.split(';')) {
    const separator = part.indexOf('=')
    if (separator < 0) continue
    if (part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim()
  }
  return undefined
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

export function requestCarriesSecret(request: IncomingMessage, port: number, secret: string) {
  const header = request.headers[SECRET_HEADER]
  if (typeof header === 'string' && secretsMatch(secret, header)) return true
  return secretsMatch(secret, cookieValue(request, cookieName(port)))
}
