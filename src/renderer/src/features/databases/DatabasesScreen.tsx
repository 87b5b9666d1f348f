import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function DatabasesScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="databases-title">
      <header className="screen-header">
        <h1 id="databases-title">Database certificates</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
