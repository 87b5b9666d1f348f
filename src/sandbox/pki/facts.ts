import { X509Certificate } from 'node:crypto'
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

/** Node prints names one attribute a line (`C=..\nO=..\nCN=..`); shown as `C=.., O=.., CN=..`. */
function oneLineName(name: string): string {
  return name.split('\n').filter(Boolean).join(', ')
}

function commonNameOf(name: string): string {
  const commonNames = name
    .split('\n')
    .filter((line) => line.startsWith('CN='))
    .map((line) => line.slice('CN='.length))
  // The most specific CN comes last in certificate order.
  return commonNames.at(-1) ?? ''
}

/**
 * Node renders SANs as `DNS:a, IP Address:1.2.3.4, email:x`, quoting a value that holds a
 * comma or quote as a JSON string. DNS names and IP addresses are returned bare, any other
 * kind keeps its prefix so it cannot be mistaken for a host name.
 */
function subjectAltNamesOf(rendered: string | undefined): string[] {
  if (!rendered) return []
  const names: string[] = []
  const entry = /\s*([^:,]+):("(?:[^"\\]|\\.)*"|[^,]*)\s*(?:,|$)/gy
  for (const match of rendered.matchAll(entry)) {
    const kind = match[1] ?? ''
    const rawValue = match[2] ?? ''
    const value = rawValue.startsWith('"') ? (JSON.parse(rawValue) as string) : rawValue
    names.push(kind === 'DNS' || kind === 'IP Address' ? value : `${kind}:${value}`)
  }
  return names
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
