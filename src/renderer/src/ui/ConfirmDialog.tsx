import type { ReactNode } from 'react'
import type { BridgeError } from '../../../shared/bridge'
import { Button } from './Button'
import { Dialog } from './Dialog'
import { ErrorBanner } from './ErrorBanner'

interface ConfirmDialogProps {
  open: boolean
  title: string
  children: ReactNode
  confirmLabel: string
  tone?: 'primary' | 'danger'
  busy?: boolean
  error?: BridgeError | null
  onConfirm: () => void
  onCancel: () => void
}

/** "Are you sure?" with the consequences spelled out; the safe choice has the focus. */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  tone = 'danger',
  busy = false,
  error = null,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      title={title}
      onClose={busy ? () => undefined : onCancel}
      footer={
        <>
          <Button onClick={onCancel} disabled={busy} data-autofocus>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} busy={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="confirm-text">{children}</div>
      {error ? <ErrorBanner error={error} /> : null}
    </Dialog>
  )
}
