import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function LoggingScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="logging-title">
      <header className="screen-header">
        <h1 id="logging-title">Logging</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
