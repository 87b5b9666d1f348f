import { X509Certificate } from 'node:crypto'
import type { KeyAlgorithmSpelling } from '../../shared/x509-names'
import { keyAlgorithmName, oneLineName, subjectAltNamesOf } from '../../shared/x509-names'
import type { CertificateFacts } from './types'

/** Facts shown for a certificate, read from the X.509 itself (any key type). */
export function readCertificateFacts(certificatePem: string): CertificateFacts {
  return certificateFacts(new X509Certificate(certificatePem))
}

export function certificateFacts(certificate: X509Certificate): CertificateFacts {
  return {
    commonName: commonNameOf(certificate.subject),
    subject: oneLineName(certificate.subject),
    issuer: oneLineName(certificate.issuer),
    serialNumber: certificate.serialNumber.toUpperCase(),
    notBefore: certificate.validFromDate.toISOString(),
    notAfter: certificate.validToDate.toISOString(),
    subjectAltNames: subjectAltNamesOf(certificate.subjectAltName),
    fingerprintSha256: certificate.fingerprint256,
    keyAlgorithm: keyAlgorithmName(certificate.publicKey, SERVICE_SPELLING),
    selfSigned: certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey),
  }
}

function commonNameOf(name: string): string {
  const commonNames = name
    .split('\n')
    .filter((line) => line.startsWith('CN='))
    .map((line) => line.slice('CN='.length))
  // The most specific CN comes last in certificate order.
  return commonNames.at(-1) ?? ''
}

/** The service's spelling of curves and key types (`EC P-256`, `Ed25519`). */
const SERVICE_SPELLING: KeyAlgorithmSpelling = {
  curves: { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' },
  types: { ed25519: 'Ed25519', ed448: 'Ed448' },
}
