import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, ServiceError } from '../../src/main/api'
import { createNetworkStack, DEFAULT_PROFILE_NETWORK } from '../../src/main/net'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { Profile, ProfileNetworkView } from '../../src/shared/bridge'
import { openTestDesk } from '../support/desk'
import type { TestDesk } from '../support/desk'
import { makePrivateCa } from '../support/private-ca'
import type { IssuedCertificate, PrivateCa } from '../support/private-ca'
import { makeTempDir } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * Trust with real parts: an HTTPS sandbox whose certificate comes from a private CA made with
 * openssl now. Unknown to the system's store, it must be refused with the certificate named (its
 * SHA-256 as openssl prints it) and its CA offered; once trusted for a profile, that profile
 * works, and only that one.
 */

let temp: TempDir
let ca: PrivateCa
let otherCa: PrivateCa
let leaf: IssuedCertificate
let sandbox: RunningSandbox
let desk: TestDesk
const profileIds: string[] = []

beforeAll(async () => {
  temp = await makeTempDir('infradesk-trust')
  ca = await makePrivateCa(temp, 'Corp')
  otherCa = await makePrivateCa(temp, 'Other')
  leaf = await ca.issue('ims.corp.test')
  // The server sends its chain, CA included (as most do): SELF_SIGNED_CERT_IN_CHAIN.
  sandbox = await startSandbox({ tls: { cert: leaf.certPem + ca.pem, key: leaf.keyPem } })
  desk = await openTestDesk('trust', { environment: {} })
})

afterAll(async () => {
  await desk?.close(profileIds)
  await sandbox?.close()
  await temp?.remove()
})

const profileFields = (name: string) => ({
  name,
  baseUrl: sandbox.url,
  color: '#2563eb',
  protected: false,
})

describe('the client against a service with a private CA', () => {
  it('refuses it, naming the server certificate by its SHA-256 and offering its CA', async () => {
    const client = createServiceClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
      network: createNetworkStack({ env: {} }).forProfile(DEFAULT_PROFILE_NETWORK),
    })
    const error = await client.call('listSessions').then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(ServiceError)
    const failure = error as ServiceError
    expect(failure.code).toBe('TLS_ERROR')
    expect(failure.message).toContain(leaf.fingerprint)
    expect(failure.message).toContain('CN=ims.corp.test')
    expect(failure.details).toMatchObject({
      reason: 'SELF_SIGNED_CERT_IN_CHAIN',
      certificate: {
        subject: 'CN=ims.corp.test',
        issuer: ca.subject,
        fingerprint256: leaf.fingerprint,
      },
      ca: { subject: ca.subject, fingerprint256: ca.fingerprint },
    })
  })

  it('works once the CA is trusted for it', async () => {
    const client = createServiceClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
      network: createNetworkStack({ env: {} }).forProfile({
        ...DEFAULT_PROFILE_NETWORK,
        trustedCas: [ca.pem],
      }),
    })
    // A top-level array of sessions (op 1).
    expect(Array.isArray(await client.call('listSessions'))).toBe(true)
  })
})

describe('profiles and their trusted CAs', () => {
  it('checks a CA file locally: a CA is described, a server certificate refused', async () => {
    const seen = await desk.value<{
      certificates: { subject: string; fingerprint256: string; validTo: string }[]
    }>('profiles.inspectCa', { pem: ca.pem })
    expect(seen.certificates).toHaveLength(1)
    expect(seen.certificates[0]).toMatchObject({
      subject: ca.subject,
      fingerprint256: ca.fingerprint,
    })
    expect(Date.parse(seen.certificates[0]?.validTo ?? '')).toBeGreaterThan(Date.now())
    const refused = await desk.failure('profiles.inspectCa', { pem: leaf.certPem })
    expect(refused.code).toBe('VALIDATION_ERROR')
    expect(JSON.stringify(refused.details)).toMatch(/not a CA certificate/)
    const junk = await desk.failure('profiles.inspectCa', { pem: 'hello' })
    expect(junk.code).toBe('VALIDATION_ERROR')
  })

  it('adding a profile fails with the CA offered; with the CA it is added, and only it works', async () => {
    const refused = await desk.failure('profiles.add', {
      ...profileFields('Corp without CA'),
      token: sandbox.tokens.admin,
    })
    expect(refused.code).toBe('TLS_ERROR')
    expect(refused.message).toContain(leaf.fingerprint)
    const offered = (refused.details as { ca: { pem: string; fingerprint256: string } }).ca
    expect(offered.fingerprint256).toBe(ca.fingerprint)

    // The form adds what was offered once the user confirmed its fingerprint.
    const trusted = await desk.value<Profile>('profiles.add', {
      ...profileFields('Corp'),
      token: sandbox.tokens.admin,
      trustedCas: [offered.pem],
    })
    profileIds.push(trusted.id)
    const network = await desk.value<ProfileNetworkView>('profiles.network', { id: trusted.id })
    expect(network.trustedCas.map((item) => item.fingerprint256)).toEqual([ca.fingerprint])
    expect(network.proxy).toEqual({ mode: 'system' })
    await desk.value('service.call', { profileId: trusted.id, operation: 'listSessions' })
    // Signing in again checks the token over the profile's own trust too.
    await desk.value('profiles.signIn', { id: trusted.id, token: sandbox.tokens.admin })

    // A second profile for the same service that trusts another CA only: still refused.
    const other = await desk.failure('profiles.add', {
      ...profileFields('Other'),
      token: sandbox.tokens.admin,
      trustedCas: [otherCa.pem],
    })
    expect(other.code).toBe('TLS_ERROR')
  })

  it('trust belongs to the profile: removing the CA makes its calls fail again', async () => {
    const profile = await desk.value<Profile>('profiles.add', {
      ...profileFields('Corp, for a while'),
      token: sandbox.tokens.admin,
      trustedCas: [ca.pem, otherCa.pem],
    })
    profileIds.push(profile.id)
    await desk.value('service.call', { profileId: profile.id, operation: 'listSessions' })
    await desk.value('profiles.update', { id: profile.id, trustedCas: [otherCa.pem] })
    const failure = await desk.failure('service.call', {
      profileId: profile.id,
      operation: 'listSessions',
    })
    expect(failure.code).toBe('TLS_ERROR')
    expect(failure.message).toContain(leaf.fingerprint)
  })
})
