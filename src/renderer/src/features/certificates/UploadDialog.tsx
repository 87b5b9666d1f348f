import { useState, type DragEvent } from 'react'
import {
  UPLOAD_FIELDS,
  type PemSource,
  type Profile,
  type UploadCheck,
  type UploadField,
} from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'
import { useBridgeRead } from '../../lib/use-bridge-read'
import { Button } from '../../ui/Button'
import { Dialog, DialogActions } from '../../ui/Dialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { Field } from '../../ui/Field'
import { FactsList } from './DetailsPane'
import { useAction } from './useAction'
import { choiceValue, FolderPicker, TOP, type FolderChoice } from './FolderPicker'
import type { FolderNode } from './model'
import { uploadWaitsFor } from './upload-readiness'

/*
 * Op 7. Each PEM comes from a file (web mode: a file input read in the page; Electron: main's
 * open dialog, the file staying in main), a drop onto its box, or a paste. Main checks the
 * material as it changes (parse, key match, chain order, expiry); problems block the upload
 * with their reasons on their fields, warnings are shown, the preview is read from the
 * certificate itself. Service errors land on their fields (409 on the name).
 */

type PemValue =
  { kind: 'text'; text: string } | { kind: 'staged'; stagedId: string; fileName: string }

const EMPTY: PemValue = { kind: 'text', text: '' }

function toSource(value: PemValue): PemSource {
  return value.kind === 'text' ? { pem: value.text } : { stagedId: value.stagedId }
}

function isEmpty(value: PemValue): boolean {
  return value.kind === 'text' && value.text.trim() === ''
}

/** The three PEM fields as one check asks about them. */
interface Material {
  certificate: PemValue
  privateKey: PemValue
  chain: PemValue
}

/** The same fields as they were, not merely equal text: each change makes a new value. */
function isSameMaterial(a: Material | null, b: Material): boolean {
  return (
    a !== null &&
    a.certificate === b.certificate &&
    a.privateKey === b.privateKey &&
    a.chain === b.chain
  )
}

interface UploadDialogProps {
  profile: Profile
  tree: FolderNode[]
  mode: 'desktop' | 'web'
  onClose(): void
  onUploaded(name: string): void
}

export function UploadDialog({ profile, tree, mode, onClose, onUploaded }: UploadDialogProps) {
  const [name, setName] = useState('')
  const [folder, setFolder] = useState<FolderChoice>({ option: TOP, typed: '' })
  const [certificate, setCertificate] = useState<PemValue>(EMPTY)
  const [privateKey, setPrivateKey] = useState<PemValue>(EMPTY)
  const [chain, setChain] = useState<PemValue>(EMPTY)
  const { busy, error, run, clearError } = useAction()
  const folderValue = choiceValue(folder)
  const ready = !isEmpty(certificate) && !isEmpty(privateKey)

  // The material the last check was asked about (set as it starts).
  const [askedAbout, setAskedAbout] = useState<Material | null>(null)
  // Checked in main as the material changes (a short pause after typing).
  const checked = useBridgeRead<UploadCheck | null>(
    () => {
      setAskedAbout({ certificate, privateKey, chain })
      return bridge.call('certificates.checkUpload', {
        certificate: toSource(certificate),
        privateKey: toSource(privateKey),
        ...(isEmpty(chain) ? {} : { chain: toSource(chain) }),
      })
    },
    [certificate, privateKey, chain],
    null,
    { enabled: ready, delayMs: 250 },
  )
  // A failed check's error is about the material it was asked for: it goes as soon as the
  // material changes and while the next check runs (it read as the new file's failure), and
  // comes back only if that check fails too.
  const checkError =
    !checked.loading && isSameMaterial(askedAbout, { certificate, privateKey, chain })
      ? checked.error
      : null
  // A failed check leaves nothing checked, until a check answers: an earlier answer's preview
  // and problems were about other material.
  const check = ready && checked.error === null ? checked.value : null

  const service = error ? fieldErrorsFrom(error.details, UPLOAD_FIELDS) : { fields: {}, other: [] }
  const problemOf = (field: UploadField) =>
    service.fields[field] ?? check?.problems.find((problem) => problem.field === field)?.message
  const warningsOf = (field: UploadField) =>
    check?.warnings
      .filter((warning) => warning.field === field)
      .map((warning) => warning.message) ?? []
  const blocked = check === null || check.problems.length > 0
  const nameError = name.trim() === '' ? undefined : service.fields.name

  async function upload() {
    if (blocked || folderValue.error || name.trim() === '') return
    const done = await run(() =>
      bridge.call('certificates.upload', {
        profileId: profile.id,
        name: name.trim(),
        folderId: folderValue.value,
        certificate: toSource(certificate),
        privateKey: toSource(privateKey),
        ...(isEmpty(chain) ? {} : { chain: toSource(chain) }),
      }),
    )
    if (done) onUploaded(name.trim())
  }

  const fieldProps = (field: 'certificatePem' | 'privateKeyPem' | 'chainPem') => ({
    field,
    mode,
    error: problemOf(field),
    warnings: warningsOf(field),
    onChosen: clearError,
  })

  const waitingFor = uploadWaitsFor({
    name,
    certificate: !isEmpty(certificate),
    privateKey: !isEmpty(privateKey),
    checked: check !== null,
    // Material changed after a failure is being checked again: "Checking…" until it answers.
    checkFailed: checkError !== null,
    problems: (check?.problems.length ?? 0) > 0 || folderValue.error !== null,
  })
  const uploadAction = {
    label: 'Upload',
    busy,
    disabled: waitingFor !== null,
    title: waitingFor ?? undefined,
    run: upload,
  }
  return (
    <Dialog
      open
      width="wide"
      title="Upload a certificate"
      onClose={onClose}
      footer={<DialogActions onCancel={onClose} action={uploadAction} />}
    >
      <Field label="Name" error={nameError}>
        {(control) => (
          <input
            {...control}
            className="input"
            value={name}
            maxLength={200}
            onChange={(event) => {
              setName(event.target.value)
              clearError()
            }}
          />
        )}
      </Field>
      <FolderPicker
        label="Folder"
        topLabel="No folder (top level)"
        tree={tree}
        choice={folder}
        onChange={setFolder}
        error={service.fields.folderId}
      />
      <PemField
        label="Certificate (PEM)"
        value={certificate}
        onChange={setCertificate}
        {...fieldProps('certificatePem')}
      />
      <PemField
        label="Private key (PEM)"
        value={privateKey}
        onChange={setPrivateKey}
        {...fieldProps('privateKeyPem')}
      />
      <PemField
        label="Chain (PEM, optional)"
        value={chain}
        onChange={setChain}
        {...fieldProps('chainPem')}
      />

      {checkError ? (
        <ErrorBanner error={checkError} context="The material could not be checked" />
      ) : null}
      {check?.encryptedKey ? (
        <p className="banner banner-info" role="note">
          Encrypted keys are recognised but not decrypted: Infradesk sends your key exactly as
          given.
        </p>
      ) : null}
      {check?.preview ? (
        <section className="cert-preview" aria-label="Preview">
          <h3>Preview</h3>
          <FactsList facts={check.preview} />
          {check.chain.length > 0 ? (
            <p className="muted">Chain: {check.chain.map((link) => link.subject).join(' → ')}</p>
          ) : null}
        </section>
      ) : null}
      {error && service.other.length + Object.keys(service.fields).length === 0 ? (
        <ErrorBanner error={error} context="The certificate was not uploaded" />
      ) : null}
      {service.other.map((message) => (
        <p key={message} className="field-error">
          {message}
        </p>
      ))}
    </Dialog>
  )
}

interface PemFieldProps {
  label: string
  field: 'certificatePem' | 'privateKeyPem' | 'chainPem'
  mode: 'desktop' | 'web'
  value: PemValue
  onChange(value: PemValue): void
  error: string | undefined
  warnings: string[]
  onChosen(): void
}

function PemField({
  label,
  field,
  mode,
  value,
  onChange,
  error,
  warnings,
  onChosen,
}: PemFieldProps) {
  const [dragging, setDragging] = useState(false)
  const [readError, setReadError] = useState<string | null>(null)

  async function readFile(file: File | undefined) {
    if (!file) return
    if (file.size > 1_048_576) {
      setReadError(`${file.name} is larger than 1 MiB: not a PEM file`)
      return
    }
    setReadError(null)
    onChange({ kind: 'text', text: await file.text() })
    onChosen()
  }

  async function chooseInMain() {
    try {
      const staged = await bridge.call('certificates.chooseFile', { field })
      if (staged) {
        onChange({ kind: 'staged', stagedId: staged.stagedId, fileName: staged.fileName })
        onChosen()
      }
    } catch (caught) {
      setReadError(asBridgeError(caught).message)
    }
  }

  function drop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    void readFile(event.dataTransfer.files[0])
  }

  return (
    <Field
      label={label}
      error={error ?? readError ?? undefined}
      hint={
        warnings.length > 0 ? (
          <ul className="cert-warnings">
            {warnings.map((warning) => (
              <li key={warning}>⚠ {warning}</li>
            ))}
          </ul>
        ) : (
          'Paste the PEM text, drop a file here, or choose a file.'
        )
      }
    >
      {(control) => (
        <div
          className={`cert-pem${dragging ? ' is-dragging' : ''}`}
          onDragOver={(event) => {
            event.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          {value.kind === 'staged' ? (
            <div className="cert-pem-file">
              <span>{value.fileName}</span>
              <Button size="small" onClick={() => onChange(EMPTY)}>
                Clear
              </Button>
            </div>
          ) : (
            <textarea
              {...control}
              className="input mono cert-pem-text"
              rows={4}
              spellCheck={false}
              value={value.text}
              placeholder="-----BEGIN …-----"
              onChange={(event) => onChange({ kind: 'text', text: event.target.value })}
            />
          )}
          <div className="cert-pem-actions">
            {mode === 'desktop' ? (
              <Button size="small" onClick={() => void chooseInMain()}>
                Choose file…
              </Button>
            ) : (
              <input
                type="file"
                aria-label={`${label}: file`}
                accept=".pem,.crt,.cer,.key,.txt,application/x-pem-file"
                onChange={(event) => {
                  void readFile(event.target.files?.[0])
                  event.target.value = ''
                }}
              />
            )}
          </div>
        </div>
      )}
    </Field>
  )
}
