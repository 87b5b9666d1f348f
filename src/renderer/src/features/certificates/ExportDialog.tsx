import { useEffect, useState } from 'react'
import { EXPORT_FORMATS, type ExportFormat } from '../../../../shared/api'
import {
  EXPORT_FORMAT_INFO,
  formatAvailability,
  type ChannelOutput,
  type CertificateRow,
  type FormatAvailability,
  type Profile,
} from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'
import { Button } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { Field } from '../../ui/Field'
import { formatBytes } from '../transfers/format'
import { SavedFileActions } from '../transfers/TransferParts'
import { useAction } from './useAction'

/*
 * Op 12: the 8 formats, each with what its file holds; a passphrase (masked, typed twice) for
 * the formats that carry or protect a key, cleared whenever the format changes. Main fetches and writes the file; this dialog only
 * learns where it went, its size and SHA-256. A format this certificate does not have (a real
 * deployment exports no ACME or uploaded certificate's private key: formatAvailability) is shown
 * disabled with the reason; the public ones of such a certificate are written from the PEM the
 * list carried, which the dialog says.
 */

const SERVED: FormatAvailability = { available: true, via: 'service', id: '' }

/** Each format's availability for the certificate as the list sent it (cached in main). */
function useAvailability(profileId: string, id: string) {
  const [availability, setAvailability] = useState<Record<ExportFormat, FormatAvailability> | null>(
    null,
  )
  useEffect(() => {
    let current = true
    void bridge
      .call('certificates.details', { profileId, id, readPem: false })
      .then((details) => {
        if (!current) return
        const item = details.item
        setAvailability(
          Object.fromEntries(
            EXPORT_FORMATS.map((format) => [
              format,
              item === null ? SERVED : formatAvailability(item, format),
            ]),
          ) as Record<ExportFormat, FormatAvailability>,
        )
      })
      // Not known: every format is offered and main decides (it checks again anyway).
      .catch(() => current && setAvailability(null))
    return () => {
      current = false
    }
  }, [profileId, id])
  return availability
}

type Saved = NonNullable<ChannelOutput<'certificates.export'>>

interface ExportDialogProps {
  profile: Profile
  certificate: CertificateRow
  mode: 'desktop' | 'web'
  onClose(): void
}

export function ExportDialog({ profile, certificate, mode, onClose }: ExportDialogProps) {
  const [picked, setFormat] = useState<ExportFormat>('pem')
  const availability = useAvailability(profile.id, certificate.id)
  // The opening format is not this certificate's: the first one it has stands instead.
  const format =
    availability === null || availability[picked].available
      ? picked
      : (EXPORT_FORMATS.find((candidate) => availability[candidate].available) ?? picked)
  const chosen = availability?.[format] ?? SERVED
  const [passphrase, setPassphrase] = useState('')
  const [again, setAgain] = useState('')
  const { busy, error, run, clearError } = useAction()
  const [saved, setSaved] = useState<Saved | null>(null)
  const info = EXPORT_FORMAT_INFO[format]
  const wantsPassphrase = info.passphrase !== 'none'
  const mismatch =
    wantsPassphrase && again !== '' && passphrase !== again ? 'The passphrases differ' : null
  const missing =
    info.passphrase === 'required' && passphrase === ''
      ? `A ${info.label} needs a passphrase`
      : null
  const unconfirmed = wantsPassphrase && passphrase !== '' && again !== passphrase
  const serviceFields = error
    ? fieldErrorsFrom(error.details, ['passphrase', 'format'] as const).fields
    : {}

  async function save() {
    setSaved(null)
    const result = await run(() =>
      bridge.call('certificates.export', {
        profileId: profile.id,
        id: certificate.id,
        format,
        ...(wantsPassphrase && passphrase !== '' ? { passphrase } : {}),
      }),
    )
    // null: the save dialog was cancelled; undefined: it failed (the error is shown).
    if (result) setSaved(result)
  }

  return (
    <Dialog
      open
      width="wide"
      title={`Export “${certificate.name}”`}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{saved ? 'Close' : 'Cancel'}</Button>
          <Button
            variant="primary"
            busy={busy}
            disabled={missing !== null || mismatch !== null || unconfirmed || !chosen.available}
            onClick={() => void save()}
          >
            {mode === 'desktop' ? 'Save as…' : 'Save to downloads'}
          </Button>
        </>
      }
    >
      <fieldset className="cert-formats">
        <legend className="field-label">Format</legend>
        {EXPORT_FORMATS.map((candidate) => {
          const candidateInfo = EXPORT_FORMAT_INFO[candidate]
          const candidateAvailability = availability?.[candidate] ?? SERVED
          const reasonId = `export-format-${candidate}-reason`
          return (
            <label
              key={candidate}
              className={
                candidateAvailability.available
                  ? 'choice-card cert-format'
                  : 'choice-card cert-format is-unavailable'
              }
            >
              <input
                type="radio"
                name="export-format"
                value={candidate}
                checked={format === candidate}
                disabled={!candidateAvailability.available}
                {...(candidateAvailability.available ? {} : { 'aria-describedby': reasonId })}
                onChange={() => {
                  setFormat(candidate)
                  // A passphrase typed for one format is never carried to another: a PEM
                  // bundle must not ship an encrypted key the user did not ask for there.
                  setPassphrase('')
                  setAgain('')
                  setSaved(null)
                  clearError()
                }}
              />
              <span>
                <span className="cert-format-label">
                  {candidateInfo.label} <code>{candidateInfo.extension}</code>
                </span>
                <span className="cert-format-description">{candidateInfo.description}</span>
                {candidateAvailability.available ? null : (
                  <span id={reasonId} className="cert-format-unavailable">
                    Unavailable: {candidateAvailability.reason}
                  </span>
                )}
              </span>
            </label>
          )
        })}
      </fieldset>
      {chosen.available && chosen.via === 'list' ? (
        <p className="cert-format-source" role="note">
          Written on this machine from the certificate the list carries (the service exports no file
          for it); checked against the listed certificate.
        </p>
      ) : null}
      {wantsPassphrase && chosen.available ? (
        <div className="cert-passphrase">
          <SecretField
            label={info.passphrase === 'required' ? 'Passphrase' : 'Passphrase (optional)'}
            value={passphrase}
            onChange={setPassphrase}
            error={
              serviceFields.passphrase ?? (passphrase === '' ? undefined : (missing ?? undefined))
            }
            hint={
              info.passphrase === 'required'
                ? 'Protects the keystore; you will need it to open the file.'
                : 'Leave empty for an unencrypted file.'
            }
          />
          <SecretField
            label="Passphrase again"
            value={again}
            onChange={setAgain}
            error={mismatch ?? undefined}
          />
        </div>
      ) : null}
      {error && !serviceFields.passphrase ? (
        <ErrorBanner error={error} context="Nothing was saved" />
      ) : null}
      {saved ? (
        <div className="banner banner-success" role="status" aria-label="Saved">
          <div className="banner-text">
            <div className="banner-title">Saved {formatBytes(saved.size)}</div>
            <div className="banner-message">
              <code className="cert-saved-path">{saved.path}</code>
            </div>
            {/* The file's hash, not the certificate's fingerprint (the details pane has that). */}
            <div className="banner-message mono-small cert-saved-hash">
              File SHA-256 {saved.sha256}
            </div>
            {/* Under the text, where they wrap: the dialog is narrow. */}
            <SavedFileActions
              transfer={{ id: saved.transferId, label: `${certificate.name} (${format})` }}
              path={saved.path}
            />
          </div>
        </div>
      ) : null}
    </Dialog>
  )
}

/** A masked field that no password manager should fill with a saved password. */
function SecretField(props: {
  label: string
  value: string
  onChange(value: string): void
  error: string | undefined
  hint?: string
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint}>
      {(control) => (
        <input
          {...control}
          className="input"
          type="password"
          autoComplete="new-password"
          value={props.value}
          onChange={(event) => props.onChange(event.target.value)}
        />
      )}
    </Field>
  )
}
