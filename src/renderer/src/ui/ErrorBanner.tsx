import type { ReactNode } from 'react'
import type { BridgeError } from '../../../shared/bridge'
import { errorHeadline, missingPermissionOf } from '../lib/errors'
import { TrustCaFromError } from './TrustCaOffer'
import './banner.css'

interface ErrorBannerProps {
  error: BridgeError
  /** A short lead-in, e.g. "Could not refresh sessions". */
  context?: string
  /** E.g. a Retry button. */
  action?: ReactNode
}

/** An error as the service or the app reported it: code, meaning, status, message. */
export function ErrorBanner({ error, context, action }: ErrorBannerProps) {
  const permission = error.code === 'FORBIDDEN' ? missingPermissionOf(error.details) : null
  return (
    <div className="banner banner-error" role="alert">
      <div className="banner-text">
        {context ? <div className="banner-context">{context}</div> : null}
        <div className="banner-title">{errorHeadline(error)}</div>
        <div className="banner-message">{error.message}</div>
        {permission ? (
          <div className="banner-message">
            Missing permission: <code>{permission}</code>
          </div>
        ) : null}
        <TrustCaFromError error={error} />
      </div>
      {action ? <div className="banner-action">{action}</div> : null}
    </div>
  )
}
