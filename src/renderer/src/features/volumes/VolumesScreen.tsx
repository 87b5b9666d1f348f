import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function VolumesScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="volumes-title">
      <header className="screen-header">
        <h1 id="volumes-title">Volume export</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
