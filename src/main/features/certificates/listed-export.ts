import { X509Certificate } from 'node:crypto'
import type { ExportFormat } from '../../../shared/api'
import { ServiceError } from '../../api'
import { exportShapeProblem } from '../../api/export-shape'
import { pemBlocks } from './x509'

/*
 * The public parts of a certificate written from the PEM the list carried (op 16's
 * `certificatePem` and `chainPem`), for certificates whose export the service does not offer
 * (a real deployment's acme and upload certificates: see formatAvailability in the bridge
 * contract). The same checks as a file the service sent: each certificate parses (Node's X.509),
 * the file has the format's shape (export-shape.ts), and its certificate is the listed one (by
 * SHA-256 fingerprint). DER is the listed certificate's own bytes, so it is offered too.
 */

/** The listed certificate's SHA-256 fingerprint (`AB:CD:…`): its own field, else its PEM's. */
export function listedFingerprint(item: Record<string, unknown>): string | null {
  for (const key of ['fingerprintSha256', 'sha256Fingerprint', 'fingerprint']) {
    const value = item[key]
    if (typeof value === 'string' && /^[0-9a-f:]{64,95}$/i.test(value.trim())) {
      return normalised(value)
    }
  }
  const pem = item['certificatePem']
  if (typeof pem !== 'string') return null
  const leaf = certificatesOf(pem)[0]
  return leaf === undefined ? null : normalised(leaf.fingerprint256)
}

/**
 * Why an exported file's certificate is not the listed one (pem, der, fullchain: the first
 * certificate in it), or null; formats without a readable certificate (keys, keystores, a chain
 * of issuers) are not judged here.
 */
export function listedCertificateProblem(
  format: ExportFormat,
  bytes: Buffer,
  listed: string | null,
): string | null {
  if (listed === null || !['pem', 'der', 'fullchain'].includes(format)) return null
  let leaf: X509Certificate | undefined
  try {
    leaf = format === 'der' ? new X509Certificate(bytes) : certificatesOf(bytes.toString('utf8'))[0]
  } catch {
    return `the ${format} file holds no readable certificate`
  }
  if (leaf === undefined) return `the ${format} file holds no certificate`
  return normalised(leaf.fingerprint256) === listed
    ? null
    : `the ${format} file holds another certificate than the one listed (SHA-256 ${leaf.fingerprint256})`
}

/** The file of a public format, built from the listed PEM and checked; throws BAD_RESPONSE. */
export function listedExportBytes(item: Record<string, unknown>, format: ExportFormat): Buffer {
  const certificatePem = typeof item['certificatePem'] === 'string' ? item['certificatePem'] : ''
  const chainPem = typeof item['chainPem'] === 'string' ? item['chainPem'] : ''
  let leaf: X509Certificate | undefined
  let chain: X509Certificate[]
  try {
    const listed = certificatesOf(certificatePem)
    leaf = listed[0]
    // Certificates pasted after the leaf are its issuers too (an upload may carry them so).
    chain = distinct([...listed.slice(1), ...certificatesOf(chainPem)], leaf)
  } catch {
    throw refused(`the listed certificate PEM of ${nameOf(item)} does not parse`)
  }
  if (leaf === undefined) throw refused(`the list carried no certificate PEM for ${nameOf(item)}`)
  const fingerprint = listedFingerprint(item)
  if (fingerprint !== null && normalised(leaf.fingerprint256) !== fingerprint) {
    throw refused(`the listed PEM of ${nameOf(item)} is not the certificate its fingerprint names`)
  }
  let bytes: Buffer
  switch (format) {
    case 'pem':
      bytes = Buffer.from(leaf.toString())
      break
    case 'der':
      bytes = Buffer.from(leaf.raw)
      break
    case 'chain':
      if (chain.length === 0) throw refused(`the list carried no chain for ${nameOf(item)}`)
      bytes = Buffer.from(chain.map((certificate) => certificate.toString()).join(''))
      break
    case 'fullchain':
      bytes = Buffer.from([leaf, ...chain].map((certificate) => certificate.toString()).join(''))
      break
    default:
      throw new ServiceError(
        'UNPROCESSABLE_ENTITY',
        `A ${format} file holds the private key, which the list does not carry`,
      )
  }
  const problem =
    exportShapeProblem(format, bytes) ??
    listedCertificateProblem(format, bytes, normalised(leaf.fingerprint256))
  if (problem !== null) throw refused(problem)
  return bytes
}

function certificatesOf(text: string): X509Certificate[] {
  return pemBlocks(text)
    .filter((block) => block.label === 'CERTIFICATE')
    .map((block) => new X509Certificate(block.text))
}

function distinct(certificates: X509Certificate[], leaf: X509Certificate | undefined) {
  const seen = new Set(leaf === undefined ? [] : [leaf.fingerprint256])
  return certificates.filter((certificate) => {
    if (seen.has(certificate.fingerprint256)) return false
    seen.add(certificate.fingerprint256)
    return true
  })
}

function normalised(fingerprint: string): string {
  return fingerprint.trim().replace(/:/g, '').toUpperCase()
}

function nameOf(item: Record<string, unknown>): string {
  return typeof item['name'] === 'string' ? `“${item['name']}”` : 'this certificate'
}

function refused(problem: string): ServiceError {
  return new ServiceError('BAD_RESPONSE', `Nothing was saved: ${problem}`)
}
