import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { Agent, fetch as undiciFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../src/main/api'
import type { ServiceClient } from '../../src/main/api'
import { createNetworkStack, DEFAULT_PROFILE_NETWORK } from '../../src/main/net'
import type { Environment, ProfileNetwork } from '../../src/main/net'
import { AtomicFile } from '../../src/main/transfers'
import { writeVolumeArchive } from '../../src/main/transfers/volume-archive'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { Profile, ProfileNetworkView } from '../../src/shared/bridge'
import { openTestDesk } from '../support/desk'
import type { TestDesk } from '../support/desk'
import { makePrivateCa } from '../support/private-ca'
import type { PrivateCa } from '../support/private-ca'
import { startTinyproxy } from '../support/tinyproxy'
import type { Tinyproxy } from '../support/tinyproxy'
import { makeTempDir, sha256Hex } from '../support/tools'
import type { TempDir } from '../support/tools'
import { serviceErrorOf } from '../support/service-error'

/*
 * Proxies with real parts: Debian's tinyproxy on loopback (its log proves what went through
 * it), in front of an HTTPS sandbox (private CA, reached with CONNECT) and a plain HTTP one
 * (absolute-form requests). Environment variables, NO_PROXY, a profile's own proxy with its
 * Basic login in the keychain, a 407 named as the proxy's, and a download resumed through it.
 */

let temp: TempDir
let ca: PrivateCa
let secure: RunningSandbox
let plain: RunningSandbox
let proxy: Tinyproxy
let guarded: Tinyproxy
let desk: TestDesk
const profileIds: string[] = []
// tinyproxy's config takes no spaces or colons in a BasicAuth password.
const LOGIN = { username: 'alice', password: 's3cret-Pr0xy' }

beforeAll(async () => {
  temp = await makeTempDir('infradesk-proxy')
  ca = await makePrivateCa(temp, 'Proxy Corp')
  const leaf = await ca.issue('ims.proxy.test')
  ;[secure, plain, proxy, guarded] = await Promise.all([
    startSandbox({ tls: { cert: leaf.certPem, key: leaf.keyPem } }),
    startSandbox(),
    startTinyproxy(temp, 'open'),
    startTinyproxy(temp, 'guarded', { basicAuth: LOGIN }),
  ])
  desk = await openTestDesk('proxy', { environment: {} })
})

afterAll(async () => {
  await desk?.close(profileIds)
  await Promise.all([secure?.close(), plain?.close(), proxy?.stop(), guarded?.stop()])
  await temp?.remove()
})

function clientFor(
  sandbox: RunningSandbox,
  env: Environment,
  network: Partial<ProfileNetwork> = {},
): ServiceClient {
  return createServiceClient({
    baseUrl: sandbox.url,
    token: sandbox.tokens.admin,
    timeoutMs: 60_000,
    network: createNetworkStack({ env }).forProfile({
      ...DEFAULT_PROFILE_NETWORK,
      trustedCas: [ca.pem],
      ...network,
    }),
  })
}

/** Request lines the proxy logged since `before` (a count of earlier ones). */
async function newRequests(target: Tinyproxy, before: number): Promise<string[]> {
  return (await target.requests()).slice(before)
}

function hostPort(sandbox: RunningSandbox): string {
  return new URL(sandbox.url).host
}

describe('the environment proxy', () => {
  it('carries https calls through CONNECT (HTTPS_PROXY)', async () => {
    const before = (await proxy.requests()).length
    await clientFor(secure, { HTTPS_PROXY: proxy.url }).call('listSessions')
    expect(await newRequests(proxy, before)).toContain(`CONNECT ${hostPort(secure)} HTTP/1.1`)
  })

  it('carries http calls as absolute-form requests (http_proxy, lower case)', async () => {
    const before = (await proxy.requests()).length
    await clientFor(plain, { http_proxy: proxy.url }).call('listSessions')
    expect(await newRequests(proxy, before)).toContain(`GET ${plain.url}/auth/me/sessions HTTP/1.1`)
  })

  it('sends nothing through it for a host NO_PROXY names', async () => {
    const before = (await proxy.requests()).length
    const port = new URL(secure.url).port
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${port}`, '*', 'example.com, 127.0.0.1']) {
      await clientFor(secure, { HTTPS_PROXY: proxy.url, NO_PROXY: noProxy }).call('listSessions')
    }
    await clientFor(plain, { HTTP_PROXY: proxy.url, no_proxy: '127.0.0.1' }).call('listSessions')
    expect(await newRequests(proxy, before)).toEqual([])
  })

  it('names the proxy when it cannot be reached', async () => {
    const error = await serviceErrorOf(
      clientFor(secure, { HTTPS_PROXY: 'http://127.0.0.1:9' }, {}).call('listSessions'),
    )
    expect(error.code).toBe('OFFLINE')
    expect(error.message).toBe(
      'Could not connect to the proxy at http://127.0.0.1:9 (connection refused)',
    )
  })
})

describe('a proxy that wants a login', () => {
  it('is named as the refusing party on a 407: CONNECT, absolute-form and downloads', async () => {
    const expected = `The proxy at ${guarded.url} refused: 407 Proxy Authentication Required`
    const viaConnect = await serviceErrorOf(
      clientFor(secure, { HTTPS_PROXY: guarded.url }).call('listSessions'),
    )
    expect(viaConnect.code).toBe('OFFLINE')
    expect(viaConnect.message).toBe(expected)
    expect(viaConnect.status).toBeUndefined()
    const viaAbsolute = await serviceErrorOf(
      clientFor(plain, { HTTP_PROXY: guarded.url }).call('listSessions'),
    )
    expect(viaAbsolute.message).toBe(expected)
    const raw = await serviceErrorOf(
      clientFor(secure, { HTTPS_PROXY: guarded.url }).fetchRaw('/auth/me/sessions', {
        authenticated: true,
      }),
    )
    expect(raw.message).toBe(expected)
  })

  it('a profile with its own proxy keeps the login in the keychain, never in profiles.json', async () => {
    const fields = {
      name: 'Behind the proxy',
      baseUrl: secure.url,
      color: '#2563eb',
      protected: false,
      token: secure.tokens.admin,
      trustedCas: [ca.pem],
    }
    const refused = await desk.failure('profiles.add', {
      ...fields,
      proxy: { mode: 'custom', url: guarded.url },
    })
    expect(refused.message).toContain(`The proxy at ${guarded.url} refused: 407`)

    const before = (await guarded.requests()).length
    const profile = await desk.value<Profile>('profiles.add', {
      ...fields,
      proxy: { mode: 'custom', url: guarded.url, ...LOGIN },
    })
    profileIds.push(profile.id)
    await desk.value('service.call', { profileId: profile.id, operation: 'listSessions' })
    expect(
      (await newRequests(guarded, before)).filter((line) => line.startsWith('CONNECT ')).length,
    ).toBeGreaterThanOrEqual(1)

    expect(await desk.vault.getProxyCredentials(profile.id)).toEqual(LOGIN)
    const file = await readFile(path.join(desk.dataDir, 'profiles.json'), 'utf8')
    expect(file).toContain(guarded.url)
    expect(file).not.toContain(LOGIN.password)
    expect(file).not.toContain('alice')
    const view = await desk.value<ProfileNetworkView>('profiles.network', { id: profile.id })
    expect(view.proxy).toEqual({
      mode: 'custom',
      url: guarded.url,
      username: 'alice',
      hasPassword: true,
    })
    expect(JSON.stringify(view)).not.toContain(LOGIN.password)

    // A new URL without a password keeps the stored one; "none" goes direct.
    await desk.value('profiles.update', {
      id: profile.id,
      proxy: { mode: 'custom', url: guarded.url, username: 'alice' },
    })
    await desk.value('service.call', { profileId: profile.id, operation: 'listSessions' })
    const direct = (await guarded.requests()).length
    await desk.value('profiles.update', { id: profile.id, proxy: { mode: 'none' } })
    await desk.value('service.call', { profileId: profile.id, operation: 'listSessions' })
    expect(await newRequests(guarded, direct)).toEqual([])
    expect(await desk.vault.getProxyCredentials(profile.id)).toBeNull()
  })
})

describe('downloads through the proxy', () => {
  /** The sandbox's test-only cut control, over a connection that trusts the private CA. */
  async function cutNextDownloads(afterBytes: number, count: number): Promise<void> {
    const response = await undiciFetch(`${secure.url}/__sandbox/downloads/cut`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secure.tokens.admin}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ afterBytes, count }),
      dispatcher: new Agent({ connect: { ca: ca.pem } }),
    })
    expect(response.status).toBe(200)
  }

  it('resumes a cut volume download through the tunnel and ends with the right hash', async () => {
    const client = clientFor(secure, { HTTPS_PROXY: proxy.url })
    const volume = secure.seed().volumes.find((item) => item.name === 'ci-cache')
    if (volume === undefined) throw new Error('no seeded volume ci-cache')
    const exported = (
      await client.call('exportVolume', { params: { nodeId: volume.nodeId, name: volume.name } })
    ).data
    await cutNextDownloads(1024 * 1024 + 17, 1)
    const before = (await proxy.requests()).length
    const file = await AtomicFile.create(temp.dir, 'ci-cache.tar.gz')
    const seen: { resumes: number }[] = []
    const written = await writeVolumeArchive({
      exported,
      client,
      file,
      collision: 'number',
      signal: new AbortController().signal,
      reporter: { progress: (progress) => seen.push(progress), verifying: () => undefined },
      renewUrl: () => Promise.reject(new Error('not needed')),
    })
    expect(sha256Hex(await readFile(written.path))).toBe(exported.sha256)
    expect(seen.at(-1)?.resumes).toBe(1)
    const tunnels = (await newRequests(proxy, before)).filter((line) =>
      line.startsWith(`CONNECT ${hostPort(secure)} `),
    )
    // The first attempt and the resumed one.
    expect(tunnels.length).toBe(2)
  })
})
