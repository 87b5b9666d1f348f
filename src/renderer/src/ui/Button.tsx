import {
  useEffect,
  useLayoutEffect,
  useRef,
  type ButtonHTMLAttributes,
  type RefObject,
} from 'react'
import './control.css'
import './button.css'

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost'

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant
  size?: 'normal' | 'small'
  /** Shows a busy state and blocks clicks while an action runs. */
  busy?: boolean
}

export function Button({
  variant = 'secondary',
  size = 'normal',
  busy = false,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  const ref = useRef<HTMLButtonElement>(null)
  useFocusKeptWhileBusy(ref, busy)
  const classes = ['btn', `btn-${variant}`, size === 'small' ? 'btn-small' : '', className ?? '']
  return (
    <button
      {...rest}
      ref={ref}
      type={type}
      className={classes.filter(Boolean).join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  )
}

/**
 * A busy button is disabled, and the browser drops the focus of a disabled element to the page
 * itself: after "Move folder" failed in its dialog, a keyboard user was nowhere (Tab restarted,
 * Enter did nothing). When the action ends and nothing else took the focus meanwhile, it goes
 * back to the button that had it.
 */
function useFocusKeptWhileBusy(ref: RefObject<HTMLButtonElement | null>, busy: boolean) {
  const hadFocus = useRef(false)
  // Before the browser moves the focus off the now disabled button (it does so when it next
  // updates the rendering, after this layout effect).
  useLayoutEffect(() => {
    if (busy) hadFocus.current = document.activeElement === ref.current
  }, [busy, ref])
  useEffect(() => {
    if (busy || !hadFocus.current) return
    hadFocus.current = false
    const button = ref.current
    const focusIsNowhere =
      document.activeElement === null || document.activeElement === document.body
    if (button && !button.disabled && focusIsNowhere) button.focus()
  }, [busy, ref])
}
