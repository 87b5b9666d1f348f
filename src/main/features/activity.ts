import type { BridgeHandlers } from '../bridge/dispatcher'
import { createAuditTrail } from '../cache/audit-trail'
import { exportAuditTrail } from './audit-export'
import type { DeskContext } from './context'

/**
 * The activity log: every call that changed something, newest first, filtered by profile,
 * operation, outcome and time range; and the same filters' entries exported as an audit trail
 * (features/audit-export.ts).
 */
export function activityHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, 'activity.list' | 'activity.export'> {
  const trail = createAuditTrail(context.cache)
  return {
    async 'activity.list'({ limit, ...filter }) {
      return trail.list(filter, limit)
    },
    async 'activity.export'({ format, ...filter }) {
      return exportAuditTrail(context, trail, filter, format)
    },
  }
}
