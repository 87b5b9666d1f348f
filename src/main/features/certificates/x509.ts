import { createPrivateKey, X509Certificate } from 'node:crypto'
import type { KeyObject } from 'node:crypto'
import type { CertificateFacts, UploadCheck, UploadIssue } from '../../../shared/bridge'
import { keyAlgorithmName, oneLineName, subjectAltNamesOf } from '../../../shared/x509-names'

/*
 * The local checks of an upload, run by main with Node's X.509 support before anything is sent
 * (and again on upload, since the renderer is not trusted): each PEM parses, the key matches the
 * certificate, the chain is in order; expiry gives warnings. Encrypted keys are recognised and
 * explained; Infradesk never rewrites the key the user gave.
 */

export const EXPIRING_SOON_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

interface PemBlock {
  label: string
  text: string
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g

export function pemBlocks(text: string): PemBlock[] {
  return [...text.matchAll(PEM_BLOCK)].map((match) => ({
    label: match[1] ?? '',
    text: match[0],
  }))
}

export interface UploadTexts {
  certificatePem: string
  privateKeyPem: string
  chainPem?: string | undefined
}

export function checkUpload(texts: UploadTexts, now = Date.now()): UploadCheck {
  const problems: UploadIssue[] = []
  const warnings: UploadIssue[] = []
  const check: UploadCheck = { problems, warnings, preview: null, chain: [], encryptedKey: false }

  const leafRead = readCertificates(texts.certificatePem, 'certificatePem', 'certificate')
  if ('problem' in leafRead) problems.push(leafRead.problem)
  const chainRead =
    texts.chainPem === undefined || texts.chainPem.trim() === ''
      ? { certificates: [] }
      : readCertificates(texts.chainPem, 'chainPem', 'chain')
  if ('problem' in chainRead) problems.push(chainRead.problem)

  const key = readPrivateKey(texts.privateKeyPem)
  if ('problem' in key) {
    problems.push(key.problem)
    check.encryptedKey = key.encrypted
  }

  if (!('certificates' in leafRead)) return check
  const [leaf, ...pastedAfterLeaf] = leafRead.certificates
  if (leaf === undefined) return check
  check.preview = certificateFacts(leaf)
  const chain = [...pastedAfterLeaf, ...('certificates' in chainRead ? chainRead.certificates : [])]
  check.chain = chain.map((certificate) => ({
    subject: oneLineName(certificate.subject),
    issuer: oneLineName(certificate.issuer),
    notAfter: certificate.validToDate.toISOString(),
  }))

  if ('key' in key && !keyMatches(leaf, key.key)) {
    problems.push({
      field: 'privateKeyPem',
      message: `This private key does not belong to the certificate (${describe(leaf)}): its public key differs`,
    })
  }

  // Each certificate must be signed by the one after it: leaf, intermediate(s), root last.
  const ordered = [leaf, ...chain]
  for (let index = 0; index + 1 < ordered.length; index += 1) {
    const child = ordered[index] as X509Certificate
    const parent = ordered[index + 1] as X509Certificate
    if (!signs(parent, child)) {
      const field = index + 1 <= pastedAfterLeaf.length ? 'certificatePem' : 'chainPem'
      problems.push({
        field,
        message:
          `The chain is not in order: ${describe(parent)} did not sign ${describe(child)}. ` +
          'List the issuer of each certificate right after it (intermediates first, root last).',
      })
      break
    }
  }

  warnings.push(...expiryWarnings(leaf, 'certificatePem', 'The certificate', now))
  chain.forEach((certificate, index) => {
    const field = index < pastedAfterLeaf.length ? 'certificatePem' : 'chainPem'
    warnings.push(...expiryWarnings(certificate, field, `Chain certificate ${index + 1}`, now))
  })
  return check
}

type ReadCertificates = { certificates: X509Certificate[] } | { problem: UploadIssue }

function readCertificates(
  text: string,
  field: 'certificatePem' | 'chainPem',
  what: string,
): ReadCertificates {
  if (text.trim() === '') return { problem: { field, message: `Give the ${what} (PEM)` } }
  const blocks = pemBlocks(text)
  const certificates = blocks.filter((block) => block.label === 'CERTIFICATE')
  if (certificates.length === 0) {
    const hint = blocks.some((block) => block.label.includes('PRIVATE KEY'))
      ? ' (this is a private key: it goes in the private key field)'
      : ' (expected -----BEGIN CERTIFICATE-----)'
    return { problem: { field, message: `No PEM certificate found in the ${what}${hint}` } }
  }
  const parsed: X509Certificate[] = []
  for (const [index, block] of certificates.entries()) {
    try {
      parsed.push(new X509Certificate(block.text))
    } catch {
      // "The certificate is not…", or "Certificate 2 of the chain is not…" when there are several.
      const which =
        certificates.length > 1 ? `Certificate ${index + 1} of the ${what}` : `The ${what}`
      return {
        problem: {
          field,
          message: `${which} is not a readable X.509 certificate (damaged or not PEM)`,
        },
      }
    }
  }
  return { certificates: parsed }
}

type ReadKey = { key: KeyObject } | { problem: UploadIssue; encrypted: boolean }

function readPrivateKey(text: string): ReadKey {
  const field = 'privateKeyPem'
  if (text.trim() === '') {
    return { problem: { field, message: 'Give the private key (PEM)' }, encrypted: false }
  }
  const keys = pemBlocks(text).filter((block) => block.label.endsWith('PRIVATE KEY'))
  const block = keys[0]
  if (block === undefined) {
    return {
      problem: {
        field,
        message: 'No PEM private key found (expected -----BEGIN PRIVATE KEY----- or similar)',
      },
      encrypted: false,
    }
  }
  if (keys.length > 1) {
    return {
      problem: { field, message: 'More than one private key: give only the certificate’s key' },
      encrypted: false,
    }
  }
  if (block.label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:\s*4,\s*ENCRYPTED/.test(block.text)) {
    return {
      problem: {
        field,
        message:
          'This private key is encrypted with a passphrase. The service takes an unencrypted key: ' +
          'decrypt a copy (openssl pkey -in key.pem -out key-plain.pem) and give that. ' +
          'Infradesk does not change the key you give it.',
      },
      encrypted: true,
    }
  }
  try {
    return { key: createPrivateKey({ key: block.text, format: 'pem' }) }
  } catch {
    return {
      problem: { field, message: 'The private key is not readable (damaged or not PEM)' },
      encrypted: false,
    }
  }
}

function keyMatches(certificate: X509Certificate, key: KeyObject): boolean {
  try {
    return certificate.checkPrivateKey(key)
  } catch {
    return false
  }
}

function signs(issuer: X509Certificate, child: X509Certificate): boolean {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey)
  } catch {
    return false
  }
}

function expiryWarnings(
  certificate: X509Certificate,
  field: UploadIssue['field'],
  what: string,
  now: number,
): UploadIssue[] {
  const notAfter = certificate.validToDate.getTime()
  const notBefore = certificate.validFromDate.getTime()
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  if (notAfter <= now) {
    const ago = Math.floor((now - notAfter) / DAY_MS)
    return [{ field, message: `${what} expired on ${day(notAfter)} (${ago} days ago)` }]
  }
  const left = Math.floor((notAfter - now) / DAY_MS)
  if (left < EXPIRING_SOON_DAYS) {
    return [{ field, message: `${what} expires on ${day(notAfter)}, in ${left} days` }]
  }
  if (notBefore > now) return [{ field, message: `${what} is not valid before ${day(notBefore)}` }]
  return []
}

function describe(certificate: X509Certificate): string {
  return `“${oneLineName(certificate.subject)}”`
}

export function certificateFacts(certificate: X509Certificate): CertificateFacts {
  return {
    subject: oneLineName(certificate.subject),
    issuer: oneLineName(certificate.issuer),
    subjectAltNames: subjectAltNamesOf(certificate.subjectAltName),
    notBefore: certificate.validFromDate.toISOString(),
    notAfter: certificate.validToDate.toISOString(),
    serialNumber: certificate.serialNumber.toUpperCase(),
    fingerprintSha256: certificate.fingerprint256,
    keyAlgorithm: keyAlgorithmName(certificate.publicKey),
    selfSigned: signs(certificate, certificate),
  }
}

/** The first certificate of a PEM text, read; null when there is none that parses. */
export function factsOfPem(text: string): CertificateFacts | null {
  const block = pemBlocks(text).find((candidate) => candidate.label === 'CERTIFICATE')
  if (block === undefined) return null
  try {
    return certificateFacts(new X509Certificate(block.text))
  } catch {
    return null
  }
}
