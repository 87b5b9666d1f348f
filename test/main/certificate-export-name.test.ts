import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servedExportName } from '../../src/main/features/certificates/export'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import type { ChannelOutput, Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'

/*
 * The saved certificate file's name, where no dialog asked the user for one (web mode): the
 * one the service's raw answer gives in `Content-Disposition` (a real deployment names the file
 * after the PKI certificate's common name, not after the SSL certificate's list name),
 * sanitised, with the format's extension. Run under scripts/with-keyring.mjs.
 */

type Saved = NonNullable<ChannelOutput<'certificates.export'>>

describe('servedExportName', () => {
  it.each([
    ['api.example.com.p12', 'pkcs12', false, 'api.example.com.p12'],
    ['api.example.com-chain.pem', 'chain', false, 'api.example.com-chain.pem'],
    ['payments.chain.pem', 'chain', false, 'payments-chain.pem'],
    ['payments.crt', 'pem', false, 'payments.pem'],
    ['api.example.com.zip', 'pem-bundle', true, 'api.example.com.zip'],
    ['../../etc/passwd', 'pem', false, 'passwd.pem'],
    ['Report.pdf      .desktop', 'der', false, 'Report.pdf.der'],
    ['.p12', 'pkcs12', false, null],
  ] as const)('%s as %s → %s', (served, format, zip, expected) => {
    expect(servedExportName(served, format, zip)).toBe(expected)
  })
})

let sandbox: RunningSandbox
let desk: TestDesk
let profile: Profile

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, flavor: 'gateway' })
  desk = await openTestDesk('certificate-export-name', { requestTimeoutMs: 30_000 })
  profile = await desk.addProfile(sandbox, { name: 'Gateway', sessionOnly: true })
}, 120_000)

afterAll(async () => {
  await desk?.close([profile?.id].filter((id): id is string => id !== undefined))
  await sandbox?.close()
})

describe('a raw export saved into the downloads folder', () => {
  it("takes the name of the answer's Content-Disposition, not the list's name", async () => {
    const seed = sandbox.seed() as ReturnType<RunningSandbox['seed']> & {
      pkiCertificates: { id: string; sslCertificateId: string; hasPrivateKey: boolean }[]
    }
    await desk.value('certificates.refresh', { profileId: profile.id, filter: {} })
    const pki = seed.pkiCertificates.find((candidate) => candidate.hasPrivateKey)!
    // What the service names the file, asked directly.
    const direct = await fetch(new URL(`/api/certificates/${pki.id}/export`, sandbox.url), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox.tokens.admin}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ format: 'fullchain' }),
    })
    expect(direct.status).toBe(200)
    await direct.arrayBuffer()
    const served = /filename="([^"]+)"/.exec(direct.headers.get('content-disposition') ?? '')?.[1]
    expect(served).toMatch(/-fullchain\.pem$/)
    const item = (
      await desk.value<ChannelOutput<'certificates.details'>>('certificates.details', {
        profileId: profile.id,
        id: pki.sslCertificateId,
        readPem: false,
      })
    ).item as Record<string, unknown>
    // Otherwise this test could not tell the two names apart.
    expect(`${String(item['name'])}-fullchain.pem`).not.toBe(served)

    const saved = await desk.value<Saved>('certificates.export', {
      profileId: profile.id,
      id: pki.sslCertificateId,
      format: 'fullchain',
    })
    expect(path.basename(saved.path)).toBe(served)
    expect(path.dirname(saved.path)).toBe(desk.downloads)
  })
})
