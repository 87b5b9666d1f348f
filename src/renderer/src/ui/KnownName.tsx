import { useContext } from 'react'
import { KnownObjectsProfile, useKnownObject } from '../lib/known-objects'
import './known-name.css'

interface KnownNameProps {
  /** Whose cache is asked (ids are remembered per profile); default: the screen's profile. */
  profileId?: string | null
  id: string
}

/**
 * An id as the app displays it: "name · id" when an answer of the service ever named it, the id
 * alone otherwise. The id stays whole and selectable (it is what the service is asked with);
 * the tooltip says what else is known and when it was last seen.
 */
export function KnownName({ profileId, id }: KnownNameProps) {
  const screenProfileId = useContext(KnownObjectsProfile)
  const known = useKnownObject(profileId ?? screenProfileId, id)
  const name = known?.name ?? null
  if (name === null || name === id) return <span className="known-id">{id}</span>
  const facts = [
    known?.kind,
    known?.status ? `status ${known.status}` : null,
    known ? `last seen ${new Date(known.seenAt).toLocaleString()}` : null,
  ].filter((fact): fact is string => typeof fact === 'string')
  return (
    <span className="known-name" title={facts.join(' · ')}>
      <span className="known-name-text">{name}</span>
      <span className="known-name-separator" aria-hidden="true">
        {' · '}
      </span>
      <span className="known-id">{id}</span>
    </span>
  )
}
