import { X509Certificate } from 'node:crypto'

/*
 * PEM and byte helpers shared by the authority, the upload check and the exports.
 * Certificates are handled as node:crypto X509Certificate objects because, unlike
 * node-forge, OpenSSL reads any key type (an uploaded EC certificate must work too).
 */

// Base64 never contains '-', so `[^-]*` cannot run on into the next block.
const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[^-]*-----END CERTIFICATE-----/g

/** The CERTIFICATE blocks of a PEM text, in order; anything between blocks is ignored. */
export function certificateBlocks(text: string): string[] {
  return text.match(CERTIFICATE_BLOCK) ?? []
}

/** Parses every CERTIFICATE block; throws when one of them is not a valid X.509 certificate. */
export function parseCertificates(text: string): X509Certificate[] {
  return certificateBlocks(text).map((block) => new X509Certificate(block))
}

/** Canonical PEM (64-column base64, trailing newline) of certificates, in the given order. */
export function certificatesToPem(certificates: readonly X509Certificate[]): string {
  return certificates.map((certificate) => certificate.toString()).join('')
}

/** Drops repeats (same DER) and any certificate in `exclude`, keeping the first occurrence. */
export function distinctCertificates(
  certificates: readonly X509Certificate[],
  exclude: readonly X509Certificate[] = [],
): X509Certificate[] {
  const seen = new Set(exclude.map((certificate) => certificate.fingerprint256))
  return certificates.filter((certificate) => {
    if (seen.has(certificate.fingerprint256)) return false
    seen.add(certificate.fingerprint256)
    return true
  })
}

/** node-forge works on "binary strings" (one char per byte); these convert at the boundary. */
export function toForgeBytes(bytes: Buffer): string {
  return bytes.toString('binary')
}

export function fromForgeBytes(bytes: string): Buffer {
  return Buffer.from(bytes, 'binary')
}
