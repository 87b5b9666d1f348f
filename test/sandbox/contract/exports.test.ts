import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_FORMATS, validationIssuesOf } from '../../../src/shared/api'
import type { ExportFormat } from '../../../src/shared/api'
import { callOperation, PERSONALITIES, sandboxForThisFile } from '../../support/sandbox-process'
import { expectError, expectSuccess } from '../../support/answers'
import { itRejectsAnEmptyIdSegment, itRejectsEachInvalidBody } from '../../support/refusals'
import type { CallResult, SandboxProcess } from '../../support/sandbox-process'
import {
  certificatePublicKey,
  keytoolList,
  makeSelfSigned,
  makeTempDir,
  openssl,
  privateKeyPublicKey,
  readX509,
  run,
  splitPemBlocks,
} from '../../support/tools'
import type { TempDir } from '../../support/tools'
import { readPkcs12 } from '../../support/pkcs12'

/*
 * Op 12: every format as a real file, judged by openssl and keytool. Both answers of the
 * sandbox are checked: raw bytes (Accept: application/octet-stream) and the JSON form.
 * Nothing here mutates, so the sandbox is never reset.
 */

const PASSPHRASE = 'correct horse battery staple'
const BINARY_FORMATS = new Set<ExportFormat>(['der', 'pkcs12', 'jks'])
/** Formats whose bytes are the same on every call (pkcs12 and jks carry random salts). */
const DETERMINISTIC_FORMATS = EXPORT_FORMATS.filter(
  (format) => !BINARY_FORMATS.has(format) || format === 'der',
)

const sandbox = sandboxForThisFile({ resetBeforeEach: false })
let temp: TempDir
let certificateId: string
/** Files of the reference exports, written once. */
let leafFile: string
let leafFingerprint: string
let rootFile: string

interface ExportedBytes {
  bytes: Buffer
  filename: string
  mediaType: string
}

async function exportRaw(
  id: string,
  format: ExportFormat,
  passphrase?: string,
): Promise<ExportedBytes> {
  const response = await callOperation(sandbox, 'exportCertificate', {
    params: { id },
    body: { format, passphrase },
    headers: { accept: 'application/octet-stream' },
  })
  expect(response.status, response.text().slice(0, 500)).toBe(200)
  const mediaType = response.headers.get('content-type') ?? ''
  expect(mediaType).not.toMatch(/json/)
  const disposition = response.headers.get('content-disposition') ?? ''
  expect(disposition).toMatch(/^attachment;/)
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? ''
  expect(filename).not.toBe('')
  expect(Number(response.headers.get('content-length'))).toBe(response.bytes.length)
  return { bytes: response.bytes, filename, mediaType }
}

async function exportJson(
  id: string,
  format: ExportFormat,
  passphrase?: string,
  on: SandboxProcess = sandbox,
): Promise<ExportedBytes & { encoding: string }> {
  const response = await callOperation(on, 'exportCertificate', {
    params: { id },
    body: { format, passphrase },
  })
  return fromJson(format, response)
}

/** The file in both of op 12's answers, the file itself and then the JSON form, for one check. */
async function bothAnswers(format: ExportFormat, passphrase?: string): Promise<ExportedBytes[]> {
  return [
    await exportRaw(certificateId, format, passphrase),
    await exportJson(certificateId, format, passphrase),
  ]
}

/** The file inside op 12's JSON form, checked as a client must read it. */
function fromJson(format: ExportFormat, response: CallResult) {
  const { data } = expectSuccess('exportCertificate', response)
  // Binary content travels as base64 only: a text decoder would corrupt it.
  expect(data.encoding).toBe(BINARY_FORMATS.has(format) ? 'base64' : 'utf8')
  const bytes = Buffer.from(data.content, data.encoding === 'base64' ? 'base64' : 'utf8')
  if (data.encoding === 'base64') expect(bytes.toString('base64')).toBe(data.content)
  return { bytes, filename: data.filename, mediaType: data.mediaType, encoding: data.encoding }
}

async function verifies(args: string[]): Promise<boolean> {
  const result = await run('openssl', ['verify', ...args])
  return result.code === 0 && /: OK\s*$/.test(result.stdout)
}

beforeAll(async () => {
  temp = await makeTempDir('infradesk-exports')
  certificateId = sandbox.seed.certificates.withPrivateKey[0] as string
  leafFile = await temp.write('reference.crt', (await exportRaw(certificateId, 'pem')).bytes)
  leafFingerprint = (await readX509(leafFile)).fingerprint
  const fullchain = splitPemBlocks((await exportRaw(certificateId, 'fullchain')).bytes.toString())
  rootFile = await temp.write('sandbox-root.crt', fullchain.at(-1)?.pem ?? '')
})
afterAll(async () => {
  await temp?.remove()
})

describe('the sandbox root CA (last block of a fullchain)', () => {
  it('is self-signed and anchors every seeded certificate the sandbox issued', async () => {
    const root = await readX509(rootFile)
    expect(root.subject).toBe(root.issuer)
    // openssl accepts it as a trust anchor for itself.
    expect(await verifies(['-CAfile', rootFile, rootFile])).toBe(true)
    const other = sandbox.seed.certificates.withPrivateKey[1] as string
    const otherChain = splitPemBlocks((await exportRaw(other, 'fullchain')).bytes.toString())
    expect(otherChain.at(-1)?.pem).toBe(
      splitPemBlocks(await openssl(['x509', '-in', rootFile]))[0]?.pem,
    )
  })
})

describe('op 12: each format, checked by a real tool', () => {
  it('pem: one certificate openssl x509 reads', async () => {
    for (const exported of await bothAnswers('pem')) {
      const blocks = splitPemBlocks(exported.bytes.toString('utf8'))
      expect(blocks.map((block) => block.label)).toEqual(['CERTIFICATE'])
      const file = await temp.write(`pem-${exported.filename}`, exported.bytes)
      expect((await readX509(file)).fingerprint).toBe(leafFingerprint)
      expect(exported.filename).toMatch(/\.(pem|crt|cer)$/)
    }
  })

  it('der: openssl x509 -inform DER reads the same certificate', async () => {
    for (const exported of await bothAnswers('der')) {
      expect(exported.bytes[0]).toBe(0x30) // an ASN.1 SEQUENCE, not PEM text
      const file = await temp.write(`der-${exported.filename}`, exported.bytes)
      expect((await readX509(file, 'DER')).fingerprint).toBe(leafFingerprint)
      expect(exported.filename).toMatch(/\.(der|cer)$/)
    }
  })

  it('pkcs12: openssl pkcs12 opens it with the passphrase (key and certificate), not without', async () => {
    for (const exported of await bothAnswers('pkcs12', PASSPHRASE)) {
      const file = await temp.write(`p12-${exported.filename}`, exported.bytes)
      expect(exported.filename).toMatch(/\.(p12|pfx)$/)
      const contents = await readPkcs12(file, PASSPHRASE, '-nodes')
      const labels = splitPemBlocks(contents).map((block) => block.label)
      expect(labels).toContain('PRIVATE KEY')
      expect(labels.filter((label) => label === 'CERTIFICATE').length).toBeGreaterThanOrEqual(1)

      const leafOnly = await readPkcs12(file, PASSPHRASE, '-clcerts', '-nokeys')
      const p12Leaf = await temp.write(`p12-leaf-${exported.filename}.pem`, leafOnly)
      expect((await readX509(p12Leaf)).fingerprint).toBe(leafFingerprint)
      const p12Key = await temp.write(
        `p12-key-${exported.filename}.pem`,
        await readPkcs12(file, PASSPHRASE, '-nocerts', '-nodes'),
      )
      expect(await privateKeyPublicKey(p12Key)).toBe(await certificatePublicKey(leafFile))

      const wrong = await run('openssl', ['pkcs12', '-in', file, '-passin', 'pass:wrong', '-nodes'])
      expect(wrong.code).not.toBe(0)
    }
  })

  it('jks: a Java KeyStore (FEEDFEED) keytool lists as a PrivateKeyEntry with the chain', async () => {
    for (const exported of await bothAnswers('jks', PASSPHRASE)) {
      expect(exported.bytes.subarray(0, 4).toString('hex')).toBe('feedfeed')
      expect(exported.filename).toMatch(/\.(jks|keystore)$/)
      const file = await temp.write(`jks-${exported.filename}`, exported.bytes)
      const listing = await keytoolList(file, PASSPHRASE)
      expect(listing).toMatch(/PrivateKeyEntry/)
      expect(listing).toMatch(/Certificate chain length: [23]/)
      // keytool prints the leaf's SHA-256 fingerprint as openssl does (colon-separated hex).
      expect(listing.toUpperCase()).toContain(leafFingerprint.toUpperCase())
      const wrong = await run('keytool', [
        '-list',
        '-keystore',
        file,
        '-storepass',
        'wrong-password',
      ])
      expect(wrong.code).not.toBe(0)
    }
  })

  it('jks without a passphrase: 422 naming the passphrase', async () => {
    for (const headers of [{}, { accept: 'application/octet-stream' }] as Record<
      string,
      string
    >[]) {
      const response = await callOperation(sandbox, 'exportCertificate', {
        params: { id: certificateId },
        body: { format: 'jks' },
        headers,
      })
      const body = expectError(response, 'UNPROCESSABLE_ENTITY')
      expect(validationIssuesOf(body.details).map((issue) => issue.path)).toContainEqual([
        'passphrase',
      ])
    }
  })

  it('private-key: openssl pkey reads it, and it is the key of the certificate', async () => {
    for (const exported of await bothAnswers('private-key')) {
      const blocks = splitPemBlocks(exported.bytes.toString('utf8'))
      expect(blocks).toHaveLength(1)
      expect(blocks[0]?.label).toMatch(/PRIVATE KEY$/)
      const file = await temp.write(`key-${exported.filename}`, exported.bytes)
      await openssl(['pkey', '-in', file, '-noout'])
      expect(await privateKeyPublicKey(file)).toBe(await certificatePublicKey(leafFile))
    }
  })

  it('private-key with a passphrase: encrypted, and openssl pkey opens it with that passphrase', async () => {
    const exported = await exportRaw(certificateId, 'private-key', PASSPHRASE)
    const blocks = splitPemBlocks(exported.bytes.toString('utf8'))
    expect(blocks.map((block) => block.label)).toEqual(['ENCRYPTED PRIVATE KEY'])
    const file = await temp.write('key-encrypted.pem', exported.bytes)
    expect(await privateKeyPublicKey(file, PASSPHRASE)).toBe(await certificatePublicKey(leafFile))
    expect(
      (await run('openssl', ['pkey', '-in', file, '-passin', 'pass:wrong', '-noout'])).code,
    ).not.toBe(0)
  })

  it('private-key of a certificate that has no key: 422', async () => {
    const { all, withPrivateKey } = sandbox.seed.certificates
    const keyless = all.find((id) => !withPrivateKey.includes(id))
    expect(keyless, 'the seed holds a certificate without a key').toBeDefined()
    const response = await callOperation(sandbox, 'exportCertificate', {
      params: { id: keyless as string },
      body: { format: 'private-key' },
    })
    expectError(response, 'UNPROCESSABLE_ENTITY')
  })

  it('chain: the issuers only; openssl verify accepts the leaf through them against the root', async () => {
    for (const exported of await bothAnswers('chain')) {
      const blocks = splitPemBlocks(exported.bytes.toString('utf8'))
      expect(blocks.length).toBeGreaterThanOrEqual(1)
      expect(blocks.every((block) => block.label === 'CERTIFICATE')).toBe(true)
      const file = await temp.write(`chain-${exported.filename}`, exported.bytes)
      // The leaf itself is not part of the chain.
      for (const [index, block] of blocks.entries()) {
        const blockFile = await temp.write(`chain-block-${index}.pem`, block.pem)
        expect((await readX509(blockFile)).fingerprint).not.toBe(leafFingerprint)
        // Each issuer verifies against the sandbox root.
        expect(await verifies(['-CAfile', rootFile, '-untrusted', file, blockFile])).toBe(true)
      }
      // The first block issued the leaf.
      const first = await temp.write('chain-first.pem', blocks[0]?.pem ?? '')
      expect((await readX509(first)).subject).toBe((await readX509(leafFile)).issuer)
      expect(await verifies(['-CAfile', rootFile, '-untrusted', file, leafFile])).toBe(true)
    }
  })

  it('fullchain: leaf first, root last; openssl verify accepts it against the sandbox root only', async () => {
    const foreign = await makeSelfSigned(temp, 'foreign-root.test')
    const foreignRoot = await temp.write('foreign-root.crt', foreign.certificatePem)
    for (const exported of await bothAnswers('fullchain')) {
      const blocks = splitPemBlocks(exported.bytes.toString('utf8'))
      expect(blocks.length).toBeGreaterThanOrEqual(2)
      expect(blocks.every((block) => block.label === 'CERTIFICATE')).toBe(true)
      const first = await temp.write('fullchain-first.pem', blocks[0]?.pem ?? '')
      expect((await readX509(first)).fingerprint).toBe(leafFingerprint)
      const file = await temp.write(`fullchain-${exported.filename}`, exported.bytes)
      expect(await verifies(['-CAfile', rootFile, '-untrusted', file, first])).toBe(true)
      // The check can fail: another root does not anchor it.
      expect(await verifies(['-CAfile', foreignRoot, '-untrusted', file, first])).toBe(false)
      // fullchain = the leaf followed by the chain.
      const chain = splitPemBlocks((await exportRaw(certificateId, 'chain')).bytes.toString())
      expect(blocks.slice(1).map((block) => block.pem)).toEqual(chain.map((block) => block.pem))
    }
  })

  it('pem-bundle: splits back into the certificates and the key, each of which parses', async () => {
    const fullchain = splitPemBlocks((await exportRaw(certificateId, 'fullchain')).bytes.toString())
    for (const exported of await bothAnswers('pem-bundle')) {
      const blocks = splitPemBlocks(exported.bytes.toString('utf8'))
      const certificates = blocks.filter((block) => block.label === 'CERTIFICATE')
      const keys = blocks.filter((block) => block.label.endsWith('PRIVATE KEY'))
      expect(certificates.length + keys.length).toBe(blocks.length)
      expect(keys).toHaveLength(1)
      expect(certificates.map((block) => block.pem)).toEqual(fullchain.map((block) => block.pem))
      for (const [index, block] of certificates.entries()) {
        const file = await temp.write(`bundle-cert-${index}.pem`, block.pem)
        expect((await readX509(file)).subject).not.toBe('')
      }
      const keyFile = await temp.write('bundle-key.pem', keys[0]?.pem ?? '')
      expect(await privateKeyPublicKey(keyFile)).toBe(await certificatePublicKey(leafFile))
    }
  })
})

describe('op 12: the two answer forms', () => {
  it.each(DETERMINISTIC_FORMATS)('%s: raw bytes and JSON carry the same file', async (format) => {
    const raw = await exportRaw(certificateId, format)
    const asJson = await exportJson(certificateId, format)
    expect(raw.bytes.equals(asJson.bytes)).toBe(true)
    expect(raw.filename).toBe(asJson.filename)
    expect(raw.mediaType.split(';')[0]).toBe(asJson.mediaType.split(';')[0])
  })

  it('binary formats are base64 in JSON and byte-exact raw (bytes above 0x7f survive)', async () => {
    for (const format of ['der', 'pkcs12', 'jks'] as const) {
      const raw = await exportRaw(certificateId, format, PASSPHRASE)
      expect(raw.bytes.some((byte) => byte > 0x7f)).toBe(true)
      expect(raw.mediaType).not.toMatch(/^text\//)
      const asJson = await exportJson(certificateId, format, PASSPHRASE)
      expect(asJson.encoding).toBe('base64')
      expect(asJson.bytes.length).toBeGreaterThan(0)
    }
  })

  it('file names come from the certificate and are safe', async () => {
    for (const format of EXPORT_FORMATS) {
      const { filename } = await exportJson(certificateId, format, PASSPHRASE)
      expect(filename).not.toMatch(/[/\\]|\.\./)
    }
  })
})

/*
 * The form of op 12's answer is not shown. The app asks for raw bytes and reads whatever comes
 * by its media type; the default answers raw bytes, the variant always the JSON form. Either
 * way the file must be the same as the JSON form's.
 */
describe.each(PERSONALITIES)(
  'op 12: the answer to a client that asks for bytes ($personality)',
  ({ variant, args }) => {
    // The default personality shares the file's sandbox; the variant gets its own process.
    const on = variant ? sandboxForThisFile({ resetBeforeEach: false, args }) : sandbox

    it.each(DETERMINISTIC_FORMATS)('%s: read by its media type, the same file', async (format) => {
      const id = on.seed.certificates.withPrivateKey[0] as string
      const response = await callOperation(on, 'exportCertificate', {
        params: { id },
        body: { format },
        headers: { accept: 'application/octet-stream' },
      })
      expect(response.status, response.text().slice(0, 500)).toBe(200)
      const isJson = /[/+]json/i.test(response.headers.get('content-type') ?? '')
      expect(isJson).toBe(variant)
      const bytes = isJson ? fromJson(format, response).bytes : response.bytes
      const asJson = await exportJson(id, format, undefined, on)
      expect(bytes.equals(asJson.bytes)).toBe(true)
      if (format === 'pem') {
        const file = await temp.write(`${variant ? 'variant' : 'default'}-leaf.crt`, bytes)
        expect(await openssl(['x509', '-in', file, '-noout', '-subject'])).toMatch(/subject=/)
      }
    })
  },
)

describe('op 12: refusals', () => {
  it('404 for an unknown certificate', async () => {
    const response = await callOperation(sandbox, 'exportCertificate', {
      params: { id: 'no-such-certificate' },
      body: { format: 'pem' },
    })
    expectError(response, 'NOT_FOUND')
  })

  itRejectsEachInvalidBody(sandbox, 'exportCertificate', () => ({ id: certificateId }), [
    ['format missing', {}, ['format']],
    ['format not one of the eight', { format: 'zip' }, ['format']],
    ['format in the wrong case', { format: 'PEM' }, ['format']],
    ['passphrase not a string', { format: 'pkcs12', passphrase: 1234 }, ['passphrase']],
    ['an unknown field', { format: 'pem', password: 'x' }, ['password']],
  ])

  itRejectsAnEmptyIdSegment(sandbox, '400 naming id when the id segment is empty', {
    method: 'POST',
    path: '/api/certificates//export',
    body: { format: 'pem' },
  })
})
