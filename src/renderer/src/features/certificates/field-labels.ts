/*
 * The words the certificate screens use for the service's field names and status values, so a
 * newcomer reads "System certificate", "Private key held" and "Expiring soon" rather than
 * `isSystem`, `hasPrivateKey` and `expiring_soon`. The service's resources are open (the
 * interface document says "full field sets: not shown"): the fields below are the ones the spec, our
 * sandbox and a real deployment send. Any other field is still shown, under its own key, in an
 * "Other fields" group: nothing the service sent is hidden.
 */

const FIELD_LABELS: Readonly<Record<string, string>> = {
  id: 'Id',
  name: 'Name',
  type: 'Type',
  status: 'Status',
  folderId: 'Folder id',
  folderPath: 'Folder',
  folder: 'Folder',
  isSystem: 'System certificate',
  system: 'System certificate',
  hasPrivateKey: 'Private key held',
  hasChain: 'Chain held',
  daysUntilExpiry: 'Days left (as the service counts)',
  revokedAt: 'Revoked',
  commonName: 'Common name',
  domainNames: 'Domain names',
  subject: 'Subject',
  issuer: 'Issuer',
  subjectAltNames: 'SANs',
  sans: 'SANs',
  notBefore: 'Valid from',
  validFrom: 'Valid from',
  notAfter: 'Valid until',
  validTo: 'Valid until',
  expiresAt: 'Valid until',
  serialNumber: 'Serial',
  serial: 'Serial',
  fingerprintSha256: 'SHA-256 fingerprint',
  sha256: 'SHA-256 fingerprint',
  keyAlgorithm: 'Key',
  selfSigned: 'Self-signed',
  isWildcard: 'Wildcard',
  autoRenew: 'Renews automatically',
  autoRenewProvider: 'Renewal DNS provider',
  autoRenewDnsBindings: 'Renewal DNS records',
  autoRenewDisabledReason: 'Automatic renewal off because',
  autoRenewDisabledAt: 'Automatic renewal off since',
  lastRenewedAt: 'Last renewed',
  renewalError: 'Last renewal error',
  acmeProvider: 'ACME provider',
  acmeChallengeType: 'ACME challenge',
  internalCertId: 'Internal certificate id',
  certificatePem: 'Certificate (PEM)',
  chainPem: 'Chain (PEM)',
  createdById: 'Created by (user id)',
  createdAt: 'Created',
  updatedAt: 'Updated',
}

/** The screen's words for a field the service sent; null for one it does not know. */
export function fieldLabel(key: string): string | null {
  return Object.hasOwn(FIELD_LABELS, key) ? (FIELD_LABELS[key] ?? null) : null
}

/** Known fields first (labelled, in the service's order), then the others under their own key. */
export function labelledFields<T>(fields: ReadonlyArray<[string, T]>): {
  known: Array<{ key: string; label: string; value: T }>
  other: Array<{ key: string; value: T }>
} {
  const known: Array<{ key: string; label: string; value: T }> = []
  const other: Array<{ key: string; value: T }> = []
  for (const [key, value] of fields) {
    const label = fieldLabel(key)
    if (label === null) other.push({ key, value })
    else known.push({ key, label, value })
  }
  return { known, other }
}

const STATUS_WORDS: Readonly<Record<string, string>> = {
  expiring_soon: 'expiring soon',
}

/**
 * A status in words, lower case as the badges have always shown them: the known ones as the
 * screens say them, any other with spaces for `_`.
 */
export function statusWords(status: string): string {
  const known = Object.hasOwn(STATUS_WORDS, status) ? STATUS_WORDS[status] : undefined
  return known ?? status.replace(/_/g, ' ').trim()
}

/** A yes/no field in words (the service's true/false stays in the tooltip). */
export function booleanWords(value: boolean): string {
  return value ? 'Yes' : 'No'
}
