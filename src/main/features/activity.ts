import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'

/** The activity log: every call that changed something, newest first. */
export function activityHandlers(context: DeskContext): Pick<BridgeHandlers, 'activity.list'> {
  return {
    async 'activity.list'({ profileId, limit }) {
      return context.cache.listActivity({
        ...(profileId === undefined ? {} : { profileId }),
        limit,
      })
    },
  }
}
