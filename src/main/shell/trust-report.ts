import tls from 'node:tls'

/*
 * What the operating system's trust store gave the runtime, said once at start. Electron's Node
 * is built on BoringSSL, and tls.getCACertificates('system') may throw or come back empty there
 * (or on a machine whose store it cannot read); the connections then trust Node's bundled roots
 * only (src/main/net/trust.ts), and an internal CA the OS trusts is suddenly not trusted. That
 * must be visible in the log, not silent. Plain Node, so it is tested without Electron.
 */

export type SystemCaReader = (type: 'system') => string[]

export interface SystemTrustReport {
  /** Certificates read from the OS store (0 when it could not be read). */
  count: number
  /** Why the store gave nothing; null when it gave certificates. */
  problem: string | null
}

/** Node's reader of the OS store; null on a runtime without it (before Node 22.15/23.5). */
function nodeReader(): SystemCaReader | null {
  return (tls as { getCACertificates?: SystemCaReader }).getCACertificates ?? null
}

/** Reads the store the way src/main/net/trust.ts does, but keeps what went wrong. */
export function readSystemTrust(reader: SystemCaReader | null = nodeReader()): SystemTrustReport {
  if (reader === null) {
    return { count: 0, problem: 'this runtime cannot read the system store (no getCACertificates)' }
  }
  try {
    const certificates = reader('system')
    return certificates.length > 0
      ? { count: certificates.length, problem: null }
      : { count: 0, problem: 'the system store is empty' }
  } catch (error) {
    return { count: 0, problem: error instanceof Error ? error.message : String(error) }
  }
}

/** The log line: one line, with the count, and the problem when there is one. */
export function describeSystemTrust(report: SystemTrustReport): string {
  return report.problem === null
    ? `Trust: ${report.count} certificate authorities from the system store, plus Node's bundled roots and each profile's own`
    : `Trust: no certificate authority from the system store (${report.problem}); connections trust Node's bundled roots and each profile's own CAs only`
}
