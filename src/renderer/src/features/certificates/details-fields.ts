import type { CertificateFacts } from '../../../../shared/bridge'
import { parseTimestamp } from '../../lib/time'

/*
 * Which of the service's fields for a certificate only repeat a fact the details pane already
 * shows: read from the certificate itself (subject, issuer, dates, serial, fingerprint, ...) or
 * in the pane's header (name, status). Those are folded away. A field that names a fact but
 * disagrees with the certificate stays in view: that difference is worth seeing.
 */

type Fact = keyof CertificateFacts

/** The service's field names for each fact (the spec's, and the aliases services use). */
const FACT_FIELDS: Record<string, Fact> = {
  subject: 'subject',
  issuer: 'issuer',
  subjectAltNames: 'subjectAltNames',
  sans: 'subjectAltNames',
  notBefore: 'notBefore',
  validFrom: 'notBefore',
  notAfter: 'notAfter',
  validTo: 'notAfter',
  expiresAt: 'notAfter',
  serialNumber: 'serialNumber',
  serial: 'serialNumber',
  fingerprintSha256: 'fingerprintSha256',
  sha256: 'fingerprintSha256',
  keyAlgorithm: 'keyAlgorithm',
  selfSigned: 'selfSigned',
}

/** Shown by the pane's header, whatever the certificate says. */
const HEADER_FIELDS = new Set(['name', 'status'])

export function repeatedServiceFields(
  item: Record<string, unknown>,
  facts: CertificateFacts | null,
): { shown: Array<[string, unknown]>; folded: Array<[string, unknown]> } {
  const shown: Array<[string, unknown]> = []
  const folded: Array<[string, unknown]> = []
  for (const entry of Object.entries(item)) {
    const [key, value] = entry
    const fact = FACT_FIELDS[key]
    const repeats =
      HEADER_FIELDS.has(key) ||
      (facts !== null && fact !== undefined && sameFact(value, facts[fact])) ||
      (facts !== null && key === 'commonName' && facts.subject.includes(`CN=${String(value)}`))
    ;(repeats ? folded : shown).push(entry)
  }
  return { shown, folded }
}

function sameFact(value: unknown, fact: CertificateFacts[Fact]): boolean {
  if (Array.isArray(fact)) {
    return (
      Array.isArray(value) &&
      value.length === fact.length &&
      value.every((entry, index) => normalise(entry) === normalise(fact[index]))
    )
  }
  if (typeof fact === 'boolean') return value === fact
  const asTimes = [parseTimestamp(value), parseTimestamp(fact)]
  if (asTimes[0] !== null && asTimes[0] === asTimes[1]) return true
  return normalise(value) === normalise(fact)
}

/** Case, colons and spaces aside: serials and fingerprints are written many ways. */
function normalise(value: unknown): string {
  return String(value).toLowerCase().replace(/[\s:]/g, '')
}
