import { certificatesToPem, distinctCertificates, parseCertificates } from './pki/pem'
import type {
  CertificateRecord,
  CertificateStatus,
  CertificateType,
  FolderRecord,
  MigrationRecord,
  SandboxState,
} from './state'

/*
 * How records are shown on the wire. Records hold what the sandbox remembers; views add
 * what is derived (a certificate's status from its dates, a folder's path) and leave out
 * what never leaves the service (private keys).
 */

const DAY_MS = 24 * 60 * 60 * 1000
/** A certificate expiring within this many days is `expiring_soon`. */
export const EXPIRING_SOON_DAYS = 30

export function certificateStatus(certificate: CertificateRecord, now: Date): CertificateStatus {
  if (certificate.revokedAt !== null) return 'revoked'
  const remaining = Date.parse(certificate.facts.notAfter) - now.getTime()
  if (remaining <= 0) return 'expired'
  if (remaining <= EXPIRING_SOON_DAYS * DAY_MS) return 'expiring_soon'
  return 'active'
}

/** Names of a folder and its ancestors, root first. */
export function folderPath(folders: FolderRecord[], folderId: string | null): string[] {
  const names: string[] = []
  const seen = new Set<string>()
  let current = folders.find((folder) => folder.id === folderId)
  while (current && !seen.has(current.id)) {
    seen.add(current.id)
    names.unshift(current.name)
    const parentId = current.parentId
    current = folders.find((folder) => folder.id === parentId)
  }
  return names
}

export function certificateView(certificate: CertificateRecord, state: SandboxState, now: Date) {
  const { facts, material } = certificate
  return {
    id: certificate.id,
    name: certificate.name,
    type: certificate.type,
    status: certificateStatus(certificate, now),
    folderId: certificate.folderId,
    folderPath: folderPath(state.certificateFolders, certificate.folderId),
    isSystem: certificate.isSystem,
    hasPrivateKey: material.privateKeyPem !== undefined,
    hasChain: material.chainPem.trim() !== '',
    autoRenew: certificate.autoRenew,
    commonName: facts.commonName,
    subjectAltNames: facts.subjectAltNames,
    subject: facts.subject,
    issuer: facts.issuer,
    serialNumber: facts.serialNumber,
    notBefore: facts.notBefore,
    notAfter: facts.notAfter,
    daysUntilExpiry: Math.floor((Date.parse(facts.notAfter) - now.getTime()) / DAY_MS),
    fingerprintSha256: facts.fingerprintSha256,
    keyAlgorithm: facts.keyAlgorithm,
    selfSigned: facts.selfSigned,
    revokedAt: certificate.revokedAt,
    createdAt: certificate.createdAt,
    updatedAt: certificate.updatedAt,
  }
}

/** The real deployment's SSL certificate types for the sandbox's own. */
const GATEWAY_TYPES: Record<CertificateType, GatewayCertificateType> = {
  letsencrypt: 'acme',
  custom: 'upload',
  internal: 'internal',
}
export const GATEWAY_CERTIFICATE_TYPES = ['acme', 'upload', 'internal'] as const
export type GatewayCertificateType = (typeof GATEWAY_CERTIFICATE_TYPES)[number]
export const GATEWAY_CERTIFICATE_STATUSES = ['active', 'expired', 'pending', 'error'] as const
export type GatewayCertificateStatus = (typeof GATEWAY_CERTIFICATE_STATUSES)[number]

export function gatewayCertificateType(certificate: CertificateRecord): GatewayCertificateType {
  return GATEWAY_TYPES[certificate.type]
}

/**
 * The real deployment's statuses (active, expired, pending, error): it has no "expiring soon"
 * (a date the client works out) and no "revoked" for SSL certificates; a revoked one is shown
 * as `error`, the status of a certificate that cannot be served.
 */
export function gatewayCertificateStatus(
  certificate: CertificateRecord,
  now: Date,
): GatewayCertificateStatus {
  const status = certificateStatus(certificate, now)
  if (status === 'revoked') return 'error'
  return status === 'expired' ? 'expired' : 'active'
}

/**
 * An SSL certificate as a real deployment lists it (its ssl module: every column but the key
 * material, `domainNames`, `certificatePem` and `chainPem` in the list, `internalCertId` linking
 * an internal one to the PKI's record). `folderId`/`folderPath` are the sandbox's own (ops 3 and
 * 10 need folders); the rest of the default view's facts are not sent by the real list.
 */
export function gatewayCertificateView(
  certificate: CertificateRecord,
  state: SandboxState,
  now: Date,
) {
  const { facts, material } = certificate
  const [leaf, ...pasted] = parseCertificates(material.certificatePem)
  const issuers = distinctCertificates(
    [...pasted, ...parseCertificates(material.chainPem), ...parseCertificates(material.rootPem)],
    leaf === undefined ? [] : [leaf],
  )
  const type = gatewayCertificateType(certificate)
  return {
    id: certificate.id,
    name: certificate.name,
    type,
    domainNames: facts.subjectAltNames.length > 0 ? facts.subjectAltNames : [facts.commonName],
    certificatePem: leaf === undefined ? material.certificatePem : leaf.toString(),
    chainPem: issuers.length === 0 ? null : certificatesToPem(issuers),
    acmeProvider: type === 'acme' ? 'letsencrypt' : null,
    acmeChallengeType: type === 'acme' ? 'http-01' : null,
    internalCertId: certificate.pkiCertificateId ?? null,
    notBefore: facts.notBefore,
    notAfter: facts.notAfter,
    autoRenew: certificate.autoRenew,
    renewalError: null,
    status: gatewayCertificateStatus(certificate, now),
    isSystem: certificate.isSystem,
    folderId: certificate.folderId,
    folderPath: folderPath(state.certificateFolders, certificate.folderId),
    createdAt: certificate.createdAt,
    updatedAt: certificate.updatedAt,
  }
}

export function folderView(folder: FolderRecord, folders: FolderRecord[]) {
  return {
    ...folder,
    path: folderPath(folders, folder.id),
    childCount: folders.filter((candidate) => candidate.parentId === folder.id).length,
  }
}

/** Section 2.4's fields first, then what op 13 changes (lock, maintenance, restart policy). */
export function migrationView(migration: MigrationRecord) {
  return structuredClone(migration)
}
