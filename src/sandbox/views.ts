import type {
  CertificateRecord,
  CertificateStatus,
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
