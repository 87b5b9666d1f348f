import type { ReactNode } from 'react'
import { Button } from './Button'
import './banner.css'

/*
 * A one-line banner the user puts away: a done notice (success, announced politely) or a
 * request the app could not make (warning, announced at once).
 */

interface DismissibleBannerProps {
  tone: 'success' | 'warning'
  /** The banner's accessible name, where the message alone does not say what it is about. */
  label?: string
  children: ReactNode
  onDismiss(): void
}

export function DismissibleBanner({ tone, label, children, onDismiss }: DismissibleBannerProps) {
  return (
    <div
      className={`banner banner-${tone}`}
      role={tone === 'success' ? 'status' : 'alert'}
      aria-label={label}
    >
      <div className="banner-text">
        <div className="banner-message">{children}</div>
      </div>
      <div className="banner-action">
        <Button size="small" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </div>
  )
}
