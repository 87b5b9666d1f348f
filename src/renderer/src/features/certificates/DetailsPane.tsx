import type { ReactNode } from 'react'
import type { BridgeError, CertificateFacts, CertificateRow } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { displayValue } from '../../lib/extra-fields'
import { formatLocal, formatLocalFull, parseTimestamp, toIso } from '../../lib/time'
import { useBridgeRead } from '../../lib/use-bridge-read'
import { CopyButton } from '../../ui/CopyButton'
import { StatusBadge } from './CertificateList'
import { repeatedServiceFields } from './details-fields'
import { booleanWords, fieldLabel, labelledFields, statusWords } from './field-labels'
import { expiryLabel, expiryOf } from './model'

/*
 * One certificate: subject, SANs, issuer, validity and SHA-256 fingerprint read from the
 * certificate itself (main asks for its public PEM and parses it) when it can be had, then the
 * fields the service returned. A service field that only repeats what the certificate says
 * (or the header shows) is folded away, so no fact is shown twice; when the certificate
 * cannot be read, every service field is shown.
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
  // The row's folder is part of the key: after a move the list is refreshed, and the details
  // read the moved certificate again instead of showing its old folder.
  const folderKey = `${row.folderId ?? ''}/${row.folderPath.join('/')}`
  // A short pause, so arrowing through the list does not ask the service for every row.
  const read = useBridgeRead<Details | null>(
    async () => ({
      id: row.id,
      ...(await bridge.call('certificates.details', { profileId, id: row.id, readPem: !offline })),
    }),
    [profileId, row.id, offline, folderKey],
    null,
    { delayMs: 150 },
  )
  const details = read.value
  const error = read.error

  const current = details?.id === row.id ? details : null
  const expiry = expiryOf(row, now)
  const { shown, folded } = current?.item
    ? repeatedServiceFields(current.item, current.facts)
    : { shown: [], folded: [] }
  return (
    <aside className="cert-details" aria-label="Certificate details">
      <h2 className="cert-details-title">{row.name}</h2>
      <p className="cert-details-status">
        {row.status ? <StatusBadge status={row.status} /> : null}{' '}
        <span className={`cert-expiry cert-expiry-${expiry.kind}`}>{expiryLabel(expiry)}</span>
      </p>
      <h3>From the certificate</h3>
      {current?.facts ? (
        <FactsList facts={current.facts} label={row.name} />
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
        <>
          <ServiceFields fields={shown} />
          {folded.length > 0 ? (
            <details className="cert-repeated">
              <summary>
                {folded.length} more {folded.length === 1 ? 'field repeats' : 'fields repeat'} what
                is shown above
              </summary>
              <ServiceFields fields={folded} />
            </details>
          ) : null}
        </>
      ) : current ? (
        <p className="muted">Not in the cache.</p>
      ) : null}
    </aside>
  )
}

/**
 * The service's fields: the ones the screen knows under their words (the key in the tooltip),
 * then any other under its own key in an "Other fields" group, so nothing sent is hidden.
 */
function ServiceFields({ fields }: { fields: Array<[string, unknown]> }) {
  if (fields.length === 0) return null
  const { known, other } = labelledFields(fields)
  return (
    <>
      {known.length > 0 ? (
        <dl className="cert-fields" data-testid="cert-service-fields">
          {known.map(({ key, label, value }) => (
            <div key={key}>
              <dt title={`${key} (as the service names it)`}>{label}</dt>
              <dd className={typeof value === 'string' ? undefined : 'cert-mono'}>
                <ServiceValue name={key} value={value} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {other.length > 0 ? (
        <section className="cert-other-fields" aria-label="Other fields">
          <h4>Other fields</h4>
          <dl className="cert-fields" data-testid="cert-other-fields">
            {other.map(({ key, value }) => (
              <div key={key}>
                <dt>{key}</dt>
                <dd className={typeof value === 'string' ? undefined : 'cert-mono'}>
                  <ServiceValue name={key} value={value} />
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </>
  )
}

function ServiceValue({ name, value }: { name: string; value: unknown }) {
  if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) {
    return <>{value.join(', ') || '—'}</>
  }
  // Dates read as local dates that never break mid-string; the service's words in the tooltip.
  if (typeof value === 'string' && /(At|^not(Before|After)|^valid(From|To))$/.test(name)) {
    const at = parseTimestamp(value)
    if (at !== null) return <LocalDate at={at} original={value} />
  }
  // A known yes/no field in words; the service's own value in the tooltip.
  if (typeof value === 'boolean' && fieldLabel(name) !== null) {
    return <span title={String(value)}>{booleanWords(value)}</span>
  }
  if (name === 'status' && typeof value === 'string') {
    return <span title={value}>{statusWords(value)}</span>
  }
  return <>{displayValue(value)}</>
}

function LocalDate({ at, original }: { at: number; original: string }) {
  return (
    <time className="cert-date" dateTime={toIso(at)} title={`${formatLocalFull(at)} (${original})`}>
      {formatLocal(at)}
    </time>
  )
}

function FactDate({ value }: { value: string }) {
  const at = parseTimestamp(value)
  return at === null ? (
    <span className="cert-date">{value}</span>
  ) : (
    <LocalDate at={at} original={value} />
  )
}

export function FactsList({ facts, label }: { facts: CertificateFacts; label?: string }) {
  const of = label === undefined ? '' : ` of ${label}`
  return (
    <dl className="cert-fields">
      <Fact term="Subject">{facts.subject}</Fact>
      <Fact term="SANs">
        {facts.subjectAltNames.length > 0 ? facts.subjectAltNames.join(', ') : '—'}
      </Fact>
      <Fact term="Issuer">{facts.issuer}</Fact>
      <Fact term="Valid from">
        <FactDate value={facts.notBefore} />
      </Fact>
      <Fact term="Valid until">
        <FactDate value={facts.notAfter} />
      </Fact>
      <Fact term="Key">
        {facts.keyAlgorithm}
        {facts.selfSigned ? ' (self-signed)' : ''}
      </Fact>
      <div>
        <dt>Serial</dt>
        <LongValue
          value={facts.serialNumber}
          testId="cert-serial"
          what={`the serial${of}`}
          copiedNote="Serial copied"
        />
      </div>
      <div>
        <dt>Certificate fingerprint (SHA-256)</dt>
        <LongValue
          value={facts.fingerprintSha256}
          testId="cert-fingerprint"
          what={`the SHA-256 fingerprint${of}`}
          copiedNote="SHA-256 copied"
        />
      </div>
    </dl>
  )
}

/** One line of the facts: its term and what the certificate says. */
function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** A hex value shown whole (wrapping anywhere), with Copy beside it. */
function LongValue(props: { value: string; testId: string; what: string; copiedNote: string }) {
  return (
    <dd className="cert-long-value">
      <span className="cert-mono" data-testid={props.testId}>
        {props.value}
      </span>
      <CopyButton value={props.value} what={props.what} copiedNote={props.copiedNote} />
    </dd>
  )
}
