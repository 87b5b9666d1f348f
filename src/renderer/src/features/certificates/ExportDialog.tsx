import { useState } from 'react'
import { EXPORT_FORMATS, type ExportFormat } from '../../../../shared/api'
import {
  EXPORT_FORMAT_INFO,
  type ChannelOutput,
  type CertificateRow,
  type Profile,
} from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'
import { Button } from '../../ui/Button'
import { Dialog } from '../../ui/Dialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { Field } from '../../ui/Field'
import { formatBytes } from '../transfers/format'
import { useAction } from './useAction'

/*
 * Op 12: the 8 formats, each with what its file holds; a passphrase (masked, typed twice) for
 * the formats that carry or protect a key, cleared whenever the format changes. Main fetches and writes the file; this dialog only
 * learns where it went, its size and SHA-256.
 */

type Saved = NonNullable<ChannelOutput<'certificates.export'>>

interface ExportDialogProps {
  profile: Profile
  certificate: CertificateRow
  mode: 'desktop' | 'web'
  onClose(): void
}

export function ExportDialog({ profile, certificate, mode, onClose }: ExportDialogProps) {
  const [format, setFormat] = useState<ExportFormat>('pem')
  const [passphrase, setPassphrase] = useState('')
  const [again, setAgain] = useState('')
  const { busy, error, run, clearError } = useAction()
  const [saved, setSaved] = useState<Saved | null>(null)
  const [copied, setCopied] = useState(false)
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
    setCopied(false)
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
            disabled={missing !== null || mismatch !== null || unconfirmed}
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
          return (
            <label key={candidate} className="choice-card cert-format">
              <input
                type="radio"
                name="export-format"
                value={candidate}
                checked={format === candidate}
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
              </span>
            </label>
          )
        })}
      </fieldset>
      {wantsPassphrase ? (
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
            <div className="banner-message mono-small cert-saved-hash">SHA-256 {saved.sha256}</div>
          </div>
          <div className="banner-action">
            <Button
              onClick={() => {
                void navigator.clipboard.writeText(saved.path).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }}
            >
              {copied ? 'Copied' : 'Copy path'}
            </Button>
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
