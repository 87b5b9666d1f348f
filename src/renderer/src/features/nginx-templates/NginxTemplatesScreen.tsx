import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function NginxTemplatesScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="nginx-templates-title">
      <header className="screen-header">
        <h1 id="nginx-templates-title">Nginx templates</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
