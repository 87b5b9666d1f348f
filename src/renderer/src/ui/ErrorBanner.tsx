import type { ReactNode } from 'react'
import type { BridgeError } from '../../../shared/bridge'
import { operationHeadline, whereRightIdsComeFrom } from '../lib/error-headlines'
import { errorHeadline, missingPermissionOf } from '../lib/errors'
import { Button } from './Button'
import { TrustCaFromError } from './TrustCaOffer'
import './banner.css'

interface ErrorBannerProps {
  /** Null shows nothing, so a screen can place the banner where its load's error goes. */
  error: BridgeError | null
  /** A short lead-in, e.g. "Could not refresh sessions". */
  context?: string
  /** E.g. the permission a write needs. */
  action?: ReactNode
  /** A Retry button in the action's place, for a load the screen can repeat. */
  onRetry?: () => unknown
  /** More of the same error, inside its box after the message (PostgreSQL's own words). */
  children?: ReactNode
}

/**
 * An error as the service or the app reported it. A service error of a known operation leads
 * with what it means for that operation, then the service's own words; its code and HTTP status
 * come last, small, for whoever searches a log with them (a raw "UNPROCESSABLE_ENTITY (422)"
 * read as the headline of a SQL error, above PostgreSQL's own message). An error without an
 * operation's sentence (the app's own: offline, a bad URL) keeps "CODE — meaning" as its title.
 */
export function ErrorBanner({ error, context, onRetry, children, ...props }: ErrorBannerProps) {
  if (error === null) return null
  const action = onRetry ? <Button onClick={() => void onRetry()}>Retry</Button> : props.action
  const permission = error.code === 'FORBIDDEN' ? missingPermissionOf(error.details) : null
  const sentence = operationHeadline(error)
  const whereIds = whereRightIdsComeFrom(error)
  return (
    <div className="banner banner-error" role="alert">
      <div className="banner-text">
        {context ? <div className="banner-context">{context}</div> : null}
        <div className="banner-title">{sentence ?? errorHeadline(error)}</div>
        {/* A 404 on an id: where a right one comes from, under the headline. */}
        {whereIds ? <div className="banner-message">{whereIds}</div> : null}
        <div className="banner-message">{error.message}</div>
        {permission ? (
          <div className="banner-message">
            Missing permission: <code>{permission}</code>
          </div>
        ) : null}
        {children}
        <TrustCaFromError error={error} />
        {sentence ? <div className="banner-code">{errorHeadline(error)}</div> : null}
      </div>
      {action ? <div className="banner-action">{action}</div> : null}
    </div>
  )
}
