import type { SandboxPki } from './pki/types'
import type { DatabaseCertificate } from './state'

const MINUTE_MS = 60 * 1000
const DAY_MS = 24 * 60 * MINUTE_MS

/** A direct-TLS certificate for a managed database, from the sandbox CA (seed and op 8). */
export async function issueDatabaseCertificate(
  pki: SandboxPki,
  host: string,
  now: Date,
  validDays = 90,
): Promise<DatabaseCertificate> {
  const { facts } = await pki.issueLeaf({
    commonName: host,
    subjectAltNames: [host],
    notBefore: new Date(now.getTime() - 5 * MINUTE_MS),
    notAfter: new Date(now.getTime() + validDays * DAY_MS),
  })
  return {
    commonName: facts.commonName,
    serialNumber: facts.serialNumber,
    notBefore: facts.notBefore,
    notAfter: facts.notAfter,
    fingerprintSha256: facts.fingerprintSha256,
    issuer: facts.issuer,
    subjectAltNames: facts.subjectAltNames,
  }
}
