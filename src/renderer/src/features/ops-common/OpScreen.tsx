import { useId, type ReactNode } from 'react'
import type { Profile } from '../../../../shared/bridge'
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
  profile: Pick<Profile, 'name'>
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
      {children}
    </section>
  )
}
