import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { requireProfile } from './context'

/** Ids the user typed, offered back per profile and kind. */
export function recentsHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, 'recents.list' | 'recents.remember'> {
  return {
    async 'recents.list'({ profileId, kind, limit }) {
      requireProfile(context, profileId)
      return context.recents.list(profileId, kind, limit)
    },
    async 'recents.remember'({ profileId, kind, value }) {
      requireProfile(context, profileId)
      context.recents.remember(profileId, kind, value)
      return null
    },
  }
}
