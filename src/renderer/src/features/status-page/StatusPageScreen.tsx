import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function StatusPageScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="status-page-title">
      <header className="screen-header">
        <h1 id="status-page-title">Status page</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
