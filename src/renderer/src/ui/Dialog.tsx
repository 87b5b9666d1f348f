import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button } from './Button'
import { trapTab } from './focus-trap'
import { useModalDialog } from './useModalDialog'
import './dialog.css'

interface DialogProps {
  open: boolean
  title: ReactNode
  /** Called on Esc and on the close button; the owner decides whether to close. */
  onClose: () => void
  children: ReactNode
  /** Buttons at the bottom, right-aligned. */
  footer?: ReactNode
  width?: 'narrow' | 'wide'
}

/**
 * A modal dialog on the native `<dialog>` element: the browser makes the page behind it inert
 * and turns Esc into a `cancel` event, which we route to `onClose`; Tab cycles within it
 * (focus-trap.ts), and the focus goes back where it was when it closes.
 */
export function Dialog(props: DialogProps) {
  return props.open ? <OpenDialog {...props} /> : null
}

function OpenDialog({ title, onClose, children, footer, width = 'narrow' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  }, [onClose])

  // showModal() focuses the first focusable element, which is the close button; start on the
  // element marked data-autofocus, else the first field, which is where the user will type.
  useModalDialog(ref, (dialog) =>
    dialog.querySelector<HTMLElement>(
      '[data-autofocus], .dialog-body input:not([type="hidden"]), .dialog-body select, .dialog-body textarea',
    ),
  )

  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${width}`}
      aria-labelledby={titleId}
      onKeyDown={(event) => trapTab(event, ref.current)}
      onCancel={(event) => {
        event.preventDefault()
        onCloseRef.current()
      }}
    >
      <header className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button
          type="button"
          className="dialog-close"
          aria-label="Close"
          onClick={() => onCloseRef.current()}
        >
          ×
        </button>
      </header>
      <div className="dialog-body">{children}</div>
      {footer ? <footer className="dialog-footer">{footer}</footer> : null}
    </dialog>
  )
}

/** The one thing a dialog does, for its footer (DialogActions). */
export interface DialogAction {
  label: string
  busy: boolean
  disabled: boolean
  /** Why it is disabled: a tooltip, and a note beside the buttons. */
  title?: string | undefined
  run(): unknown
}

/** A dialog's footer: Cancel, then its one action. */
export function DialogActions({ onCancel, action }: { onCancel(): void; action: DialogAction }) {
  // Why the action cannot be taken yet, in the footer beside it: a tooltip alone reaches
  // neither the keyboard nor a glance.
  const reason = action.disabled && !action.busy ? action.title : undefined
  return (
    <>
      {reason ? (
        <p className="dialog-footer-note" role="status">
          {reason}
        </p>
      ) : null}
      <Button onClick={onCancel}>Cancel</Button>
      <Button
        variant="primary"
        busy={action.busy}
        disabled={action.disabled}
        title={action.title}
        onClick={() => void action.run()}
      >
        {action.label}
      </Button>
    </>
  )
}
