import { generateKeyPair, randomBytes, sign, X509Certificate, type KeyObject } from 'node:crypto'
import { isIP } from 'node:net'
import { promisify } from 'node:util'
import forge from 'node-forge'
import { certificateFacts, readCertificateFacts } from './facts'
import { fromForgeBytes, toForgeBytes } from './pem'
import type { IssueLeafOptions, SandboxPki } from './types'

export { readCertificateFacts }

/*
 * The sandbox certificate authority: a self-signed root, an intermediate signed by it, and
 * leaves signed by the intermediate. Keys come from node:crypto (native, generated on the
 * libuv thread pool, so many leaves can be keyed in parallel); node-forge only lays out the
 * X.509 structure, and the signature is made natively too (forge signs RSA in plain JS).
 */

const ORGANIZATION = 'Infradesk Sandbox'
const RSA_BITS = 2048
const YEAR_MS = 365 * 24 * 60 * 60 * 1000

const generateKeyPairAsync = promisify(generateKeyPair)

interface KeyPair {
  privateKey: KeyObject
  publicKey: KeyObject
}

/** A CA that can sign: its certificate (forge, for issuer name and key id) and its key. */
interface Signer {
  certificate: forge.pki.Certificate
  privateKey: KeyObject
}

async function generateRsaKeyPair(): Promise<KeyPair> {
  return generateKeyPairAsync('rsa', { modulusLength: RSA_BITS })
}

function forgePublicKey(publicKey: KeyObject): forge.pki.PublicKey {
  return forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString())
}

/** A random positive serial of 16 bytes whose first byte is 0x01..0x7f (minimal DER INTEGER). */
function randomSerialHex(): string {
  const serial = randomBytes(16)
  serial[0] = (serial[0] ?? 0) & 0x7f || 0x01
  return serial.toString('hex')
}

/** The certificate as OpenSSL sees it; its PEM has LF line ends (forge writes CRLF). */
function toX509(certificate: forge.pki.Certificate): X509Certificate {
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes()
  return new X509Certificate(fromForgeBytes(der))
}

// @types/node-forge omits getTBSCertificate, which forge exports and uses in cert.sign().
const getTbsCertificate = (
  forge.pki as unknown as { getTBSCertificate(c: forge.pki.Certificate): forge.asn1.Asn1 }
).getTBSCertificate

/** Signs with SHA-256/RSA using node:crypto and stores the result where forge expects it. */
function signCertificate(certificate: forge.pki.Certificate, issuerKey: KeyObject): void {
  certificate.signatureOid = forge.pki.oids.sha256WithRSAEncryption ?? '1.2.840.113549.1.1.11'
  certificate.siginfo.algorithmOid = certificate.signatureOid
  certificate.tbsCertificate = getTbsCertificate(certificate)
  const tbs = fromForgeBytes(forge.asn1.toDer(certificate.tbsCertificate).getBytes())
  certificate.signature = toForgeBytes(sign('sha256', tbs, issuerKey))
}

interface CertificateSpec {
  subject: forge.pki.CertificateField[]
  publicKey: KeyObject
  notBefore: Date
  notAfter: Date
  /** Extensions other than the key identifiers, which are added here. */
  extensions: object[]
}

/** Builds and signs a certificate; `{ selfKey }` makes it self-signed. */
function buildCertificate(
  spec: CertificateSpec,
  issuer: Signer | { selfKey: KeyObject },
): forge.pki.Certificate {
  const certificate = forge.pki.createCertificate()
  certificate.serialNumber = randomSerialHex()
  certificate.validity.notBefore = spec.notBefore
  certificate.validity.notAfter = spec.notAfter
  certificate.publicKey = forgePublicKey(spec.publicKey)
  certificate.setSubject(spec.subject)
  const issuerCertificate = 'selfKey' in issuer ? certificate : issuer.certificate
  certificate.setIssuer('selfKey' in issuer ? spec.subject : issuer.certificate.subject.attributes)
  certificate.setExtensions([
    ...spec.extensions,
    // forge derives the id from the certificate's own key (RFC 5280 method 1).
    { name: 'subjectKeyIdentifier' },
    {
      name: 'authorityKeyIdentifier',
      keyIdentifier: issuerCertificate.generateSubjectKeyIdentifier().getBytes(),
    },
  ])
  signCertificate(certificate, 'selfKey' in issuer ? issuer.selfKey : issuer.privateKey)
  return certificate
}

/** The sandbox organisation's name for one of its CAs, e.g. "Infradesk Sandbox Root CA". */
function caSubject(role: string): forge.pki.CertificateField[] {
  return [
    { name: 'organizationName', value: ORGANIZATION },
    { name: 'commonName', value: `${ORGANIZATION} ${role}` },
  ]
}

function caExtensions(pathLength?: number): object[] {
  return [
    {
      name: 'basicConstraints',
      critical: true,
      cA: true,
      ...(pathLength === undefined ? {} : { pathLenConstraint: pathLength }),
    },
    { name: 'keyUsage', critical: true, keyCertSign: true, cRLSign: true, digitalSignature: true },
  ]
}

/** A DNS name forge can put in a SAN; a CN like "Internal API" is not one. */
function looksLikeHostName(name: string): boolean {
  return /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(
    name,
  )
}

function altNameEntry(name: string): object {
  // GeneralName types: 2 = dNSName, 7 = iPAddress.
  return isIP(name) ? { type: 7, ip: name } : { type: 2, value: name }
}

function leafExtensions(subjectAltNames: string[]): object[] {
  return [
    { name: 'basicConstraints', critical: true, cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    ...(subjectAltNames.length > 0
      ? [{ name: 'subjectAltName', altNames: subjectAltNames.map(altNameEntry) }]
      : []),
  ]
}

/** Creates a fresh sandbox root and intermediate; each call makes a new, independent CA. */
export async function createSandboxPki(): Promise<SandboxPki> {
  const [rootKeys, intermediateKeys] = await Promise.all([
    generateRsaKeyPair(),
    generateRsaKeyPair(),
  ])
  const now = Date.now()

  // Long, back-dated validity so that seeded certificates issued "years ago" (some now
  // expired) still sit inside their issuers' lifetimes.
  const root = buildCertificate(
    {
      subject: caSubject('Root CA'),
      publicKey: rootKeys.publicKey,
      notBefore: new Date(now - 10 * YEAR_MS),
      notAfter: new Date(now + 20 * YEAR_MS),
      extensions: caExtensions(),
    },
    { selfKey: rootKeys.privateKey },
  )
  const intermediate = buildCertificate(
    {
      subject: caSubject('Intermediate CA'),
      publicKey: intermediateKeys.publicKey,
      notBefore: new Date(now - 9 * YEAR_MS),
      notAfter: new Date(now + 10 * YEAR_MS),
      extensions: caExtensions(0),
    },
    { certificate: root, privateKey: rootKeys.privateKey },
  )
  const rootPem = toX509(root).toString()
  const intermediatePem = toX509(intermediate).toString()
  const issuer: Signer = { certificate: intermediate, privateKey: intermediateKeys.privateKey }

  return {
    rootPem,
    intermediatePem,
    async issueLeaf(options: IssueLeafOptions) {
      const keys = await generateRsaKeyPair()
      const subjectAltNames =
        options.subjectAltNames ??
        (looksLikeHostName(options.commonName) ? [options.commonName] : [])
      const leaf = buildCertificate(
        {
          subject: [{ name: 'commonName', value: options.commonName }],
          publicKey: keys.publicKey,
          notBefore: options.notBefore,
          notAfter: options.notAfter,
          extensions: leafExtensions(subjectAltNames),
        },
        issuer,
      )
      const leafX509 = toX509(leaf)
      return {
        material: {
          certificatePem: leafX509.toString(),
          privateKeyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          chainPem: intermediatePem,
          rootPem,
        },
        facts: certificateFacts(leafX509),
      }
    },
  }
}
