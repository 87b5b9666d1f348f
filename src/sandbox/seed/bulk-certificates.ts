import type { CertificateRecord, FolderRecord } from '../state'
import { newId } from './time'

/*
 * `--certificates N`: N more certificates for scale testing (the app's list, cache and
 * benchmarks at 10,000). Issuing N real keys would take minutes, so each one reuses the X.509
 * material of a seeded certificate that has a private key, in turn: exports of every format
 * work and read true (facts and status come from that material), names are unique, and they
 * are spread over every folder and the top level.
 */

export function bulkCertificates(
  count: number,
  seeded: readonly CertificateRecord[],
  folders: readonly FolderRecord[],
): CertificateRecord[] {
  const sources = seeded.filter(
    (certificate) =>
      !certificate.isSystem &&
      certificate.revokedAt === null &&
      certificate.material.privateKeyPem !== undefined,
  )
  if (count <= 0 || sources.length === 0) return []
  const folderIds: (string | null)[] = [null, ...folders.map((folder) => folder.id)]
  const width = String(count).length
  return Array.from({ length: count }, (_, index): CertificateRecord => {
    const source = sources[index % sources.length] as CertificateRecord
    return {
      ...source,
      id: newId(),
      name: `scale-${String(index + 1).padStart(width, '0')}-${source.name}`,
      folderId: folderIds[index % folderIds.length] ?? null,
      autoRenew: false,
      origin: 'seed',
      material: { ...source.material },
      facts: { ...source.facts, subjectAltNames: [...source.facts.subjectAltNames] },
      // Each internal copy is its own PKI certificate too (op 12 finds it by this id).
      ...(source.pkiCertificateId === undefined ? {} : { pkiCertificateId: newId() }),
    }
  })
}
