import { Fragment, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { BridgeError, Profile, Transfer } from '../../../../shared/bridge'
import { volumeExportInputSchema } from '../../../../shared/bridge/channels/volumes'
import { useAppStore } from '../../app/store'
import { useSettingsStore } from '../../app/settings-store'
import { asBridgeError, bridge } from '../../bridge'
import { fieldErrorsFrom } from '../../lib/errors'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { Field } from '../../ui/Field'
import { SuggestInput } from '../../ui/SuggestInput'
import { exactBytes, formatBytes } from '../transfers/format'
import { progressOf, useTransfersStore } from '../transfers/store'
import {
  durationOf,
  FileActions,
  TransferProgressView,
  TransferStateBadge,
} from '../transfers/TransferParts'
import { canRetry, RetryButton } from '../transfers/TransferButtons'
import { IdField } from '../ops-common/IdField'
import { OpForm } from '../ops-common/OpForm'
import { useOperationForm } from '../ops-common/useOperationForm'
import '../transfers/transfers.css'
import './volumes.css'

/*
 * Volume export (op 15): a node id and a volume name, then the archive streams to disk in the
 * main process. The screen shows each export of this profile as it runs (bytes, rate, time
 * left, resumes, cancel) and how it ended (path, size, verified SHA-256, or the error).
 */

const FIELDS = ['nodeId', 'name'] as const
const EXPORT_VOLUME = ['exportVolume'] as const
type FieldName = (typeof FIELDS)[number]
/** Finished exports shown under the running ones; the Transfers panel has them all. */
const RECENT_SHOWN = 5

interface SeedVolume {
  nodeId: string
  name: string
  sizeBytes?: number
}

function seedVolumes(seed: SandboxSeed): SeedVolume[] {
  const volumes = seed['volumes']
  if (!Array.isArray(volumes)) return []
  return volumes.filter(
    (item): item is SeedVolume =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as SeedVolume).nodeId === 'string' &&
      typeof (item as SeedVolume).name === 'string',
  )
}

export function VolumesScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const navigate = useAppStore((s) => s.navigate)
  const mode = useAppStore((s) => s.mode)
  const downloadsDir = useSettingsStore((s) => s.settings?.downloadsDir ?? null)
  const [nodeId, setNodeId] = useState(routeParams['nodeId'] ?? '')
  const [name, setName] = useState(routeParams['name'] ?? '')
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({})
  const [error, setError] = useState<BridgeError | null>(null)
  const [starting, setStarting] = useState(false)
  const [seeded, setSeeded] = useState<SeedVolume[]>([])
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(
    EXPORT_VOLUME,
    {
      fields: FIELDS,
      fill: (ids) => {
        if (ids['nodeId'] !== undefined) setNodeId(ids['nodeId'])
        if (ids['name'] !== undefined) setName(ids['name'])
      },
    },
    formRef,
  )

  const nodes = useIdSuggestions(profile, 'node', (seed) => {
    const volumes = seedVolumes(seed)
    setSeeded(volumes)
    return [...new Set(volumes.map((volume) => volume.nodeId))]
  })
  const volumes = useIdSuggestions(profile, 'volume', (seed) =>
    seedVolumes(seed).map((volume) => volume.name),
  )
  // Seeded names on the chosen node first: they are the ones that will work.
  const nameSuggestions = useMemo(() => {
    const onNode = seeded.filter((v) => v.nodeId === nodeId.trim()).map((v) => v.name)
    return [...new Set([...onNode, ...volumes.suggestions])]
  }, [seeded, nodeId, volumes.suggestions])

  const { rows, progress, connect, cancel } = useTransfersStore()
  useEffect(() => connect(), [connect])
  const mine = rows.filter((row) => row.kind === 'volume' && row.profileId === profile.id)
  const running = mine.filter((row) => row.state === 'running')
  const finished = mine.filter((row) => row.state !== 'running').slice(0, RECENT_SHOWN)

  async function submit() {
    setError(null)
    const parsed = volumeExportInputSchema.safeParse({ profileId: profile.id, nodeId, name })
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String),
        message: issue.message,
      }))
      setFieldErrors(fieldErrorsFrom(issues, FIELDS).fields)
      return
    }
    setFieldErrors({})
    setStarting(true)
    try {
      await bridge.call('volumes.export', parsed.data)
      nodes.remember(parsed.data.nodeId)
      volumes.remember(parsed.data.name)
      void useTransfersStore.getState().load()
    } catch (caught) {
      const bridgeError = asBridgeError(caught)
      const placed = fieldErrorsFrom(bridgeError.details, FIELDS)
      setFieldErrors(placed.fields)
      if (bridgeError.code !== 'CANCELLED' || mode !== 'desktop') setError(bridgeError)
    } finally {
      setStarting(false)
    }
  }

  const seededSize = seeded.find(
    (v) => v.nodeId === nodeId.trim() && v.name === name.trim(),
  )?.sizeBytes

  return (
    <section className="screen" aria-labelledby="volumes-title">
      <header className="screen-header">
        <div>
          <h1 id="volumes-title">Volume export</h1>
          <p className="screen-subtitle">
            Download a Docker volume as a <code>.tar.gz</code> archive from{' '}
            <strong>{profile.name}</strong>, streamed to disk and checked against the service’s size
            and SHA-256
          </p>
        </div>
      </header>

      <OpForm
        formRef={formRef}
        className="form volume-form"
        onSubmit={() => void submit()}
        noValidate
      >
        <IdField
          label="Node id"
          value={nodeId}
          onChange={setNodeId}
          error={fieldErrors.nodeId}
          hint="The Docker node holding the volume"
          known={nodes}
        />
        <Field
          label="Volume name"
          error={fieldErrors.name}
          hint={seededSize === undefined ? undefined : `Archive of ${exactBytes(seededSize)}`}
        >
          {(control) => (
            <SuggestInput
              {...control}
              value={name}
              onChange={(event) => setName(event.target.value)}
              suggestions={nameSuggestions}
              names={volumes.names}
              idKind={volumes.kind}
              onIdPasted={setName}
            />
          )}
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={starting} disabled={!profile.signedIn}>
            Export volume
          </Button>
          <span className="muted volume-where">
            {mode === 'desktop' ? (
              'You choose where to save it.'
            ) : (
              <>
                Saved to <code>{downloadsDir ?? 'the downloads folder'}</code> (
                <button type="button" className="volume-link" onClick={() => navigate('settings')}>
                  change in Settings
                </button>
                ); a taken name gets a number.
              </>
            )}
          </span>
        </div>
      </OpForm>

      {error ? <ErrorBanner error={error} context="Could not export the volume" /> : null}

      <ExportList
        title="Running"
        transfers={running}
        card={(transfer) => (
          <ExportCard
            transfer={transfer}
            beside={
              <Button
                size="small"
                variant="danger"
                onClick={() => void cancel(transfer.id)}
                aria-label={`Cancel the export of ${transfer.label}`}
              >
                Cancel
              </Button>
            }
          >
            <TransferProgressView
              progress={progressOf(transfer, progress)}
              label={transfer.label}
            />
          </ExportCard>
        )}
      />

      <ExportList
        title="Finished"
        transfers={finished}
        card={(transfer) => (
          <ExportCard
            finished
            transfer={transfer}
            beside={<span className="muted">{durationOf(transfer)}</span>}
          >
            {transfer.state === 'completed' ? (
              <dl className="volume-result">
                <dt>Saved to</dt>
                <dd className="mono-small" data-testid="volume-destination">
                  {transfer.destination}
                </dd>
                <dt>Size</dt>
                <dd title={exactBytes(transfer.bytesDone)}>{formatBytes(transfer.bytesDone)}</dd>
                <dt>File SHA-256</dt>
                <dd className="mono-small" data-testid="volume-sha256">
                  {transfer.sha256}{' '}
                  <span className="muted">
                    {transfer.source['sha256Announced'] === false
                      ? '(computed as it was written: the service announced none)'
                      : '(matches the service’s)'}
                  </span>
                </dd>
              </dl>
            ) : (
              <p className={transfer.state === 'failed' ? 'transfer-error' : 'muted'}>
                {transfer.errorCode ? <code>{transfer.errorCode}</code> : null}{' '}
                {transfer.errorMessage ?? 'No file was written.'}
              </p>
            )}
            <FileActions transfer={transfer} />
            {canRetry(transfer) ? (
              <div className="transfer-actions">
                <RetryButton transfer={transfer} />
              </div>
            ) : null}
          </ExportCard>
        )}
      >
        <button type="button" className="volume-link" onClick={() => navigate('transfers')}>
          All transfers
        </button>
      </ExportList>
    </section>
  )
}

/** Running or finished exports under their heading; nothing while there are none. */
function ExportList(props: {
  title: string
  transfers: Transfer[]
  card: (transfer: Transfer) => ReactNode
  /** Under the cards. */
  children?: ReactNode
}) {
  if (props.transfers.length === 0) return null
  return (
    <section aria-label={`${props.title} exports`} className="volume-list">
      <h2>{props.title}</h2>
      {props.transfers.map((transfer) => (
        <Fragment key={transfer.id}>{props.card(transfer)}</Fragment>
      ))}
      {props.children}
    </section>
  )
}

interface ExportCardProps {
  transfer: Transfer
  /** A finished card carries its end state (data-state); a running one's state still changes. */
  finished?: boolean
  /** After the name and the state badge: the cancel button, or how long the export took. */
  beside: ReactNode
  children: ReactNode
}

/** One export: its name and state, then its progress or its result. */
function ExportCard({ transfer, finished = false, beside, children }: ExportCardProps) {
  return (
    <article
      className="card volume-transfer"
      aria-label={`Export of ${transfer.label}`}
      data-state={finished ? transfer.state : undefined}
    >
      <div className="volume-transfer-head">
        <strong>{transfer.label}</strong>
        <TransferStateBadge state={transfer.state} />
        {beside}
      </div>
      {children}
    </article>
  )
}
