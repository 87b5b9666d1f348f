import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** The activity log: every call that changed something, newest first. */
export function activityHandlers(context: DeskContext): Pick<BridgeHandlers, 'activity.list'> {
  return {
    async 'activity.list'({ profileId, operation, outcome, limit }) {
      return context.cache.listActivity({
        ...(profileId === undefined ? {} : { profileId }),
        ...(operation === undefined ? {} : { operation }),
        ...(outcome === undefined ? {} : { outcome }),
        limit,
      })
    },
  }
}
