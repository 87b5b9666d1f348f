import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function CertificatesScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="certificates-title">
      <header className="screen-header">
        <h1 id="certificates-title">Certificates</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
