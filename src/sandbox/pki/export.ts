import { createPrivateKey, type KeyObject, type X509Certificate } from 'node:crypto'
import type { ExportFormat } from '../../shared/api'
import { buildJks, type JksEntry } from './jks'
import { certificatesToPem, distinctCertificates, parseCertificates } from './pem'
import { buildPkcs12 } from './pkcs12'
import {
  ExportRefused,
  type CertificateMaterial,
  type ExportCertificate,
  type ExportedFile,
} from './types'

/*
 * Op 12: every export format as a real file.
 *
 *   format       file                   content
 *   pem          <base>.crt             leaf certificate, PEM
 *   der          <base>.der             leaf certificate, DER
 *   chain        <base>.chain.pem       issuers only (intermediates, then the root), PEM
 *   fullchain    <base>.fullchain.pem   leaf, intermediates, root, PEM
 *   private-key  <base>.key             PKCS#8 PEM
 *   pkcs12       <base>.p12             key + leaf + issuers, 3DES/HMAC-SHA1 (see pkcs12.ts)
 *   jks          <base>.jks             Java KeyStore, one PrivateKeyEntry with the full chain
 *   pem-bundle   <base>.bundle.pem      leaf, issuers, then the key when there is one
 *
 * The passphrase:
 *   pkcs12                 encrypts the file; none given means the empty password '', which
 *                          OpenSSL (-passin pass:), Java and Windows all accept.
 *   jks                    required (a keystore without a store password cannot be read).
 *   private-key, pem-bundle  when given (non-empty), the key is written as an encrypted PKCS#8
 *                          (PBES2, AES-256-CBC) block instead of a plain one.
 *   pem, der, chain, fullchain  ignored: certificates are public.
 *
 * A certificate without a key (uploaded or seeded so) exports as pkcs12 with certificates only
 * and as jks with trusted-certificate entries; private-key is refused.
 */

const PEM_FILE = 'application/x-pem-file'
/** RFC 8555 §9.1: the registered type for a PEM certificate chain. */
const PEM_CHAIN = 'application/pem-certificate-chain'
const FALLBACK_NAME = 'certificate'

interface MaterialParts {
  leaf: X509Certificate
  /** Intermediates then the root, without repeats and without the leaf itself. */
  issuers: X509Certificate[]
  privateKey?: KeyObject
}

export const exportCertificate: ExportCertificate = (material, format, options) => {
  const baseName = safeBaseName(options.baseName)
  const passphrase = options.passphrase
  const parts = readMaterial(material)
  const fullChain = [parts.leaf, ...parts.issuers]

  switch (format) {
    case 'pem':
      return textFile(`${baseName}.crt`, PEM_FILE, parts.leaf.toString())
    case 'der':
      return binaryFile(`${baseName}.der`, 'application/pkix-cert', parts.leaf.raw)
    case 'chain':
      if (parts.issuers.length === 0) {
        throw new ExportRefused('This certificate has no issuer certificates to export', 'format')
      }
      return textFile(`${baseName}.chain.pem`, PEM_CHAIN, certificatesToPem(parts.issuers))
    case 'fullchain':
      return textFile(`${baseName}.fullchain.pem`, PEM_CHAIN, certificatesToPem(fullChain))
    case 'private-key':
      return textFile(`${baseName}.key`, PEM_FILE, privateKeyPem(requireKey(parts), passphrase))
    case 'pem-bundle': {
      const keyPem = parts.privateKey ? privateKeyPem(parts.privateKey, passphrase) : ''
      return textFile(`${baseName}.bundle.pem`, PEM_FILE, certificatesToPem(fullChain) + keyPem)
    }
    case 'pkcs12':
      return binaryFile(
        `${baseName}.p12`,
        'application/x-pkcs12',
        buildPkcs12({
          privateKeyDer: parts.privateKey && pkcs8Der(parts.privateKey),
          certificatesDer: fullChain.map((certificate) => certificate.raw),
          password: passphrase ?? '',
          friendlyName: baseName,
        }),
      )
    case 'jks': {
      if (!passphrase) {
        throw new ExportRefused('A passphrase is required for the jks format', 'passphrase')
      }
      return binaryFile(
        `${baseName}.jks`,
        'application/x-java-keystore',
        buildJks(jksEntries(parts, jksAlias(baseName)), passphrase),
      )
    }
    default:
      return unknownFormat(format)
  }
}

function unknownFormat(format: never): never {
  throw new ExportRefused(`Unknown export format: ${String(format as ExportFormat)}`, 'format')
}

function readMaterial(material: CertificateMaterial): MaterialParts {
  const [leaf, ...pastedIssuers] = parseCertificates(material.certificatePem)
  if (!leaf) throw new Error('Certificate material holds no certificate')
  const issuers = distinctCertificates(
    [
      ...pastedIssuers,
      ...parseCertificates(material.chainPem),
      ...parseCertificates(material.rootPem),
    ],
    [leaf],
  )
  return {
    leaf,
    issuers,
    ...(material.privateKeyPem ? { privateKey: createPrivateKey(material.privateKeyPem) } : {}),
  }
}

function requireKey(parts: MaterialParts): KeyObject {
  if (!parts.privateKey) {
    throw new ExportRefused('This certificate has no private key to export', 'format')
  }
  return parts.privateKey
}

function privateKeyPem(key: KeyObject, passphrase: string | undefined): string {
  const pem = passphrase
    ? key.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase })
    : key.export({ type: 'pkcs8', format: 'pem' })
  return pem.toString()
}

function pkcs8Der(key: KeyObject): Buffer {
  return key.export({ type: 'pkcs8', format: 'der' })
}

function jksEntries(parts: MaterialParts, alias: string): JksEntry[] {
  if (parts.privateKey) {
    return [
      {
        kind: 'private-key',
        alias,
        privateKeyDer: pkcs8Der(parts.privateKey),
        chainDer: [parts.leaf, ...parts.issuers].map((certificate) => certificate.raw),
      },
    ]
  }
  // Without a key a keystore can only trust certificates: the leaf and each issuer.
  return [parts.leaf, ...parts.issuers].map((certificate, index) => ({
    kind: 'trusted-certificate',
    alias: index === 0 ? alias : `${alias}-issuer-${index}`,
    certificateDer: certificate.raw,
  }))
}

/**
 * The caller sanitises the name, but a file name is still not trusted here: path separators,
 * characters Windows forbids and control characters become '_', runs of dots collapse and
 * leading/trailing dots and spaces go (no "..", no hidden files), and the length is capped.
 */
export function safeBaseName(name: string): string {
  const cleaned = Array.from(name, (character) =>
    character.charCodeAt(0) < 0x20 || character === '\u007f' || '\\/:*?"<>|'.includes(character)
      ? '_'
      : character,
  )
    .slice(0, 120) // code points, so a surrogate pair is never cut in half
    .join('')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.\s]+|[.\s]+$/g, '')
  return cleaned === '' ? FALLBACK_NAME : cleaned
}

/** JKS aliases are case-insensitive and stored lower-case; kept to a portable ASCII set. */
function jksAlias(baseName: string): string {
  const alias = baseName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return alias === '' ? FALLBACK_NAME : alias
}

function textFile(filename: string, mediaType: string, text: string): ExportedFile {
  return { filename, mediaType, bytes: Buffer.from(text, 'utf8'), isText: true }
}

function binaryFile(filename: string, mediaType: string, bytes: Buffer): ExportedFile {
  return { filename, mediaType, bytes, isText: false }
}
