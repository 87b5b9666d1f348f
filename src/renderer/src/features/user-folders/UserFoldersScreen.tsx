import type { Profile } from '../../../../shared/bridge'

/** Placeholder: this screen is being built (replace the whole file). */
export function UserFoldersScreen({ profile }: { profile: Profile }) {
  return (
    <section className="screen" aria-labelledby="user-folders-title">
      <header className="screen-header">
        <h1 id="user-folders-title">User folders</h1>
      </header>
      <p className="muted">Not built yet{profile ? ` for ${profile.name}` : ''}.</p>
    </section>
  )
}
