import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function StorageScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="storage-title">
      <header className="screen-header">
        <h1 id="storage-title">Storage jobs</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
