import type { BridgeError } from '../../../../shared/bridge'
import { WORK_FAILED, workFailureOf } from '../../../../shared/api'
import { Badge } from '../../ui/Badge'
import { OpenActivity } from './Outcome'
import { ValueTable } from './ValueTable'
import '../../ui/banner.css'

/*
 * A write the service answered with 2xx while its answer says the work failed (`data.status`
 * `error` or `failed`, shared/api/work-failure.ts). Shown as the failure it is: the status, the
 * service's `lastError` in its own words, and the answer whole beneath, unknown fields included.
 */

/** Whether a write's error is a failed-work answer (then WorkFailed shows it). */
export function isWorkFailed(error: BridgeError | null): error is BridgeError {
  return error?.code === WORK_FAILED
}

export function WorkFailed({ error, context }: { error: BridgeError; context: string }) {
  const failure = workFailureOf(error.details)
  return (
    <div className="banner banner-error" role="alert">
      <div className="banner-text">
        <div className="banner-context">{context}</div>
        <div className="banner-title">
          The service answered, but says the work failed:{' '}
          <span aria-label={`Reported status: ${failure?.status ?? 'unknown'}`}>
            <Badge tone="danger">{failure?.status ?? 'failed'}</Badge>
          </span>
        </div>
        <div className="banner-message">
          <strong>Last error: </strong>
          {failure?.lastError === null || failure === null ? (
            <span className="muted">the service gave no reason (no lastError)</span>
          ) : (
            <span className="work-failed-reason">{failure.lastError}</span>
          )}
        </div>
        <div className="banner-context">Recorded in the Activity log as failed.</div>
        {failure ? (
          <details className="work-failed-answer">
            <summary>The answer as the service returned it</summary>
            <ValueTable value={failure.data} label="The failed answer" />
          </details>
        ) : null}
      </div>
      <OpenActivity />
    </div>
  )
}
