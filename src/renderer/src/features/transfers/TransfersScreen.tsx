import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function TransfersScreen({ profile }: { profile: Profile | null }) {
  return (
    <section className="screen" aria-labelledby="transfers-title">
      <header className="screen-header">
        <h1 id="transfers-title">Transfers</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
