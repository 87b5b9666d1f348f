import { describe, expect, it } from 'vitest'
import { logoutUrlToOpen, registrableDomain } from '../../src/main/features/logout-url'

/*
 * A service's logoutUrl (op 2) is opened in the system browser only when it is https and on the
 * profile's own site: the profile's host or one sharing its registrable domain. Anything else
 * comes back to be shown as text, and the browser is never handed the raw string, only the URL
 * as parsed. The decision function, case by case (the desk's use of it: logout-url-desk.test.ts).
 */

describe('logoutUrlToOpen: which logout URLs are opened', () => {
  it.each([
    // [profile base URL, logout URL, opened]
    ['https://api.example.com', 'https://login.example.com/x', true],
    ['https://api.example.com', 'https://api.example.com/logout', true],
    ['https://api.example.com', 'https://example.com/logout', true],
    ['https://example.com', 'https://sso.example.com/end', true],
    ['https://api.example.com/ims', 'https://LOGIN.Example.COM./x', true],
    ['http://api.example.com:8080', 'https://login.example.com/x', true],
    ['https://api.example.co.uk', 'https://login.example.co.uk/x', true],
    ['https://api.example.com', 'https://example.com.evil.test/x', false],
    ['https://api.example.com', 'https://evil.test/', false],
    ['https://api.example.com', 'https://notexample.com/', false],
    ['https://api.example.com', 'https://api.example.com.evil.test/', false],
    ['https://api.example.com', 'https://api.example.com@evil.test/', false],
    ['https://api.example.com', 'https://user:pass@login.example.com/', false],
    ['https://api.example.com', 'http://login.example.com/x', false],
    ['https://api.example.com', 'javascript:alert(1)//login.example.com', false],
    ['https://api.example.com', 'file:///etc/passwd', false],
    ['https://api.example.com', 'not a url', false],
    ['https://api.example.com', '', false],
    // A shared public suffix is not a shared site.
    ['https://api.example.co.uk', 'https://evil.co.uk/', false],
    ['https://api.example.com.au', 'https://evil.com.au/', false],
    ['https://api.example.gouv.fr', 'https://evil.gouv.fr/', false],
    ['https://api.example.us.com', 'https://evil.us.com/', false],
    // Multi-tenant hosting: each name is someone else's.
    ['https://team.github.io', 'https://evil.github.io/', false],
    ['https://api.herokuapp.com', 'https://evil.herokuapp.com/', false],
    ['https://x.s3.amazonaws.com', 'https://y.s3.amazonaws.com/', false],
    // IP addresses and one-label hosts match only themselves.
    ['http://127.0.0.1:4010', 'https://127.0.0.1/logout', true],
    ['http://127.0.0.1:4010', 'https://127.0.0.2/logout', false],
    ['http://10.0.0.5', 'https://10.0.0.6/', false],
    ['http://[::1]:4010', 'https://[::1]/logout', true],
    ['http://[::1]:4010', 'https://[::2]/logout', false],
    ['http://localhost:4010', 'https://localhost/logout', true],
    ['http://localhost:4010', 'https://localhost.evil.test/', false],
    ['http://127.0.0.1:4010', 'https://login.example.com/oidc/logout', false],
    ['not a url', 'https://login.example.com/', false],
  ])('profile %s, logout %s: opened %s', (profile, logout, opened) => {
    expect(logoutUrlToOpen(logout, profile) !== null).toBe(opened)
  })

  it('gives the URL as parsed, never the string the service sent', () => {
    expect(logoutUrlToOpen('https://LOGIN.example.com/a b\\c', 'https://api.example.com')).toBe(
      'https://login.example.com/a%20b/c',
    )
  })

  it.each([
    ['example.com', 'example.com'],
    ['a.b.example.com', 'example.com'],
    ['a.example.co.uk', 'example.co.uk'],
    ['co.uk', null],
    ['localhost', null],
    ['192.168.1.1', null],
    ['[::1]', null],
    // The list's private section: every name under github.io is its own site.
    ['x.github.io', 'x.github.io'],
    ['a.b.x.github.io', 'x.github.io'],
    ['shop.example.com.au', 'example.com.au'],
  ])('registrableDomain(%s) is %s', (host, domain) => {
    expect(registrableDomain(host)).toBe(domain)
  })
})
