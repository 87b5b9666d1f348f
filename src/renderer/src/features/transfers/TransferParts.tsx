import { useState } from 'react'
import type { ListedTransfer, Transfer } from '../../../../shared/bridge'
import type { TransferProgress } from '../../../../shared/bridge/channels/volumes'
import { useAppStore } from '../../app/store'
import { asBridgeError, bridge } from '../../bridge'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { StatusNote } from '../../ui/StatusNote'
import { BrowserDownloadButton } from './TransferButtons'
import { exactBytes, formatBytes, formatDuration, formatRate } from './format'
import { copyWithNote } from '../../ui/CopyButton'

/*
 * Pieces both transfer views use: a running transfer's progress (bar, bytes, rate, time left,
 * resumes), its state badge, and what can be done with a finished file (Electron: show it or
 * open its folder; web mode: copy the path, since the browser cannot open the file manager).
 */

export function TransferProgressView({
  progress,
  label,
}: {
  progress: TransferProgress
  label: string
}) {
  const { bytesDone, bytesTotal } = progress
  const percent = bytesTotal !== null && bytesTotal > 0 ? (bytesDone / bytesTotal) * 100 : null
  return (
    <div className="transfer-progress">
      <progress
        className="transfer-bar"
        aria-label={`${label} progress`}
        max={bytesTotal ?? undefined}
        value={bytesTotal === null ? undefined : bytesDone}
      />
      <div className="transfer-figures" aria-live="off">
        <span title={exactBytes(bytesDone)} data-testid="transfer-bytes">
          {formatBytes(bytesDone)}
          {bytesTotal === null ? '' : ` of ${formatBytes(bytesTotal)}`}
          {percent === null ? '' : ` (${percent.toFixed(percent >= 10 ? 0 : 1)} %)`}
        </span>
        {progress.phase === 'verifying' ? (
          <span>Verifying size and SHA-256…</span>
        ) : (
          <>
            <span>{formatRate(progress.bytesPerSecond)}</span>
            <span>{formatDuration(progress.secondsLeft)} left</span>
          </>
        )}
        {progress.resumes > 0 ? (
          <span data-testid="transfer-resumes">
            Resumed {progress.resumes}× after a dropped connection
          </span>
        ) : null}
        {progress.restarts > 0 ? (
          <span>Restarted {progress.restarts}× (the server sent the whole file again)</span>
        ) : null}
      </div>
    </div>
  )
}

const STATE_BADGES: Record<
  Transfer['state'],
  { tone: 'info' | 'success' | 'danger' | 'warning' | 'neutral'; text: string }
> = {
  running: { tone: 'info', text: 'Running' },
  completed: { tone: 'success', text: 'Completed' },
  failed: { tone: 'danger', text: 'Failed' },
  cancelled: { tone: 'neutral', text: 'Cancelled' },
  interrupted: { tone: 'warning', text: 'Interrupted' },
}

export function TransferStateBadge({ state }: { state: Transfer['state'] }) {
  const badge = STATE_BADGES[state]
  return <Badge tone={badge.tone}>{badge.text}</Badge>
}

/** Time from start to end, or so far for a running transfer. */
export function durationOf(transfer: Transfer, now = Date.now()): string {
  const end = transfer.finishedAt ?? now
  return formatDuration(Math.max(0, (end - transfer.startedAt) / 1000))
}

export function FileActions({ transfer }: { transfer: ListedTransfer }) {
  const destination = transfer.destination
  if (destination === null || transfer.state !== 'completed') return null
  if (transfer.fileMissing === true) {
    return (
      <span className="transfer-missing" data-testid="transfer-missing">
        The file is no longer on disk: it was moved or deleted
      </span>
    )
  }
  return <SavedFileActions transfer={transfer} path={destination} />
}

/**
 * What can be done with a file an export wrote, the same on every screen that writes one (a
 * Transfers row, the certificate Export dialog, the Expiring list's exports): Electron shows it
 * or opens its folder; web mode downloads it to this browser (the file is on the host's disk,
 * the browser may be elsewhere); both copy its path.
 */
export function SavedFileActions({
  transfer,
  path,
}: {
  /** The transfer that wrote it. */
  transfer: Pick<Transfer, 'id' | 'label'>
  path: string
}) {
  const mode = useAppStore((s) => s.mode)
  const [note, setNote] = useState<string | null>(null)

  const reveal = (target: 'file' | 'folder') => {
    setNote(null)
    bridge.call('transfers.reveal', { transferId: transfer.id, target }).then(
      ({ shown }) => setNote(shown ? null : 'Not available here: copy the path instead'),
      (error: unknown) => setNote(asBridgeError(error).message),
    )
  }
  const copy = () => copyWithNote(path, setNote, 'Path copied', 'path')

  return (
    <div className="transfer-actions">
      {mode === 'desktop' ? (
        <>
          <Button size="small" onClick={() => reveal('file')}>
            Show file
          </Button>
          <Button size="small" onClick={() => reveal('folder')}>
            Open folder
          </Button>
        </>
      ) : null}
      {mode === 'web' ? <BrowserDownloadButton transfer={transfer} onNote={setNote} /> : null}
      <Button size="small" onClick={copy} aria-label={`Copy the path of ${transfer.label}`}>
        Copy path
      </Button>
      <StatusNote note={note} />
    </div>
  )
}
