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

/** The name an answer of the service gave `id` on this profile, if any. */
export function knownNameOf(context: DeskContext, profileId: string, id: string): string | null {
  return context.knownObjects.namesOf([{ profileId, id }]).of(profileId, id)
}
