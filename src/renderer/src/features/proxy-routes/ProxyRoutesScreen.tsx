import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function ProxyRoutesScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="proxy-routes-title">
      <header className="screen-header">
        <h1 id="proxy-routes-title">Proxy routes</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
