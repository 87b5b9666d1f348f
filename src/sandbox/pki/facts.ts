import { X509Certificate } from 'node:crypto'
import { oneLineName, subjectAltNamesOf } from '../../shared/x509-names'
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
    keyAlgorithm: keyAlgorithmOf(certificate),
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

const CURVE_NAMES: Record<string, string> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
}

function keyAlgorithmOf(certificate: X509Certificate): string {
  const key = certificate.publicKey
  const details = key.asymmetricKeyDetails ?? {}
  switch (key.asymmetricKeyType) {
    case 'rsa':
    case 'rsa-pss':
      return `RSA ${details.modulusLength ?? ''}`.trim()
    case 'ec': {
      const curve = details.namedCurve ?? ''
      return `EC ${CURVE_NAMES[curve] ?? curve}`.trim()
    }
    case 'ed25519':
      return 'Ed25519'
    case 'ed448':
      return 'Ed448'
    default:
      return (key.asymmetricKeyType ?? 'unknown').toUpperCase()
  }
}
