import { useState } from 'react'
import type { Transfer } from '../../../../shared/bridge'
import { asBridgeError, bridge } from '../../bridge'
import { Button } from '../../ui/Button'
import { StatusNote } from '../../ui/StatusNote'

/*
 * What a transfer row offers beyond its file's path: web mode's "Download to this browser"
 * (the file is on the host's disk; the browser may be on another machine) and Retry for a
 * volume download that did not finish.
 */

/**
 * A button's call: the note cleared as it starts, busy while it runs, then the note the call
 * gives (none) or the refusal's message.
 */
function useNotedCall(onNote: (note: string | null) => void) {
  const [busy, setBusy] = useState(false)
  const run = (call: () => Promise<string | null>) => {
    onNote(null)
    setBusy(true)
    call()
      .then(onNote, (error: unknown) => onNote(asBridgeError(error).message))
      .finally(() => setBusy(false))
  }
  return { busy, run }
}

/**
 * Asks main for a one-time address of the file (the bridge call carries the launch secret;
 * a download cannot), then lets the browser fetch it: the host answers it once, as an
 * attachment, so the page stays where it is.
 */
export function BrowserDownloadButton({
  transfer,
  onNote,
}: {
  /** The transfer that wrote the file (any screen's export: each is one). */
  transfer: Pick<Transfer, 'id' | 'label'>
  onNote(note: string | null): void
}) {
  const { busy, run } = useNotedCall(onNote)
  const download = () =>
    run(async () => {
      const { path } = await bridge.call('transfers.downloadTicket', { transferId: transfer.id })
      const link = document.createElement('a')
      link.href = path
      link.rel = 'noopener'
      link.click()
      return null
    })
  return (
    <Button
      size="small"
      busy={busy}
      onClick={download}
      aria-label={`Download ${transfer.label} to this browser`}
    >
      Download to this browser
    </Button>
  )
}

/** Ends a volume download can be retried from (the same set main accepts). */
const RETRYABLE: ReadonlySet<Transfer['state']> = new Set(['failed', 'cancelled', 'interrupted'])

export function canRetry(transfer: Transfer): boolean {
  return transfer.kind === 'volume' && RETRYABLE.has(transfer.state)
}

/** Exports the same volume again; the new transfer appears in the log as it starts. */
export function RetryButton({ transfer }: { transfer: Transfer }) {
  const [note, setNote] = useState<string | null>(null)
  const { busy, run } = useNotedCall(setNote)
  if (!canRetry(transfer)) return null
  const retry = () =>
    run(async () => {
      await bridge.call('transfers.retry', { transferId: transfer.id })
      return 'Started again'
    })
  return (
    <>
      <Button size="small" busy={busy} onClick={retry} aria-label={`Retry ${transfer.label}`}>
        Retry
      </Button>
      <StatusNote note={note} />
    </>
  )
}
