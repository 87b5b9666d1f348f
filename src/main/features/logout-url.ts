import { externalHttpsHref } from './shell'

/*
 * Which `logoutUrl` (op 2's answer) the app opens in the system browser: the service names it,
 * and a service we sign out of must not be able to send the user's browser anywhere it likes (a
 * look-alike sign-in page right after "Logged out" is a phishing gift). So it is opened only
 * when it is https and on the profile's own site: the profile's host, or a host that shares its
 * registrable domain (`https://api.example.com` → `https://login.example.com/x`). Anything
 * else is shown as text to copy, not as a link.
 *
 * Registrable domain without the Public Suffix List: the project has none, and a rule that errs
 * only towards "not the same site" is safe here (the user can still copy the address). The
 * better tool is the `tldts` package (maintained, the whole PSL, no dependencies); until it is a
 * dependency, the conservative rule below stands:
 *   - IP addresses and one-label hosts (localhost, intranet names) match only themselves;
 *   - hosts under a known multi-tenant suffix (github.io, amazonaws.com, ...), where sibling
 *     names belong to different owners, match only themselves;
 *   - the registrable domain is the last two labels, or the last three when the last two look
 *     like a public suffix: a country-code TLD under a short or well-known second level
 *     (co.uk, com.au, gouv.fr), or a two-letter second level anywhere (us.com, eu.org).
 */

/** Suffixes where each name below belongs to someone else; the host must match exactly. */
const MULTI_TENANT_SUFFIXES = [
  'amazonaws.com',
  'appspot.com',
  'azurewebsites.net',
  'azurestaticapps.net',
  'blogspot.com',
  'cloudfront.net',
  'firebaseapp.com',
  'fly.dev',
  'github.io',
  'gitlab.io',
  'herokuapp.com',
  'netlify.app',
  'ngrok.io',
  'ngrok-free.app',
  'onrender.com',
  'pages.dev',
  'vercel.app',
  'web.app',
  'workers.dev',
]

/** Second levels of country-code TLDs that are public suffixes though longer than 3 letters. */
const LONG_CC_SECOND_LEVELS = new Set(['gouv', 'govt', 'police', 'kommune', 'school', 'nhs'])

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

/** The registrable domain by the conservative rule above; null when only the host will do. */
export function registrableDomain(host: string): string | null {
  if (isIpAddress(host)) return null
  const labels = host.split('.')
  if (labels.length < 2 || labels.some((label) => label === '')) return null
  if (MULTI_TENANT_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return null
  }
  const keep = looksLikePublicSuffix(labels.slice(-2)) ? 3 : 2
  // A host that is itself a public suffix (co.uk) has no registrable domain.
  if (labels.length < keep) return null
  return labels.slice(-keep).join('.')
}

function looksLikePublicSuffix([secondLevel = '', tld = '']: string[]): boolean {
  if (secondLevel.length <= 2) return true
  const countryCode = /^[a-z]{2}$/.test(tld)
  return countryCode && (secondLevel.length <= 3 || LONG_CC_SECOND_LEVELS.has(secondLevel))
}

function isIpAddress(host: string): boolean {
  // The URL parser writes IPv6 in brackets and every IPv4 form (0x7f.1, 2130706433) dotted.
  return host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host)
}

function withoutTrailingDot(host: string): string {
  return host.endsWith('.') ? host.slice(0, -1) : host
}
