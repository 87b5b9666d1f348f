import { useEffect, useRef, useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import type { RotationRecord } from '../../../../shared/bridge/channels/operations'
import { useAppStore } from '../../app/store'
import { bridge } from '../../bridge'
import { useSchemaForm } from '../../lib/schema-form'
import { useIdSuggestions } from '../../lib/suggestions'
import { useBridgeRead } from '../../lib/use-bridge-read'
import { concerns } from '../../lib/cache-events'
import { formatLocalFull } from '../../lib/time'
import { Badge } from '../../ui/Badge'
import { Checkbox } from '../../ui/CheckboxField'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { KnownName } from '../../ui/KnownName'
import { RelativeTime } from '../../ui/RelativeTime'
import { Table, type Column } from '../../ui/Table'
import { isRecord, text } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { ValueTable } from '../ops-common/ValueTable'
import { useOperationForm, schemaFormFill } from '../ops-common/useOperationForm'
import { WriteForm } from '../ops-common/WriteForm'
import '../ops-common/ops.css'

/*
 * Database certificates: rotate a managed database's direct-TLS certificate (op 8). The dialog
 * explains the three ways an engine takes the new certificate; `allowRestart` is an explicit
 * choice, off by default. A scheduled reread finishes later: the main process follows it and
 * the screen updates when it is due.
 */

const MODE_WORDS: Record<string, string> = {
  reloaded_in_place: 'Reloaded in place — the engine kept serving',
  restarted: 'Restarted — the engine was restarted to load it',
  scheduled_reread: 'Scheduled reread — the engine picks it up on its own schedule',
}

function serialOf(answer: Record<string, unknown>): string | null {
  return text(answer['certificate'], 'serialNumber') ?? text(answer, 'serialNumber')
}

function StatusBadge({ rotation }: { rotation: RotationRecord }) {
  return rotation.status === 'pending' ? (
    <Badge tone="warning">Pending</Badge>
  ) : (
    <Badge tone="success">Completed</Badge>
  )
}

const HISTORY_COLUMNS: Column<RotationRecord>[] = [
  { key: 'at', header: 'Requested', render: (r) => <RelativeTime at={r.requestedAt} withLocal /> },
  {
    key: 'database',
    header: 'Database',
    className: 'col-mono',
    render: (r) => <KnownName id={r.databaseId} />,
  },
  {
    key: 'mode',
    header: 'How',
    render: (r) => {
      const mode = text(r.answer, 'mode')
      return mode === null ? <span className="muted">—</span> : mode.replace(/_/g, ' ')
    },
  },
  { key: 'status', header: 'Status', render: (r) => <StatusBadge rotation={r} /> },
  {
    key: 'serial',
    header: 'New serial',
    className: 'col-mono',
    render: (r) => serialOf(r.answer) ?? <span className="muted">—</span>,
  },
]

const ROTATE_DATABASE_CERTIFICATE = ['rotateDatabaseCertificate'] as const

export function DatabasesScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(operations.rotateDatabaseCertificate.params, {
    id: routeParams['id'] ?? '',
  })
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(ROTATE_DATABASE_CERTIFICATE, schemaFormFill(form), formRef)
  const databaseId = form.values.id
  const [allowRestart, setAllowRestart] = useState(false)
  const databases = useIdSuggestions(profile, 'database', (seed) => {
    const byEngine = seed['databases'] as Record<string, string[]>
    return [
      ...(byEngine['postgres'] ?? []),
      ...(byEngine['redis'] ?? []),
      ...(byEngine['clickhouse'] ?? []),
    ]
  })
  const rotate = useWrite<RotationRecord>(profile, form, true)

  const history = useBridgeRead(
    () => bridge.call('databases.rotations', { profileId: profile.id }),
    [profile.id],
    [],
  )
  const loadHistory = history.reload

  useEffect(() => {
    const offSettled = bridge.on('databases.rotationSettled', (event) => {
      if (event.profileId === profile.id) loadHistory()
    })
    const offChanged = bridge.on('cache.changed', (change) => {
      if (concerns(change, ['rotations'], profile.id)) {
        loadHistory()
      }
    })
    return () => {
      offSettled()
      offChanged()
    }
  }, [loadHistory, profile.id])

  async function send() {
    const request = { profileId: profile.id, databaseId, allowRestart }
    const outcome = await rotate.send(() => bridge.call('databases.rotate', request))
    if (outcome.ok) {
      databases.remember(request.databaseId)
      loadHistory()
    }
  }

  // The rotation as it is now: the history follows the scheduled reread to its end.
  const latest =
    rotate.value === null
      ? null
      : (history.value.find((entry) => entry.id === rotate.value?.id) ?? rotate.value)
  const answer = latest?.answer
  const mode = answer ? text(answer, 'mode') : null
  const serial = answer ? serialOf(answer) : null
  const previousSerial = answer ? text(answer, 'previousSerialNumber') : null

  return (
    <OpScreen
      title="Database certificates"
      doing="Rotate a managed database’s direct-TLS certificate on"
      profile={profile}
    >
      <WriteForm
        write={rotate}
        formRef={formRef}
        danger
        label="Rotate a database certificate"
        submitLabel="Rotate certificate…"
        failure="The certificate was not rotated"
        send={send}
        confirmTitle="Rotate this database’s certificate?"
        confirmText={
          <>
            <p>
              Database <KnownName id={databaseId} /> gets a new direct-TLS certificate; clients that
              pin the old one must be updated.
            </p>
            <p>
              {allowRestart ? (
                <strong>
                  A restart is allowed: the engine may be restarted, dropping connections.
                </strong>
              ) : (
                'No restart is allowed: the engine reloads in place; an engine that rereads on a schedule finishes later, and this screen says when. (A node whose daemon cannot reload yet still restarts it.)'
              )}
            </p>
          </>
        }
        outcome={
          <>
            {latest && answer ? (
              <>
                {latest.status === 'pending' ? (
                  <div
                    className="banner banner-warning"
                    role="status"
                    aria-label="Rotation outcome"
                  >
                    <div className="banner-text">
                      <div className="banner-title">
                        Rotation pending: the engine rereads the certificate on its schedule
                      </div>
                      <div className="banner-message">
                        New serial <code>{serial ?? '—'}</code> is issued; the engine takes it by{' '}
                        {latest.completesAt === null
                          ? 'later'
                          : formatLocalFull(latest.completesAt)}
                        . This updates when it finishes.
                      </div>
                    </div>
                  </div>
                ) : (
                  <div role="status" aria-label="Rotation outcome">
                    <Outcome title="Certificate rotated">
                      {mode ? (MODE_WORDS[mode] ?? mode) : 'The service did not say how'}
                      {latest.completesAt !== null ? ' (the scheduled reread has finished)' : ''}.
                      New serial <code aria-label="New serial">{serial ?? '—'}</code>
                      {previousSerial ? (
                        <>
                          , replacing <code>{previousSerial}</code>
                        </>
                      ) : null}
                      .
                    </Outcome>
                  </div>
                )}
                {isRecord(answer) ? (
                  <div className="op-section">
                    <h2>The service’s answer</h2>
                    <ValueTable value={answer} label="Rotation answer" />
                  </div>
                ) : null}
              </>
            ) : null}

            <div className="op-section">
              <h2>Rotations requested from this app</h2>
              {history.error ? (
                <ErrorBanner error={history.error} context="Could not read the rotations" />
              ) : null}
              <Table
                label="Rotations"
                columns={HISTORY_COLUMNS}
                rows={history.value}
                rowKey={(r) => r.id}
                empty="None yet."
              />
            </div>
          </>
        }
      >
        <IdField label="Database ID" {...form.field('id')} known={databases} />
        <ul className="op-explain" aria-label="How the engine takes the new certificate">
          <li>
            <strong>In-place reload</strong> (the usual case): the database certificate authority
            issues a new certificate and the running engine reloads it. PostgreSQL, Redis and
            ClickHouse keep serving.
          </li>
          <li>
            <strong>Restart</strong>: only when you allow it below, or when the node’s daemon cannot
            reload certificates yet. Clients are disconnected while the engine restarts.
          </li>
          <li>
            <strong>Scheduled reread</strong>: an engine that rereads its certificate on a schedule
            (ClickHouse) takes it later; without a restart the rotation is <em>pending</em> until
            then, and this screen updates when it finishes.
          </li>
        </ul>
        <Checkbox checked={allowRestart} onChange={setAllowRestart}>
          Allow a restart of the database engine if it needs one (open connections drop)
        </Checkbox>
      </WriteForm>
    </OpScreen>
  )
}
