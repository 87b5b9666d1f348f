import { useEffect, useMemo, useState } from 'react'
import type { ListedTransfer, Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import { CopyButton } from '../../ui/CopyButton'
import { ScreenHeader } from '../../ui/ScreenHeader'
import { Table, type Column } from '../../ui/Table'
import { useNow } from '../../ui/useNow'
import { exactBytes, formatBytes } from './format'
import { progressOf, useTransfersStore } from './store'
import { ThroughputView } from './Throughput'
import { RetryButton } from './TransferButtons'
import { TransferName } from './TransferName'
import { durationOf, FileActions, TransferProgressView, TransferStateBadge } from './TransferParts'
import './transfers.css'

/**
 * Every export written to disk, from this run and earlier ones (the transfers log in SQLite):
 * what, for which profile, where, how big, its SHA-256, how it ended and how long it took.
 */
const WEB_NOTE = ' In the browser, copy a path to open the file from your file manager.'

/** The first and last characters of a hash, enough to compare by eye. */
function shortHash(hash: string): string {
  return hash.length <= 16 ? hash : `${hash.slice(0, 10)}…${hash.slice(-4)}`
}

/**
 * A destination on one line: the file name kept whole as long as it fits, the folder before it
 * ellipsised first; the whole path in the title and copied by Copy path.
 */
function DestinationPath({ path }: { path: string }) {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1
  return (
    <span className="mono-small transfer-path" data-testid="transfer-destination" title={path}>
      <span className="transfer-path-folder">{path.slice(0, cut)}</span>
      <span className="transfer-path-file">{path.slice(cut)}</span>
    </span>
  )
}

export function TransfersScreen({ profile }: { profile: Profile | null }) {
  const { rows, progress, throughput, loaded, error, connect, cancel } = useTransfersStore()
  const [onlyThisProfile, setOnlyThisProfile] = useState(false)
  const mode = useAppStore((s) => s.mode)
  const now = useNow()

  useEffect(() => connect(), [connect])

  const shown = useMemo(
    () => (onlyThisProfile && profile ? rows.filter((row) => row.profileId === profile.id) : rows),
    [rows, onlyThisProfile, profile],
  )

  const columns: Column<ListedTransfer>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (t) => <TransferName transfer={t} />,
    },
    {
      key: 'destination',
      header: 'Destination',
      className: 'col-path',
      render: (t) =>
        t.destination === null ? (
          <span className="muted">—</span>
        ) : (
          <DestinationPath path={t.destination} />
        ),
    },
    {
      key: 'size',
      header: 'Size',
      className: 'col-nowrap',
      render: (t) => {
        const bytes = t.state === 'completed' ? t.bytesDone : t.bytesTotal
        return bytes === null ? (
          <span className="muted">—</span>
        ) : (
          <span title={exactBytes(bytes)}>{formatBytes(bytes)}</span>
        )
      },
    },
    {
      key: 'sha256',
      header: 'File SHA-256',
      render: (t) =>
        t.sha256 === null ? (
          <span className="muted">—</span>
        ) : (
          <div className="transfer-hash-cell">
            {/* Shortened to one line; the whole hash is in the tooltip and copied by Copy. */}
            <span
              className="mono-small transfer-hash"
              data-testid="transfer-sha256"
              title={t.sha256}
            >
              {shortHash(t.sha256)}
            </span>
            <CopyButton
              value={t.sha256}
              what={`the SHA-256 of ${t.label}`}
              copiedNote="SHA-256 copied"
            />
          </div>
        ),
    },
    {
      key: 'state',
      header: 'State',
      render: (t) => (
        <div className="cell-stack transfer-state">
          <TransferStateBadge state={t.state} />
          {t.state === 'running' ? (
            <>
              <TransferProgressView progress={progressOf(t, progress)} label={t.label} />
              <ThroughputView
                label={t.label}
                samples={throughput[t.id]}
                progress={progressOf(t, progress)}
                startedAt={t.startedAt}
                now={now}
              />
              <Button size="small" variant="danger" onClick={() => void cancel(t.id)}>
                Cancel
              </Button>
            </>
          ) : null}
          <RetryButton transfer={t} />
          {t.errorMessage ? (
            <span className="transfer-error" title={t.errorCode ?? undefined}>
              {t.errorCode ? <code>{t.errorCode}</code> : null} {t.errorMessage}
            </span>
          ) : null}
        </div>
      ),
    },
    {
      key: 'started',
      header: 'Started',
      className: 'transfer-started',
      render: (t) => <RelativeTime at={t.startedAt} withLocal />,
    },
    {
      key: 'duration',
      header: 'Duration',
      className: 'col-nowrap',
      render: (t) => durationOf(t, now),
    },
    { key: 'actions', header: 'File', render: (t) => <FileActions transfer={t} /> },
  ]

  return (
    <section className="screen" aria-labelledby="transfers-title">
      <ScreenHeader
        heading={{
          id: 'transfers-title',
          title: 'Transfers',
          subtitle: `Every export written to disk, from this run and earlier ones.${mode === 'web' ? WEB_NOTE : ''}`,
        }}
        onlyProfile={
          profile
            ? { name: profile.name, checked: onlyThisProfile, onChange: setOnlyThisProfile }
            : null
        }
      />
      {error ? <ErrorBanner error={error} context="Could not read the transfers log" /> : null}
      {loaded ? (
        <Table
          label="Transfers"
          columns={columns}
          rows={shown}
          rowKey={(t) => t.id}
          rowClassName={(t) => `transfer-row transfer-${t.state}`}
          empty="No exports yet: volume archives and certificate files you export appear here."
        />
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  )
}
