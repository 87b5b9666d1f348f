import { useState } from 'react'
import type { BridgeError } from '../../../shared/bridge'
import { asBridgeError, bridge } from '../bridge'
import { Button } from '../ui/Button'
import { ErrorBanner } from '../ui/ErrorBanner'
import { addProfile } from './ProfileDialogs'
import { ProfileForm } from './ProfileForm'
import { useAppStore } from './store'
import './welcome.css'

/** First run: connect to a real service, or explore the local sandbox. */
export function Welcome() {
  const [choice, setChoice] = useState<'none' | 'connect'>('none')
  const [exploring, setExploring] = useState(false)
  const [exploreError, setExploreError] = useState<BridgeError | null>(null)
  const activate = useAppStore((s) => s.activate)
  const reloadProfiles = useAppStore((s) => s.reloadProfiles)
  const navigate = useAppStore((s) => s.navigate)

  async function explore() {
    setExploring(true)
    setExploreError(null)
    try {
      const profile = await bridge.call('sandbox.explore', {})
      // The route is set before the profile makes the shell appear: a screen chosen in the
      // shell meanwhile is never taken back (the welcome screen shows whatever the route).
      navigate('sessions')
      await activate(profile.id)
      await reloadProfiles()
    } catch (error) {
      setExploreError(asBridgeError(error))
      setExploring(false)
    }
  }

  return (
    <main className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-inner">
        <div className="brand brand-large" aria-hidden="true">
          <span className="brand-mark">◆</span> Infradesk
        </div>
        <h1 id="welcome-title">Welcome to Infradesk</h1>
        <p className="welcome-lead">
          The operations console for the Infrastructure Management Service: sessions, certificates,
          databases, migrations and incidents, from your workstation.
        </p>

        {choice === 'connect' ? (
          <section className="card" aria-labelledby="connect-title">
            <h2 id="connect-title">Connect to your service</h2>
            <p className="card-text">
              Infradesk checks the token with the service before it saves anything.
            </p>
            <ProfileForm
              mode="add"
              focusOnMount
              submitLabel="Connect"
              cancelLabel="Back"
              onCancel={() => setChoice('none')}
              onSubmit={async (submission) => {
                // Before the profile makes the shell appear (see explore).
                navigate('sessions')
                await addProfile(submission)
              }}
            />
          </section>
        ) : (
          <div className="welcome-choices">
            <section className="card choice" aria-labelledby="choice-connect-title">
              <h2 id="choice-connect-title">Your service</h2>
              <p className="card-text">
                Enter the service's base URL and an access token. Tokens are kept in the system
                keychain, never on disk in plain text.
              </p>
              <Button variant="primary" onClick={() => setChoice('connect')} disabled={exploring}>
                Connect to your service
              </Button>
            </section>
            <section className="card choice" aria-labelledby="choice-sandbox-title">
              <h2 id="choice-sandbox-title">Local sandbox</h2>
              <p className="card-text">
                A faithful copy of the service with sample data, started inside Infradesk. Try every
                screen without touching a real environment.
              </p>
              <Button onClick={() => void explore()} busy={exploring}>
                {exploring ? 'Starting the sandbox…' : 'Explore the local sandbox'}
              </Button>
              {exploreError ? (
                <ErrorBanner error={exploreError} context="The sandbox did not start" />
              ) : null}
            </section>
          </div>
        )}
      </div>
    </main>
  )
}
