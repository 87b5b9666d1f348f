import { useEffect, useState } from 'react'
import type { BridgeError, VaultStatus } from '../../../shared/bridge'
import { bridge } from '../bridge'
import { Button } from '../ui/Button'

/** The keychain's state, asked once per form; null until known (or when it cannot be asked). */
export function useVaultStatus(): VaultStatus | null {
  const [status, setStatus] = useState<VaultStatus | null>(null)
  useEffect(() => {
    let live = true
    bridge.call('vault.status', {}).then(
      (value) => {
        if (live) setStatus(value)
      },
      () => undefined, // the form still works; a KEYCHAIN_UNAVAILABLE answer explains later
    )
    return () => {
      live = false
    }
  }, [])
  return status
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
