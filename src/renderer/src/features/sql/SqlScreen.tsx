import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function SqlScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="sql-title">
      <header className="screen-header">
        <h1 id="sql-title">SQL console</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
