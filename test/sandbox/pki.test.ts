import { spawnSync } from 'node:child_process'
import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXPORT_FORMATS } from '../../src/shared/api'
import { NEW_EC_KEY } from '../support/tools'
import {
  createSandboxPki,
  exportCertificate,
  ExportRefused,
  inspectUpload,
  readCertificateFacts,
  type CertificateFacts,
  type CertificateMaterial,
  type ExportedFile,
  type SandboxPki,
} from '../../src/sandbox/pki'

/*
 * Every export is written to disk and read back by the tools people will use on it:
 * openssl (x509, pkey, pkcs12, verify) and Java's keytool. Nothing here is mocked.
 */

const DAY_MS = 24 * 60 * 60 * 1000
const PASSPHRASE = 'correct horse battery'
const LEAF_COUNT = 45

let workDir: string
let pki: SandboxPki
let material: CertificateMaterial
let facts: CertificateFacts
let otherLeaves: { material: CertificateMaterial; facts: CertificateFacts }[]
let rootFile: string

interface ToolResult {
  status: number | null
  stdout: string
  stderr: string
}

function run(command: string, args: string[], input?: string): ToolResult {
  const result = spawnSync(command, args, { encoding: 'utf8', input, timeout: 60_000 })
  if (result.error) throw result.error
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Runs a tool that must succeed; a failure shows its stderr in the test output. */
function ok(command: string, args: string[], input?: string): string {
  const result = run(command, args, input)
  expect(result.stderr + `\n(exit ${result.status})`).toContain(`(exit 0)`)
  return result.stdout
}

/** `openssl pkcs12` on an archive sealed with PASSPHRASE, with `flags` saying what to print. */
function pkcs12(path: string, ...flags: string[]): string {
  return ok('openssl', ['pkcs12', '-in', path, '-passin', `pass:${PASSPHRASE}`, ...flags])
}

/** openssl's text reading of a PEM certificate file. */
function x509Text(path: string): string {
  return ok('openssl', ['x509', '-in', path, '-noout', '-text'])
}

/** Writes an export under its own name, in a fresh folder so that names never collide. */
function writeExport(file: ExportedFile): string {
  const path = join(mkdtempSync(join(workDir, 'export-')), file.filename)
  writeFileSync(path, file.bytes)
  return path
}

function writeText(name: string, text: string): string {
  const path = join(workDir, name)
  writeFileSync(path, text)
  return path
}

function pemBlocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(/-----BEGIN ([A-Z ]+)-----[^-]+-----END \1-----\n?/g)].map((match) => ({
    label: match[1] ?? '',
    pem: match[0],
  }))
}

function publicKeyOfCertificate(certificatePath: string): string {
  return ok('openssl', ['x509', '-in', certificatePath, '-noout', '-pubkey'])
}

function exportOf(format: (typeof EXPORT_FORMATS)[number], passphrase?: string): ExportedFile {
  return exportCertificate(material, format, {
    baseName: 'api.example.test',
    ...(passphrase === undefined ? {} : { passphrase }),
  })
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'infradesk-pki-'))
  const started = performance.now()
  pki = await createSandboxPki()
  const caReady = performance.now()
  const now = Date.now()
  const issued = await Promise.all(
    Array.from({ length: LEAF_COUNT }, (_, index) =>
      pki.issueLeaf({
        commonName: index === 0 ? 'api.example.test' : `service-${index}.example.test`,
        subjectAltNames:
          index === 0 ? ['api.example.test', 'www.api.example.test', '10.0.0.7'] : undefined,
        notBefore: new Date(now - DAY_MS),
        notAfter: new Date(now + 90 * DAY_MS),
      }),
    ),
  )
  const finished = performance.now()
  // Reported, not asserted (timings are measured, never tested).
  console.log(
    `[pki timing] createSandboxPki ${Math.round(caReady - started)} ms, ` +
      `${LEAF_COUNT} leaves ${Math.round(finished - caReady)} ms, ` +
      `total ${Math.round(finished - started)} ms`,
  )
  const [first, ...rest] = issued
  if (!first) throw new Error('no leaf issued')
  material = first.material
  facts = first.facts
  otherLeaves = rest
  rootFile = writeText('root.pem', pki.rootPem)
})

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true })
})

describe('sandbox certificate authority', () => {
  it('issues a leaf that chains to the sandbox root through the intermediate', () => {
    const leafFile = writeText('leaf.pem', material.certificatePem)
    const chainFile = writeText('intermediate.pem', material.chainPem)
    expect(material.rootPem).toBe(pki.rootPem)
    expect(material.chainPem).toBe(pki.intermediatePem)
    const verified = ok('openssl', [
      'verify',
      '-purpose',
      'sslserver',
      '-CAfile',
      rootFile,
      '-untrusted',
      chainFile,
      leafFile,
    ])
    expect(verified).toContain(': OK')
  })

  it('fails verification against a different root (the check can fail)', async () => {
    const stranger = await createSandboxPki()
    const leafFile = writeText('leaf-stranger.pem', material.certificatePem)
    const result = run('openssl', [
      'verify',
      '-CAfile',
      writeText('stranger-root.pem', stranger.rootPem),
      '-untrusted',
      writeText('stranger-intermediate.pem', stranger.intermediatePem),
      leafFile,
    ])
    expect(result.status).not.toBe(0)
  })

  it('makes a self-signed root CA and a CA intermediate with keyCertSign', () => {
    const root = ok('openssl', ['x509', '-in', rootFile, '-noout', '-text'])
    expect(root).toMatch(/CA:TRUE/)
    expect(root).toMatch(/Certificate Sign/)
    const rootFacts = readCertificateFacts(pki.rootPem)
    expect(rootFacts.selfSigned).toBe(true)
    expect(rootFacts.subject).toBe(rootFacts.issuer)

    const intermediate = x509Text(writeText('intermediate-text.pem', pki.intermediatePem))
    expect(intermediate).toMatch(/CA:TRUE, pathlen:0/)
    expect(intermediate).toMatch(/Certificate Sign/)
    expect(readCertificateFacts(pki.intermediatePem).issuer).toBe(rootFacts.subject)
  })

  it('reports the leaf facts from the X.509 itself', () => {
    expect(facts.commonName).toBe('api.example.test')
    expect(facts.subjectAltNames).toEqual(['api.example.test', 'www.api.example.test', '10.0.0.7'])
    expect(facts.issuer).toContain('Intermediate CA')
    expect(facts.selfSigned).toBe(false)
    expect(facts.keyAlgorithm).toBe('RSA 2048')
    expect(facts.serialNumber).toMatch(/^[0-9A-F]+$/)
    expect(Date.parse(facts.notAfter) - Date.parse(facts.notBefore)).toBe(91 * DAY_MS)

    const text = x509Text(writeText('leaf-text.pem', material.certificatePem))
    expect(text).toContain('TLS Web Server Authentication')
    expect(text).toContain('DNS:www.api.example.test')
    expect(text).toContain('IP Address:10.0.0.7')
    expect(text).toContain('CA:FALSE')
  })

  it('gives every leaf its own key and a distinct positive serial', () => {
    const serials = new Set([
      facts.serialNumber,
      ...otherLeaves.map((leaf) => leaf.facts.serialNumber),
    ])
    expect(serials.size).toBe(LEAF_COUNT)
    const keys = new Set(otherLeaves.map((leaf) => leaf.material.privateKeyPem))
    expect(keys.size).toBe(LEAF_COUNT - 1)
    // The leaf's certificate and key belong together.
    const leaf = readCertificateFacts(material.certificatePem)
    expect(leaf.fingerprintSha256).toBe(facts.fingerprintSha256)
    const inspection = inspectUpload({
      certificatePem: material.certificatePem,
      privateKeyPem: material.privateKeyPem ?? '',
    })
    expect(inspection.ok).toBe(true)
  })

  it('defaults the SAN to the common name when it is a host name', () => {
    const leaf = otherLeaves[0]
    expect(leaf?.facts.subjectAltNames).toEqual([leaf?.facts.commonName])
  })
})

describe('certificate exports', () => {
  it('offers a file for every format of the contract', () => {
    for (const format of EXPORT_FORMATS) {
      const file = exportOf(format, PASSPHRASE)
      expect(file.bytes.length, format).toBeGreaterThan(0)
      expect(file.filename.startsWith('api.example.test.'), format).toBe(true)
    }
  })

  it.each([
    ['pem', 'api.example.test.crt', 'application/x-pem-file', true],
    ['der', 'api.example.test.der', 'application/pkix-cert', false],
    ['chain', 'api.example.test.chain.pem', 'application/pem-certificate-chain', true],
    ['fullchain', 'api.example.test.fullchain.pem', 'application/pem-certificate-chain', true],
    ['private-key', 'api.example.test.key', 'application/x-pem-file', true],
    ['pem-bundle', 'api.example.test.bundle.pem', 'application/x-pem-file', true],
    ['pkcs12', 'api.example.test.p12', 'application/x-pkcs12', false],
    ['jks', 'api.example.test.jks', 'application/x-java-keystore', false],
  ] as const)(
    '%s: a file named %s, of type %s (text: %s)',
    (format, filename, mediaType, isText) => {
      // A Java KeyStore is never written without a passphrase.
      const file = exportOf(format, format === 'jks' ? PASSPHRASE : undefined)
      expect(file).toMatchObject({ filename, mediaType, isText })
    },
  )

  it('pem: the leaf certificate, read by openssl x509', () => {
    const file = exportOf('pem')
    const path = writeExport(file)
    const subject = ok('openssl', ['x509', '-in', path, '-noout', '-subject'])
    expect(subject).toContain('CN = api.example.test')
    expect(pemBlocks(file.bytes.toString('utf8'))).toHaveLength(1)
  })

  it('der: the leaf certificate in DER, read by openssl x509 -inform DER', () => {
    const file = exportOf('der')
    expect(file.bytes[0]).toBe(0x30) // a DER SEQUENCE, not PEM text
    const path = writeExport(file)
    const fingerprint = ok('openssl', [
      'x509',
      '-inform',
      'DER',
      '-in',
      path,
      '-noout',
      '-fingerprint',
      '-sha256',
    ])
    expect(fingerprint.trim()).toBe(`sha256 Fingerprint=${facts.fingerprintSha256}`)
  })

  it('chain: the issuers without the leaf, verifying the leaf against the sandbox root', () => {
    const file = exportOf('chain')
    const blocks = pemBlocks(file.bytes.toString('utf8'))
    expect(blocks.map((block) => block.pem)).toEqual([pki.intermediatePem, pki.rootPem])
    const chainPath = writeExport(file)
    const leafPath = writeExport(exportOf('pem'))
    const verified = ok('openssl', [
      'verify',
      '-CAfile',
      rootFile,
      '-untrusted',
      chainPath,
      leafPath,
    ])
    expect(verified).toContain(': OK')
    // Without the chain's intermediate the leaf does not verify: the chain file is what helps.
    expect(run('openssl', ['verify', '-CAfile', rootFile, leafPath]).status).not.toBe(0)
  })

  it('fullchain: leaf, intermediate and root, verifying against the sandbox root', () => {
    const file = exportOf('fullchain')
    const blocks = pemBlocks(file.bytes.toString('utf8'))
    expect(blocks.map((block) => block.pem)).toEqual([
      material.certificatePem,
      pki.intermediatePem,
      pki.rootPem,
    ])
    const path = writeExport(file)
    // openssl verifies the first certificate of the file, using the others as the chain.
    const verified = ok('openssl', ['verify', '-CAfile', rootFile, '-untrusted', path, path])
    expect(verified).toContain(': OK')
  })

  it('private-key: a PKCS#8 key matching the certificate, read by openssl pkey', () => {
    const file = exportOf('private-key')
    const text = file.bytes.toString('utf8')
    expect(text.startsWith('-----BEGIN PRIVATE KEY-----')).toBe(true)
    const path = writeExport(file)
    ok('openssl', ['pkey', '-in', path, '-noout', '-check'])
    const publicKey = ok('openssl', ['pkey', '-in', path, '-pubout'])
    expect(publicKey).toBe(publicKeyOfCertificate(writeExport(exportOf('pem'))))
  })

  it('private-key with a passphrase: an encrypted PKCS#8 key that needs it', () => {
    const file = exportOf('private-key', PASSPHRASE)
    expect(file.bytes.toString('utf8')).toContain('-----BEGIN ENCRYPTED PRIVATE KEY-----')
    const path = writeExport(file)
    ok('openssl', ['pkey', '-in', path, '-passin', `pass:${PASSPHRASE}`, '-noout'])
    expect(
      run('openssl', ['pkey', '-in', path, '-passin', 'pass:wrong', '-noout']).status,
    ).not.toBe(0)
  })

  it('private-key is refused for a certificate without a key', () => {
    const keyless: CertificateMaterial = { ...material, privateKeyPem: undefined }
    const attempt = () => exportCertificate(keyless, 'private-key', { baseName: 'x' })
    expect(attempt).toThrow(ExportRefused)
    expect(attempt).toThrow(expect.objectContaining({ field: 'format' }))
  })

  it('pkcs12: opens with the passphrase in OpenSSL 3 without -legacy, not with a wrong one', () => {
    const file = exportOf('pkcs12', PASSPHRASE)
    const path = writeExport(file)
    const info = pkcs12(path, '-info', '-noout')
    expect(info).toBe('')
    const contents = pkcs12(path, '-nodes')
    const blocks = pemBlocks(contents)
    expect(blocks.filter((block) => block.label === 'CERTIFICATE')).toHaveLength(3)
    expect(contents).toContain('friendlyName: api.example.test')
    const key = blocks.find((block) => block.label === 'PRIVATE KEY')
    expect(key).toBeDefined()
    const keyPublic = ok('openssl', ['pkey', '-pubout'], key?.pem)
    expect(keyPublic).toBe(publicKeyOfCertificate(writeExport(exportOf('pem'))))

    const wrong = run('openssl', ['pkcs12', '-in', path, '-passin', 'pass:wrong', '-nodes'])
    expect(wrong.status).not.toBe(0)
    expect(wrong.stdout).not.toContain('PRIVATE KEY')
  })

  it('pkcs12: Java reads it as a PrivateKeyEntry with the full chain', () => {
    const path = writeExport(exportOf('pkcs12', PASSPHRASE))
    const listing = ok('keytool', [
      '-list',
      '-v',
      '-storetype',
      'PKCS12',
      '-keystore',
      path,
      '-storepass',
      PASSPHRASE,
    ])
    expect(listing).toContain('Entry type: PrivateKeyEntry')
    expect(listing).toContain('Certificate chain length: 3')
  })

  it('pkcs12 without a passphrase uses the empty password', () => {
    const path = writeExport(exportOf('pkcs12'))
    const contents = ok('openssl', ['pkcs12', '-in', path, '-passin', 'pass:', '-nodes'])
    expect(contents).toContain('-----BEGIN PRIVATE KEY-----')
    expect(run('openssl', ['pkcs12', '-in', path, '-passin', 'pass:x', '-nodes']).status).not.toBe(
      0,
    )
  })

  it('jks: a real Java KeyStore listed by keytool with a PrivateKeyEntry of chain length 3', () => {
    const file = exportOf('jks', PASSPHRASE)
    expect(file.bytes.subarray(0, 8).toString('hex')).toBe('feedfeed00000002')
    const path = writeExport(file)
    const listing = ok('keytool', ['-list', '-v', '-keystore', path, '-storepass', PASSPHRASE])
    expect(listing).toContain('Keystore type: JKS')
    expect(listing).toContain('Alias name: api.example.test')
    expect(listing).toContain('Entry type: PrivateKeyEntry')
    expect(listing).toContain('Certificate chain length: 3')

    const wrong = run('keytool', ['-list', '-keystore', path, '-storepass', 'wrong-password'])
    expect(wrong.status).not.toBe(0)
    expect(wrong.stdout + wrong.stderr).toMatch(/password was incorrect/i)
  })

  it('jks: Java recovers the protected key, and it is the certificate key', () => {
    const jksPath = writeExport(exportOf('jks', PASSPHRASE))
    const converted = join(workDir, 'from-jks.p12')
    rmSync(converted, { force: true })
    // importkeystore must decrypt the key (Sun KeyProtector) to re-wrap it as PKCS#12.
    ok('keytool', [
      '-importkeystore',
      '-noprompt',
      '-srckeystore',
      jksPath,
      '-srcstoretype',
      'JKS',
      '-srcstorepass',
      PASSPHRASE,
      '-destkeystore',
      converted,
      '-deststoretype',
      'PKCS12',
      '-deststorepass',
      PASSPHRASE,
    ])
    const key = pkcs12(converted, '-nocerts', '-nodes')
    const keyPublic = ok('openssl', ['pkey', '-pubout'], key)
    expect(keyPublic).toBe(publicKeyOfCertificate(writeExport(exportOf('pem'))))
  })

  it('jks is refused without a passphrase', () => {
    for (const passphrase of [undefined, '']) {
      const attempt = () => exportOf('jks', passphrase)
      expect(attempt).toThrow('A passphrase is required for the jks format')
      expect(attempt).toThrow(expect.objectContaining({ field: 'passphrase' }))
    }
  })

  it('pem-bundle: leaf, chain and key blocks that split back apart and each parse', () => {
    const file = exportOf('pem-bundle')
    const blocks = pemBlocks(file.bytes.toString('utf8'))
    expect(blocks.map((block) => block.label)).toEqual([
      'CERTIFICATE',
      'CERTIFICATE',
      'CERTIFICATE',
      'PRIVATE KEY',
    ])
    expect(blocks.map((block) => block.pem).join('')).toBe(file.bytes.toString('utf8'))
    const [leaf, intermediate, root, key] = blocks.map((block, index) =>
      writeText(`bundle-part-${index}.pem`, block.pem),
    ) as [string, string, string, string]
    expect(ok('openssl', ['x509', '-in', leaf, '-noout', '-subject'])).toContain('api.example.test')
    expect(ok('openssl', ['x509', '-in', intermediate, '-noout', '-subject'])).toContain(
      'Intermediate CA',
    )
    expect(ok('openssl', ['x509', '-in', root, '-noout', '-subject'])).toContain('Root CA')
    expect(ok('openssl', ['pkey', '-in', key, '-pubout'])).toBe(publicKeyOfCertificate(leaf))
    expect(ok('openssl', ['verify', '-CAfile', root, '-untrusted', intermediate, leaf])).toContain(
      ': OK',
    )
  })

  it('keeps path separators and leading dots out of file names', () => {
    const file = exportCertificate(material, 'pem', { baseName: '../../etc/pass\\wd' })
    expect(file.filename).not.toMatch(/[\\/]/)
    expect(file.filename.startsWith('.')).toBe(false)
    expect(file.filename).not.toContain('..')
    expect(exportCertificate(material, 'pem', { baseName: '...' }).filename).toBe('certificate.crt')
  })
})

describe('certificates without a key, and EC material', () => {
  let ecMaterial: CertificateMaterial

  beforeAll(() => {
    // A self-signed EC certificate made by openssl itself, as a user might upload one.
    const keyPath = join(workDir, 'ec.key')
    const certificatePath = join(workDir, 'ec.crt')
    ok('openssl', [
      'req',
      '-x509',
      ...NEW_EC_KEY,
      '-keyout',
      keyPath,
      '-out',
      certificatePath,
      '-days',
      '30',
      '-subj',
      '/CN=ec.example.test',
      '-addext',
      'subjectAltName=DNS:ec.example.test',
    ])
    const certificatePem = ok('openssl', ['x509', '-in', certificatePath])
    const privateKeyPem = ok('openssl', ['pkey', '-in', keyPath])
    ecMaterial = { certificatePem, privateKeyPem, chainPem: '', rootPem: '' }
  })

  it('exports an EC key pair as pkcs12 and jks that the tools read', () => {
    const p12 = writeExport(
      exportCertificate(ecMaterial, 'pkcs12', { baseName: 'ec', passphrase: PASSPHRASE }),
    )
    const contents = pkcs12(p12, '-nodes')
    expect(pemBlocks(contents).map((block) => block.label)).toEqual(['CERTIFICATE', 'PRIVATE KEY'])

    const jks = writeExport(
      exportCertificate(ecMaterial, 'jks', { baseName: 'ec', passphrase: PASSPHRASE }),
    )
    const listing = ok('keytool', ['-list', '-v', '-keystore', jks, '-storepass', PASSPHRASE])
    expect(listing).toContain('Entry type: PrivateKeyEntry')
    expect(listing).toContain('Certificate chain length: 1')
  })

  it('refuses a chain export for a self-signed certificate, which has no issuers', () => {
    expect(() => exportCertificate(ecMaterial, 'chain', { baseName: 'ec' })).toThrow(ExportRefused)
    const fullchain = exportCertificate(ecMaterial, 'fullchain', { baseName: 'ec' })
    expect(pemBlocks(fullchain.bytes.toString('utf8'))).toHaveLength(1)
  })

  it('exports keyless material as certificates only', () => {
    const keyless: CertificateMaterial = { ...material, privateKeyPem: undefined }
    const p12 = writeExport(
      exportCertificate(keyless, 'pkcs12', { baseName: 'k', passphrase: 'p' }),
    )
    const contents = ok('openssl', ['pkcs12', '-in', p12, '-passin', 'pass:p', '-nodes'])
    expect(pemBlocks(contents).map((block) => block.label)).toEqual([
      'CERTIFICATE',
      'CERTIFICATE',
      'CERTIFICATE',
    ])

    const jks = writeExport(
      exportCertificate(keyless, 'jks', { baseName: 'k', passphrase: 'secret' }),
    )
    const listing = ok('keytool', ['-list', '-keystore', jks, '-storepass', 'secret'])
    expect(listing).toContain('Your keystore contains 3 entries')
    expect(listing).toContain('trustedCertEntry')

    const bundle = exportCertificate(keyless, 'pem-bundle', { baseName: 'k' })
    expect(pemBlocks(bundle.bytes.toString('utf8')).map((block) => block.label)).not.toContain(
      'PRIVATE KEY',
    )
  })

  describe('upload inspection', () => {
    it('accepts a matching certificate and key, and reads its facts', () => {
      const inspection = inspectUpload({
        certificatePem: material.certificatePem,
        privateKeyPem: material.privateKeyPem ?? '',
        chainPem: material.chainPem,
      })
      expect(inspection).toMatchObject({ ok: true, chainPem: pki.intermediatePem })
      if (inspection.ok) expect(inspection.facts.commonName).toBe('api.example.test')
    })

    it('accepts an EC pair and a PKCS#1 RSA key', () => {
      const ec = inspectUpload({
        certificatePem: ecMaterial.certificatePem,
        privateKeyPem: ecMaterial.privateKeyPem ?? '',
      })
      expect(ec).toMatchObject({ ok: true, facts: { keyAlgorithm: 'EC P-256', selfSigned: true } })

      const pkcs1 = createPrivateKey(material.privateKeyPem ?? '')
        .export({ type: 'pkcs1', format: 'pem' })
        .toString()
      expect(pkcs1).toContain('BEGIN RSA PRIVATE KEY')
      const inspection = inspectUpload({
        certificatePem: material.certificatePem,
        privateKeyPem: pkcs1,
      })
      expect(inspection.ok).toBe(true)
      if (inspection.ok) expect(inspection.privateKeyPem).toContain('BEGIN PRIVATE KEY')
    })

    it('moves certificates pasted after the leaf into the chain', () => {
      const inspection = inspectUpload({
        certificatePem: material.certificatePem + material.chainPem,
        privateKeyPem: material.privateKeyPem ?? '',
      })
      expect(inspection).toMatchObject({
        ok: true,
        certificatePem: material.certificatePem,
        chainPem: pki.intermediatePem,
      })
    })

    it('refuses a key that does not match the certificate', () => {
      const otherKey = otherLeaves[0]?.material.privateKeyPem ?? ''
      const inspection = inspectUpload({
        certificatePem: material.certificatePem,
        privateKeyPem: otherKey,
      })
      expect(inspection).toMatchObject({ ok: false, problem: { field: 'privateKeyPem' } })
      if (!inspection.ok) expect(inspection.problem.message).toMatch(/does not match/)

      // A key of another type cannot match either.
      const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString()
      expect(
        inspectUpload({ certificatePem: material.certificatePem, privateKeyPem: ecKey }),
      ).toMatchObject({ ok: false, problem: { field: 'privateKeyPem' } })
    })

    it('refuses garbage PEM on the field it came in', () => {
      const garbageCertificate =
        '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n'
      expect(
        inspectUpload({
          certificatePem: garbageCertificate,
          privateKeyPem: material.privateKeyPem ?? '',
        }),
      ).toMatchObject({ ok: false, problem: { field: 'certificatePem' } })
      expect(
        inspectUpload({ certificatePem: 'hello', privateKeyPem: material.privateKeyPem ?? '' }),
      ).toMatchObject({ ok: false, problem: { field: 'certificatePem' } })
      expect(
        inspectUpload({ certificatePem: material.certificatePem, privateKeyPem: 'not a key' }),
      ).toMatchObject({ ok: false, problem: { field: 'privateKeyPem' } })
      expect(
        inspectUpload({
          certificatePem: material.certificatePem,
          privateKeyPem: material.privateKeyPem ?? '',
          chainPem: garbageCertificate,
        }),
      ).toMatchObject({ ok: false, problem: { field: 'chainPem' } })
      expect(
        inspectUpload({
          certificatePem: material.certificatePem,
          privateKeyPem: material.privateKeyPem ?? '',
          chainPem: 'no pem here',
        }),
      ).toMatchObject({ ok: false, problem: { field: 'chainPem' } })
    })
  })
})
