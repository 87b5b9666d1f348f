import { useId, type ReactNode } from 'react'
import type { Profile } from '../../../../shared/bridge'
import { KnownObjectsProfile } from '../../lib/known-objects'
import './ops.css'

/** An operation screen: its title, what it does on which profile, actions, then its content. */
export function OpScreen({
  title,
  doing,
  profile,
  actions,
  children,
}: {
  title: string
  /** "Cancel a copy job on": the profile's name follows. */
  doing: string
  /** Its id, when given, names the ids shown on the screen (KnownName). */
  profile: Pick<Profile, 'name'> & Partial<Pick<Profile, 'id'>>
  actions?: ReactNode
  children: ReactNode
}) {
  const titleId = useId()
  return (
    <section className="screen" aria-labelledby={titleId}>
      <header className="screen-header">
        <div>
          <h1 id={titleId}>{title}</h1>
          <p className="screen-subtitle">
            {doing} <strong>{profile.name}</strong>
          </p>
        </div>
        {actions ? <div className="screen-actions">{actions}</div> : null}
      </header>
      <KnownObjectsProfile.Provider value={profile.id ?? null}>
        {children}
      </KnownObjectsProfile.Provider>
    </section>
  )
}
