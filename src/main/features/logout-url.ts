import { getDomain } from 'tldts'
import { externalHttpsHref } from './shell'

/*
 * Which `logoutUrl` (op 2's answer) the app opens in the system browser: the service names it,
 * and a service we sign out of must not be able to send the user's browser anywhere it likes (a
 * look-alike sign-in page right after "Logged out" is a phishing gift). So it is opened only
 * when it is https and on the profile's own site: the profile's host, or a host that shares its
 * registrable domain (`https://api.example.com` → `https://login.example.com/x`). Anything
 * else is shown as text to copy, not as a link.
 *
 * The registrable domain comes from the Public Suffix List (the `tldts` package), private
 * section included: under `github.io` or `amazonaws.com` every name belongs to someone else, so
 * `a.github.io` and `b.github.io` are two sites. IP addresses and one-label hosts (localhost,
 * intranet names) have no registrable domain and match only themselves.
 */

/**
 * The address to open for a service's `logoutUrl`, parsed and normalised (what the browser is
 * given), or null when it must only be shown: not https, or not on the profile's site.
 */
export function logoutUrlToOpen(logoutUrl: string, profileBaseUrl: string): string | null {
  const href = externalHttpsHref(logoutUrl)
  if (href === null) return null
  const target = new URL(href)
  // `https://api.example.com@evil.test` reads as the profile's host to a person: never opened.
  if (target.username !== '' || target.password !== '') return null
  let profile: URL
  try {
    profile = new URL(profileBaseUrl)
  } catch {
    return null
  }
  return sameSite(target.hostname, profile.hostname) ? href : null
}

/** Whether two hosts (as URL parsing gives them: lower case, punycode) are one site. */
export function sameSite(hostA: string, hostB: string): boolean {
  const a = withoutTrailingDot(hostA)
  const b = withoutTrailingDot(hostB)
  if (a === '' || b === '') return false
  if (a === b) return true
  const domain = registrableDomain(a)
  return domain !== null && domain === registrableDomain(b)
}

/** The registrable domain by the Public Suffix List; null when only the host will do. */
export function registrableDomain(host: string): string | null {
  return getDomain(host, { allowPrivateDomains: true, extractHostname: false })
}

function withoutTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host
}
