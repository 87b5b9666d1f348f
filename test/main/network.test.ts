import { describe, expect, it } from 'vitest'
import { createNetworkStack, DEFAULT_PROFILE_NETWORK, readCaCertificates } from '../../src/main/net'
import type { ProfileNetwork } from '../../src/main/net'
import {
  bypassesProxy,
  parseProxyUrl,
  proxyFromEnvironment,
  proxyFromPacAnswer,
} from '../../src/main/net/proxy'
import { ServiceError } from '../../src/main/api'

/*
 * The routing decisions of src/main/net, without a network: which proxy the environment, the
 * profile or the OS names for a URL, how NO_PROXY reads, and which PEM files pass as CAs.
 */

const url = (text: string) => new URL(text)

describe('NO_PROXY', () => {
  it.each([
    ['*', 'https://ims.corp.example', true],
    ['corp.example', 'https://ims.corp.example', true],
    ['corp.example', 'https://corp.example', true],
    ['.corp.example', 'https://ims.corp.example', true],
    ['.corp.example', 'https://corp.example', true],
    ['*.corp.example', 'https://a.b.corp.example', true],
    ['corp.example', 'https://notcorp.example', false],
    ['ims.corp.example:8443', 'https://ims.corp.example:8443', true],
    ['ims.corp.example:8443', 'https://ims.corp.example', false],
    ['ims.corp.example:443', 'https://ims.corp.example', true],
    ['10.0.0.1', 'http://10.0.0.1:8080', true],
    ['10.0.0.1', 'http://10.0.0.10', false],
    ['[::1]:4010', 'http://[::1]:4010', true],
    ['::1', 'http://[::1]:4010', true],
    [' foo.test , IMS.Corp.Example ', 'https://ims.corp.example', true],
    ['', 'https://ims.corp.example', false],
  ])('%j covers %s: %s', (noProxy, target, covered) => {
    expect(bypassesProxy(url(target), noProxy)).toBe(covered)
  })
})

describe('the environment', () => {
  it('names HTTPS_PROXY for https and HTTP_PROXY for http; lower case wins', () => {
    const env = {
      HTTPS_PROXY: 'http://upper:3128',
      https_proxy: 'http://lower:3128',
      HTTP_PROXY: 'plain:8080',
    }
    expect(proxyFromEnvironment(url('https://ims.example'), env)?.origin).toBe('http://lower:3128')
    expect(proxyFromEnvironment(url('http://ims.example'), env)?.origin).toBe('http://plain:8080')
    expect(proxyFromEnvironment(url('https://ims.example'), {})).toBeNull()
  })

  it('reads a login from the proxy URL and refuses what it cannot speak', () => {
    expect(parseProxyUrl('http://bob:p%40ss@proxy:3128', 'environment').credentials).toEqual({
      username: 'bob',
      password: 'p@ss',
    })
    expect(() => parseProxyUrl('socks5://proxy:1080', 'environment')).toThrow(/only http:\/\//)
    expect(() => parseProxyUrl('https://proxy:3128', 'environment')).toThrow(/https proxy/)
  })
})

describe("the system's answer (PAC form)", () => {
  it.each([
    ['DIRECT', null],
    ['PROXY proxy.corp:3128; DIRECT', 'http://proxy.corp:3128'],
    ['SOCKS5 s:1080; PROXY p:8080', 'http://p:8080'],
    ['HTTPS secure:443; DIRECT', null],
    ['', null],
  ])('%j is %s', (answer, origin) => {
    expect(proxyFromPacAnswer(answer)?.origin ?? null).toBe(origin)
  })
})

describe('the route of a profile', () => {
  const system = { resolveProxy: async () => 'PROXY os-proxy:8080' }
  const route = (network: Partial<ProfileNetwork>, env: Record<string, string>, target: string) =>
    createNetworkStack({ env, systemProxy: system })
      .forProfile({ ...DEFAULT_PROFILE_NETWORK, ...network })
      .route(url(target))

  it('the profile first, then the environment (with NO_PROXY), then the OS', async () => {
    const env = { HTTPS_PROXY: 'http://env-proxy:3128', NO_PROXY: 'internal.example' }
    const own = await route(
      { proxy: { mode: 'custom', url: 'http://own:3128' } },
      env,
      'https://a.example',
    )
    expect([own.proxy?.origin, own.proxySource]).toEqual(['http://own:3128', 'profile'])
    const fromEnv = await route({}, env, 'https://a.example')
    expect([fromEnv.proxy?.origin, fromEnv.proxySource]).toEqual([
      'http://env-proxy:3128',
      'environment',
    ])
    // NO_PROXY sends it direct: the environment decided, the OS is not asked.
    expect((await route({}, env, 'https://ims.internal.example')).proxy).toBeNull()
    const fromOs = await route({}, {}, 'https://a.example')
    expect([fromOs.proxy?.origin, fromOs.proxySource]).toEqual(['http://os-proxy:8080', 'system'])
    expect((await route({ proxy: { mode: 'none' } }, env, 'https://a.example')).proxy).toBeNull()
  })

  it("sends the profile's login as Basic to its proxy only", async () => {
    const network = {
      proxy: { mode: 'custom' as const, url: 'http://own:3128' },
      proxyCredentials: { username: 'alice', password: 'pw:1' },
    }
    const chosen = await route(network, {}, 'https://a.example')
    expect(chosen.proxyAuthorization).toBe(`Basic ${Buffer.from('alice:pw:1').toString('base64')}`)
  })
})

describe('CA certificate files', () => {
  it('refuses a file with no certificate', () => {
    expect(() => readCaCertificates('not a certificate')).toThrow(ServiceError)
  })
})
