import { createHash, X509Certificate } from 'node:crypto'
import tls from 'node:tls'
import type { SecureContext } from 'node:tls'
import { ServiceError } from '../api/errors'

/*
 * Which certificate authorities a connection trusts: the operating system's store (where the
 * runtime can read it) plus Node's bundled roots, plus the certificates NODE_EXTRA_CA_CERTS
 * names where the runtime reads that variable, plus the CA certificates a profile added.
 * Node's `ca` option replaces the defaults rather than adding to them (extras included), so the
 * whole list is always given. Plain Node (the CLI, web mode) reads NODE_EXTRA_CA_CERTS at start,
 * as every Node tool on a corporate machine does, and we take what it read; Electron's Node
 * ignores the variable (electron #41590), so on the desktop a per-profile list is how an
 * internal CA is trusted. There is no way to switch verification off.
 */

/** What the app tells the user about one CA certificate. */
export interface CaCertificateView {
  pem: string
  subject: string
  issuer: string
  /** ISO 8601. */
  validTo: string
  /** `AB:CD:…`, the form `openssl x509 -fingerprint -sha256` prints. */
  fingerprint256: string
}

/** At most this many PEM bytes in one added file (a CA bundle is a few kB per certificate). */
export const MAX_CA_FILE_BYTES = 256 * 1024

let baseCas: readonly string[] | null = null
/** What the OS store gave when it was read, for the profile's network view. */
let systemSummary: SystemTrustSummary = { count: 0, problem: 'not read yet' }
/** What NODE_EXTRA_CA_CERTS gave when it was read. */
let environmentSummary: EnvironmentTrustSummary = { file: null, count: 0, problem: null }

export interface SystemTrustSummary {
  /** Certificates the operating system's store gave (0 when it gave none). */
  count: number
  /** Why it gave none, in words; null when it gave certificates. */
  problem: string | null
  /** NODE_EXTRA_CA_CERTS: the file it names and what the runtime took from it. */
  environment?: EnvironmentTrustSummary
}

export interface EnvironmentTrustSummary {
  /** The file NODE_EXTRA_CA_CERTS names; null when the variable is not set. */
  file: string | null
  /** Certificates the runtime read from it (0 when none). */
  count: number
  /** Why a file that is named gave none (unreadable, or a runtime that ignores it); else null. */
  problem: string | null
}

type CaReader = (type: 'system' | 'extra') => string[]

/** How many CAs the operating system's store gave the connections, or why none. */
export function systemTrustSummary(): SystemTrustSummary {
  baseCertificateAuthorities()
  return { ...systemSummary, environment: environmentSummary }
}

/**
 * The system store, the bundled roots and NODE_EXTRA_CA_CERTS's certificates, read once (the
 * system store is ~600 certificates).
 */
export function baseCertificateAuthorities(): readonly string[] {
  if (baseCas === null) {
    // getCACertificates arrived in Node 22.15/23.5; an older runtime has the bundled roots only.
    const reader = (tls as { getCACertificates?: CaReader }).getCACertificates
    baseCas = [
      ...new Set([...systemCas(reader), ...tls.rootCertificates, ...environmentCas(reader)]),
    ]
  }
  return baseCas
}

/**
 * NODE_EXTRA_CA_CERTS's certificates as the runtime read them when it started (Node reads the
 * variable once, before any code runs, and warns on its own when the file cannot be read): never
 * read again here, so the trust is the one every other Node tool on the machine has.
 */
function environmentCas(reader: CaReader | undefined): string[] {
  const file = process.env['NODE_EXTRA_CA_CERTS'] || null
  if (file === null) {
    environmentSummary = { file: null, count: 0, problem: null }
    return []
  }
  let found: string[]
  try {
    found = reader === undefined ? [] : reader('extra')
  } catch {
    // A runtime that knows no 'extra' store: the variable is then not honoured here.
    found = []
  }
  environmentSummary = {
    file,
    count: found.length,
    problem:
      found.length > 0
        ? null
        : process.versions['electron'] !== undefined
          ? 'the desktop app (Electron) ignores this variable: add the CA to the profile instead'
          : reader === undefined
            ? 'this runtime cannot report it (no getCACertificates)'
            : 'the runtime could not read a certificate from it',
  }
  return found
}

/** The OS store; getCACertificates arrived in Node 22.15/23.5: an older runtime reads none. */
function systemCas(reader: CaReader | undefined): string[] {
  if (reader === undefined) {
    systemSummary = {
      count: 0,
      problem: 'this runtime cannot read the system store (no getCACertificates)',
    }
    return []
  }
  try {
    const found = reader('system')
    systemSummary =
      found.length > 0
        ? { count: found.length, problem: null }
        : { count: 0, problem: 'the system store is empty' }
    return found
  } catch (error) {
    // An unreadable system store must not stop the app: the bundled roots still apply.
    systemSummary = { count: 0, problem: error instanceof Error ? error.message : String(error) }
    return []
  }
}

const contexts = new Map<string, SecureContext>()

/**
 * One TLS context per set of extra CAs, kept: building one parses ~700 certificates, which
 * every connection would otherwise pay for.
 */
export function secureContextFor(extraCas: readonly string[]): {
  key: string
  context: SecureContext
} {
  const key = caSetKey(extraCas)
  let context = contexts.get(key)
  if (context === undefined) {
    context = tls.createSecureContext({ ca: [...baseCertificateAuthorities(), ...extraCas] })
    contexts.set(key, context)
  }
  return { key, context }
}

function caSetKey(extraCas: readonly string[]): string {
  if (extraCas.length === 0) return 'base'
  const hash = createHash('sha256')
  for (const pem of [...extraCas].sort()) hash.update(pem).update('\0')
  return hash.digest('hex')
}

/** Views of an X509Certificate, as the app shows it. */
export function viewOf(certificate: X509Certificate): CaCertificateView {
  return {
    pem: certificate.toString(),
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    validTo: new Date(certificate.validTo).toISOString(),
    fingerprint256: certificate.fingerprint256,
  }
}

/** `CN=x, O=y`: X509Certificate gives one attribute per line. */
export function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ')
}

/** A self-signed certificate: its own issuer, and its signature verifies with its own key. */
export function isSelfSigned(certificate: X509Certificate): boolean {
  return certificate.checkIssued(certificate) && certificate.verify(certificate.publicKey)
}

/**
 * The CA certificates of a PEM file, checked: every CERTIFICATE block must parse and say
 * CA:true (basicConstraints); anything else is refused with a VALIDATION_ERROR on `field`, so
 * a server's own certificate or a private key is never added as a trust anchor by mistake.
 */
export function readCaCertificates(pem: string, field = 'trustedCas'): CaCertificateView[] {
  const refuse = (message: string) =>
    new ServiceError('VALIDATION_ERROR', 'Request validation failed', {
      details: [{ path: [field], message }],
    })
  if (Buffer.byteLength(pem, 'utf8') > MAX_CA_FILE_BYTES) {
    throw refuse('The file is too large for a CA certificate (at most 256 kB)')
  }
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
  if (blocks.length === 0)
    throw refuse('No PEM certificate in this file (-----BEGIN CERTIFICATE-----)')
  return blocks.map((block) => {
    let certificate: X509Certificate
    try {
      certificate = new X509Certificate(block)
    } catch {
      throw refuse('A certificate in this file cannot be read')
    }
    if (!certificate.ca) {
      throw refuse(
        `${oneLine(certificate.subject) || 'This certificate'} is not a CA certificate ` +
          '(basicConstraints CA:true): add the certificate of the authority that issued it',
      )
    }
    return viewOf(certificate)
  })
}
