import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callOperation, GATEWAY_ARGS, sandboxForThisFile } from '../../support/sandbox-process'
import {
  keytoolList,
  makeSelfSigned,
  makeTempDir,
  readX509,
  run,
  splitPemBlocks,
} from '../../support/tools'
import type { TempDir } from '../../support/tools'
import { readPkcs12 } from '../../support/pkcs12'

/*
 * The gateway flavour's certificates as a real deployment serves them: op 16 pages of at most
 * 100, newest first, with `pagination`; each SSL certificate carries its public PEM and, when
 * internal, the PKI certificate's id (`internalCertId`) that op 12 exports by; op 12 answers the
 * file itself, named after the common name; op 10 answers `{success: true}`.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS] })
const PASSPHRASE = 'correct horse battery staple'

const listItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.enum(['acme', 'upload', 'internal']),
  status: z.enum(['active', 'expired', 'pending', 'error']),
  certificatePem: z.string(),
  chainPem: z.string().nullable(),
  internalCertId: z.string().nullable(),
  domainNames: z.array(z.string()),
  createdAt: z.string(),
})
const listAnswer = z.strictObject({
  data: z.array(listItem),
  pagination: z.strictObject({
    page: z.number(),
    limit: z.number(),
    total: z.number(),
    totalPages: z.number(),
  }),
})
const pkiIds = z.array(
  z.looseObject({ id: z.string(), sslCertificateId: z.string(), hasPrivateKey: z.boolean() }),
)

let temp: TempDir
beforeAll(async () => {
  temp = await makeTempDir('gateway-certs-')
})
afterAll(async () => {
  await temp?.remove()
})

async function listPage(query: Record<string, string>) {
  const response = await callOperation(sandbox, 'listCertificates', { query })
  expect(response.status, response.text().slice(0, 300)).toBe(200)
  return listAnswer.parse(response.json)
}

function pkiCertificates() {
  return pkiIds.parse((sandbox.seed as Record<string, unknown>)['pkiCertificates'])
}

async function exportFile(id: string, format: string, passphrase?: string) {
  return callOperation(sandbox, 'exportCertificate', {
    params: { id },
    body: passphrase === undefined ? { format } : { format, passphrase },
  })
}

describe('gateway flavour: op 16', () => {
  it('pages 20 by default, newest first, with pagination that adds up to every certificate', async () => {
    const first = await listPage({})
    expect(first.pagination).toEqual({
      page: 1,
      limit: 20,
      total: first.pagination.total,
      totalPages: Math.ceil(first.pagination.total / 20),
    })
    expect(first.data).toHaveLength(20)
    const all = [...first.data]
    for (let page = 2; page <= first.pagination.totalPages; page++) {
      all.push(...(await listPage({ page: String(page) })).data)
    }
    expect(new Set(all.map((item) => item.id)).size).toBe(first.pagination.total)
    const seeded = sandbox.seed.certificates.all.length - sandbox.seed.certificates.system.length
    expect(first.pagination.total).toBe(seeded)
    const dates = all.map((item) => item.createdAt)
    expect(dates).toEqual([...dates].sort().reverse())
  })

  it('refuses limit 101 with a dotted path and accepts 100', async () => {
    const refused = await callOperation(sandbox, 'listCertificates', { query: { limit: '101' } })
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'limit', message: 'Must be at most 100' }],
    })
    expect((await listPage({ limit: '100' })).pagination.limit).toBe(100)
  })

  it('lists the types internal, acme and upload; an internal one links to its PKI certificate', async () => {
    const { data } = await listPage({ limit: '100', showSystem: 'true' })
    expect(new Set(data.map((item) => item.type))).toEqual(new Set(['acme', 'upload', 'internal']))
    const links = new Map(pkiCertificates().map((pki) => [pki.sslCertificateId, pki.id]))
    for (const item of data) {
      expect(item.internalCertId, item.name).toBe(links.get(item.id) ?? null)
      expect(item.internalCertId === null, item.name).toBe(item.type !== 'internal')
      expect(item.certificatePem).toMatch(/^-----BEGIN CERTIFICATE-----/)
      expect(item).not.toHaveProperty('privateKeyPem')
    }
    const onlyAcme = await listPage({ type: 'acme', limit: '100' })
    expect(onlyAcme.data.every((item) => item.type === 'acme')).toBe(true)
    const unknownType = await callOperation(sandbox, 'listCertificates', {
      query: { type: 'letsencrypt' },
    })
    expect(unknownType.status).toBe(400)
    expect(unknownType.json).toMatchObject({ details: [{ path: 'type' }] })
  })

  it("carries a listed certificate's PEM and chain as openssl reads them", async () => {
    const { data } = await listPage({ type: 'acme', limit: '1' })
    const item = data[0]!
    const leaf = await temp.write('listed-leaf.pem', item.certificatePem)
    const chain = await temp.write('listed-chain.pem', item.chainPem ?? '')
    const issuers = splitPemBlocks(item.chainPem ?? '')
    expect(issuers.length).toBeGreaterThanOrEqual(1)
    const root = await temp.write('listed-root.pem', issuers[issuers.length - 1]!.pem)
    const verified = await run('openssl', ['verify', '-CAfile', root, '-untrusted', chain, leaf])
    expect(verified.stdout).toMatch(/: OK/)
  })
})

describe('gateway flavour: op 12 exports the PKI certificate, as the file itself', () => {
  it("answers an SSL certificate's own id with 404 CERT_NOT_FOUND", async () => {
    const sslId = pkiCertificates()[0]!.sslCertificateId
    const response = await exportFile(sslId, 'pem')
    expect(response.status).toBe(404)
    expect(response.json).toEqual({ code: 'CERT_NOT_FOUND', message: 'Certificate not found' })
  })

  it('pem: the leaf, named after the common name, application/x-pem-file, whatever Accept says', async () => {
    const pki = pkiCertificates().find((candidate) => candidate.hasPrivateKey)!
    const response = await exportFile(pki.id, 'pem')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-pem-file')
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="[A-Za-z0-9._-]+\.pem"$/,
    )
    const file = await temp.write('pki.pem', response.bytes)
    const { data } = await listPage({ type: 'internal', limit: '100' })
    const listed = data.find((item) => item.id === pki.sslCertificateId)!
    const listedFile = await temp.write('pki-listed.pem', listed.certificatePem)
    expect((await readX509(file)).fingerprint).toBe((await readX509(listedFile)).fingerprint)
  })

  it('pkcs12 needs a passphrase (400 PASSPHRASE_REQUIRED); with one, openssl opens key and certificate', async () => {
    const pki = pkiCertificates().find((candidate) => candidate.hasPrivateKey)!
    const refused = await exportFile(pki.id, 'pkcs12')
    expect(refused.status).toBe(400)
    expect(refused.json).toMatchObject({ code: 'PASSPHRASE_REQUIRED' })

    const response = await exportFile(pki.id, 'pkcs12', PASSPHRASE)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-pkcs12')
    expect(response.headers.get('content-disposition')).toMatch(/\.p12"$/)
    const file = await temp.write('pki.p12', response.bytes)
    const contents = await readPkcs12(file, PASSPHRASE, '-nodes')
    const labels = splitPemBlocks(contents).map((block) => block.label)
    expect(labels).toContain('PRIVATE KEY')
    expect(labels).toContain('CERTIFICATE')
  })

  it('pkcs12 of a certificate without a key: 400 NO_PRIVATE_KEY', async () => {
    const pki = pkiCertificates().find((candidate) => !candidate.hasPrivateKey)!
    const response = await exportFile(pki.id, 'pkcs12', PASSPHRASE)
    expect(response.status).toBe(400)
    expect(response.json).toMatchObject({ code: 'NO_PRIVATE_KEY' })
  })

  it('jks is a PKCS#12 keystore under the jks name, which keytool lists', async () => {
    const pki = pkiCertificates().find((candidate) => candidate.hasPrivateKey)!
    const response = await exportFile(pki.id, 'jks', PASSPHRASE)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/x-java-keystore')
    expect(response.bytes.subarray(0, 4).toString('hex')).not.toBe('feedfeed')
    const file = await temp.write('pki.jks', response.bytes)
    expect(await keytoolList(file, PASSPHRASE)).toMatch(/PrivateKeyEntry/)
  })

  it('pem-bundle is a ZIP (PK\\x03\\x04) holding the PEM files, which unzip lists and tests', async () => {
    const pki = pkiCertificates().find((candidate) => candidate.hasPrivateKey)!
    const response = await exportFile(pki.id, 'pem-bundle')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/zip')
    expect(response.headers.get('content-disposition')).toMatch(/\.zip"$/)
    expect(response.bytes.subarray(0, 4).toString('hex')).toBe('504b0304')
    const file = await temp.write('pki.zip', response.bytes)
    const tested = await run('unzip', ['-t', file])
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    const names = (await run('unzip', ['-Z1', file])).stdout.trim().split('\n')
    expect(names.some((name) => /-fullchain\.pem$/.test(name))).toBe(true)
    expect(names.some((name) => /\.key$/.test(name))).toBe(true)
    const key = (await run('unzip', ['-p', file, names.find((name) => name.endsWith('.key'))!]))
      .stdout
    expect(key).toMatch(/^-----BEGIN PRIVATE KEY-----/)
  })
})

describe('gateway flavour: ops 10 and 7', () => {
  it('op 10 answers {success: true} and the move holds', async () => {
    const [id] = sandbox.seed.certificates.all
    const folderId = sandbox.seed.certificateFolders[0]!
    const response = await callOperation(sandbox, 'moveCertificates', {
      body: { ids: [id], folderId },
    })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ success: true })
    const { data } = await listPage({ limit: '100', showSystem: 'true' })
    expect(data.find((item) => item.id === id)?.['folderId']).toBe(folderId)
  })

  it('op 7 answers the uploaded certificate as type upload, newest first in the list', async () => {
    const { data } = await listPage({ type: 'upload', limit: '1' })
    const listed = data[0]!
    const { certificatePem, privateKeyPem } = await makeSelfSigned(temp, 'upload.gateway.example')
    const uploaded = await callOperation(sandbox, 'uploadCertificate', {
      body: { name: 'gateway-upload', certificatePem, privateKeyPem },
    })
    expect(uploaded.status).toBe(201)
    expect(uploaded.json).toMatchObject({ data: { type: 'upload', internalCertId: null } })
    const first = (await listPage({ limit: '1' })).data[0]!
    expect(first.name).toBe('gateway-upload')
    expect(first.id).not.toBe(listed.id)
  })
})
