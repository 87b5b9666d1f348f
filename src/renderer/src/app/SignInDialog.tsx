import { useRef, useState, type FormEvent } from 'react'
import type { BridgeError } from '../../../shared/bridge'
import { asBridgeError, bridge } from '../bridge'
import { Badge, ColorDot } from '../ui/Badge'
import { Button } from '../ui/Button'
import { Dialog } from '../ui/Dialog'
import { ErrorBanner } from '../ui/ErrorBanner'
import { KeychainProblem } from './Keychain'
import { selectProfile, useAppStore } from './store'
import { SessionOnlyCheckbox, TokenField, useSessionOnlyChoice } from './TokenEntry'
import './sign-in.css'

/**
 * Asks for a new token when a profile is signed out (a 401 from the service, or after log out),
 * on top of whatever screen the user is on, so signing in again does not lose their place.
 */
export function SignInDialog() {
  const request = useAppStore((s) => s.signIn)
  return request ? <SignInForm key={request.profileId} /> : null
}

function SignInForm() {
  const request = useAppStore((s) => s.signIn)
  const profile = useAppStore(selectProfile(request?.profileId))
  const closeSignIn = useAppStore((s) => s.closeSignIn)
  const reloadProfiles = useAppStore((s) => s.reloadProfiles)
  const { vault, sessionOnly, setSessionOnly } = useSessionOnlyChoice()
  const tokenRef = useRef<HTMLInputElement>(null)
  const [tokenError, setTokenError] = useState<string | undefined>()
  const [error, setError] = useState<BridgeError | null>(null)
  const [keychainError, setKeychainError] = useState<BridgeError | null>(null)
  const [busy, setBusy] = useState(false)

  // A request for a profile that no longer exists (removed meanwhile) has nothing to sign in to.
  if (!request || !profile) return null

  async function signIn(forceSessionOnly: boolean) {
    if (!request) return
    const token = tokenRef.current?.value.trim() ?? ''
    setError(null)
    setKeychainError(null)
    if (token === '') {
      setTokenError('Enter an access token')
      tokenRef.current?.focus()
      return
    }
    setTokenError(undefined)
    setBusy(true)
    try {
      await bridge.call('profiles.signIn', {
        id: request.profileId,
        token,
        sessionOnly: forceSessionOnly || sessionOnly,
      })
      if (tokenRef.current) tokenRef.current.value = ''
      await reloadProfiles()
      closeSignIn()
    } catch (thrown) {
      const failure = asBridgeError(thrown)
      if (failure.code === 'KEYCHAIN_UNAVAILABLE') setKeychainError(failure)
      else setError(failure)
      setBusy(false)
    }
  }

  /** The embedded sandbox signs in with its own admin token: no token to type. */
  async function signInToSandbox() {
    setError(null)
    setBusy(true)
    try {
      await bridge.call('sandbox.explore', {})
      await reloadProfiles()
      closeSignIn()
    } catch (thrown) {
      setError(asBridgeError(thrown))
      setBusy(false)
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    void signIn(false)
  }

  const name = profile.name
  return (
    <Dialog
      open
      title={`Sign in to ${name}`}
      onClose={busy ? () => undefined : closeSignIn}
      footer={
        <>
          <Button onClick={closeSignIn} disabled={busy}>
            Not now
          </Button>
          <Button type="submit" form="sign-in-form" variant="primary" busy={busy}>
            {busy ? 'Checking the token…' : 'Sign in'}
          </Button>
        </>
      }
    >
      <form id="sign-in-form" className="form" onSubmit={onSubmit} noValidate>
        <p className="sign-in-profile">
          <ColorDot color={profile.color} /> <strong>{profile.name}</strong>{' '}
          <span className="muted">{profile.baseUrl}</span>{' '}
          {profile.protected ? <Badge tone="danger">Protected</Badge> : null}
        </p>
        <p className="sign-in-reason">{request.message}</p>
        {profile.kind === 'sandbox' ? (
          <div className="banner banner-info">
            <div className="banner-text">
              <div className="banner-message">
                This is the local sandbox: Infradesk can sign in again with the sandbox’s own admin
                token.
              </div>
              <div className="banner-message">
                What you changed in it (uploads, folder moves, resolved items) stays; the sandbox
                starts again from its sample data only when Infradesk restarts.
              </div>
            </div>
            <div className="banner-action">
              <Button variant="primary" onClick={() => void signInToSandbox()} busy={busy}>
                Sign in to the sandbox
              </Button>
            </div>
          </div>
        ) : null}
        <TokenField
          label="New access token"
          error={tokenError}
          hint="Checked with the service before it replaces anything."
          inputRef={tokenRef}
          dialogAutofocus
        />
        <SessionOnlyCheckbox checked={sessionOnly} onChange={setSessionOnly}>
          Keep for this session only
        </SessionOnlyCheckbox>
        <KeychainProblem
          vault={vault}
          error={keychainError}
          busy={busy}
          onKeepForSession={keychainError ? () => void signIn(true) : null}
        />
        {error ? <ErrorBanner error={error} context="Still signed out" /> : null}
      </form>
    </Dialog>
  )
}
