import type { BridgeError, VaultStatus } from '../../../shared/bridge'
import { bridge } from '../bridge'
import { errorHeadline } from '../lib/errors'
import { useBridgeRead } from '../lib/use-bridge-read'
import { Button } from '../ui/Button'

/**
 * The keychain's state, asked once per form; null until known. A failed ask reads as a keychain
 * that cannot be used, with the failure as its reason: the form shows it where it shows the
 * keychain's state, and offers the session-only way that does not need the keychain.
 */
export function useVaultStatus(): VaultStatus | null {
  const status = useBridgeRead(() => bridge.call('vault.status', {}), [], null)
  if (status.error) {
    return {
      available: false,
      reason: `Infradesk could not ask the keychain: ${errorHeadline(status.error)}. ${status.error.message}`,
    }
  }
  return status.value
}

export const SESSION_ONLY_EXPLANATION =
  'The token is kept in memory only: it is forgotten when Infradesk quits and is never written to disk.'

interface KeychainProblemProps {
  vault: VaultStatus | null
  /** The KEYCHAIN_UNAVAILABLE error, when a save just failed on it. */
  error: BridgeError | null
  busy: boolean
  /** Retries the same submission with `sessionOnly: true`. */
  onKeepForSession: (() => void) | null
}

/** The `{ reason, fix }` a KEYCHAIN_UNAVAILABLE error carries in its details, if any. */
function problemOf(details: unknown): { reason?: string; fix?: string } {
  if (typeof details !== 'object' || details === null) return {}
  const { reason, fix } = details as Record<string, unknown>
  return {
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof fix === 'string' ? { fix } : {}),
  }
}

/** Says that the keychain cannot be used, why, how to fix it, and offers the session-only way. */
export function KeychainProblem({ vault, error, busy, onKeepForSession }: KeychainProblemProps) {
  if (!error && (vault === null || vault.available)) return null
  const fromError = problemOf(error?.details)
  const reason = fromError.reason ?? vault?.reason
  const fix = fromError.fix ?? vault?.fix
  return (
    <div className="banner banner-warning" role={error ? 'alert' : 'status'}>
      <div className="banner-text">
        <div className="banner-title">The system keychain cannot be used</div>
        {reason ? (
          <div className="banner-message">{reason}</div>
        ) : error ? (
          <div className="banner-message">{error.message}</div>
        ) : null}
        {fix ? <div className="banner-message">How to fix it: {fix}</div> : null}
        <div className="banner-message">
          You can keep the token for this session only. {SESSION_ONLY_EXPLANATION}
        </div>
      </div>
      {onKeepForSession ? (
        <div className="banner-action">
          <Button variant="primary" onClick={onKeepForSession} busy={busy}>
            Keep for this session only
          </Button>
        </div>
      ) : null}
    </div>
  )
}
