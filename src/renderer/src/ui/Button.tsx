import type { ButtonHTMLAttributes } from 'react'
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
  const classes = ['btn', `btn-${variant}`, size === 'small' ? 'btn-small' : '', className ?? '']
  return (
    <button
      {...rest}
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
