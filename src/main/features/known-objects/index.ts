import type { knownObjectChannels } from '../../../shared/bridge/channels/known-objects'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import type { DeskContext } from '../context'
import { requireProfile } from '../context'

/** What the app knows of ids it was shown: names beside ids, suggestions by name. */
export function knownObjectHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof knownObjectChannels> {
  return {
    async 'knownObjects.lookup'({ profileId, ids }) {
      requireProfile(context, profileId)
      return context.knownObjects.lookup(profileId, ids)
    },
    async 'knownObjects.search'({ profileId, kind, text, limit }) {
      requireProfile(context, profileId)
      return context.knownObjects.search(profileId, kind, text, limit)
    },
  }
}

/** "edge-2 · <id>" when an answer named the id on this profile; the id alone otherwise. */
export function nameBesideId(context: DeskContext, profileId: string, id: string): string {
  const name = context.knownObjects.lookup(profileId, [id]).find((known) => known.name)?.name
  return name === undefined || name === null || name === id ? id : `${name} · ${id}`
}
