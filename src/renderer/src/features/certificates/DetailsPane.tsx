import type { BridgeError, CertificateFacts, CertificateRow } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { displayValue } from '../../lib/extra-fields'
import { useBridgeRead } from '../../lib/use-bridge-read'
import { StatusBadge } from './CertificateList'
import { expiryLabel, expiryOf } from './model'

/*
 * One certificate: every field the service returned (those we do not know too), and subject,
 * SANs, issuer, validity and SHA-256 fingerprint read from the certificate itself (main asks
 * for its public PEM and parses it) when it can be had.
 */

interface Details {
  id: string
  item: Record<string, unknown> | null
  facts: CertificateFacts | null
  factsError: BridgeError | null
}

interface DetailsPaneProps {
  profileId: string
  row: CertificateRow
  offline: boolean
  now: number
}

export function DetailsPane({ profileId, row, offline, now }: DetailsPaneProps) {
  // A short pause, so arrowing through the list does not ask the service for every row.
  const read = useBridgeRead<Details | null>(
    async () => ({
      id: row.id,
      ...(await bridge.call('certificates.details', { profileId, id: row.id, readPem: !offline })),
    }),
    [profileId, row.id, offline],
    null,
    { delayMs: 150 },
  )
  const details = read.value
  const error = read.error

  const current = details?.id === row.id ? details : null
  const expiry = expiryOf(row, now)
  return (
    <aside className="cert-details" aria-label="Certificate details">
      <h2 className="cert-details-title">{row.name}</h2>
      <p className="cert-details-status">
        {row.status ? <StatusBadge status={row.status} /> : null}{' '}
        <span className={`cert-expiry cert-expiry-${expiry.kind}`}>{expiryLabel(expiry)}</span>
      </p>
      <h3>From the certificate</h3>
      {current?.facts ? (
        <FactsList facts={current.facts} />
      ) : (
        <p className="muted">
          {offline
            ? 'Offline: the certificate itself cannot be read now.'
            : current?.factsError
              ? `Not available: ${current.factsError.message}`
              : current
                ? 'Not available.'
                : 'Reading…'}
        </p>
      )}
      <h3>Fields from the service</h3>
      {error ? <p className="field-error">{error.message}</p> : null}
      {current?.item ? (
        <dl className="cert-fields">
          {Object.entries(current.item).map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd className={typeof value === 'string' ? undefined : 'mono-small'}>
                {Array.isArray(value) && value.every((entry) => typeof entry === 'string')
                  ? value.join(', ') || '—'
                  : displayValue(value)}
              </dd>
            </div>
          ))}
        </dl>
      ) : current ? (
        <p className="muted">Not in the cache.</p>
      ) : null}
    </aside>
  )
}

export function FactsList({ facts }: { facts: CertificateFacts }) {
  return (
    <dl className="cert-fields">
      <div>
        <dt>Subject</dt>
        <dd>{facts.subject}</dd>
      </div>
      <div>
        <dt>SANs</dt>
        <dd>{facts.subjectAltNames.length > 0 ? facts.subjectAltNames.join(', ') : '—'}</dd>
      </div>
      <div>
        <dt>Issuer</dt>
        <dd>{facts.issuer}</dd>
      </div>
      <div>
        <dt>Valid from</dt>
        <dd>{facts.notBefore}</dd>
      </div>
      <div>
        <dt>Valid until</dt>
        <dd>{facts.notAfter}</dd>
      </div>
      <div>
        <dt>Key</dt>
        <dd>
          {facts.keyAlgorithm}
          {facts.selfSigned ? ' (self-signed)' : ''}
        </dd>
      </div>
      <div>
        <dt>Serial</dt>
        <dd className="mono-small">{facts.serialNumber}</dd>
      </div>
      <div>
        <dt>SHA-256</dt>
        <dd className="mono-small cert-fingerprint">{facts.fingerprintSha256}</dd>
      </div>
    </dl>
  )
}
