import type { sqlChannels } from '../../../shared/bridge/channels/sql'
import type { BridgeHandlers } from '../../bridge/dispatcher'
import type { DeskContext } from '../context'
import { requireProfile } from '../context'
import { sqlExplainHandler } from './explain'
import { guard } from './guard'
import { createSqlHub } from './hub'
import { sqlPlanHandler } from './plan'
import { sqlResultHandlers } from './results'
import { sqlRunHandlers } from './run'
import { sqlSchemaHandlers } from './schema'
import { sqlTabHandlers } from './tabs'

/*
 * The SQL console (op 5). Every statement is judged before it leaves (guard.ts): a read-only
 * tab refuses what is not proven read-only, and a protected profile's write needs the user's
 * confirmation (the renderer asks, from the same judgement: plan.ts; main checks again).
 * Answers are parsed once, in the SQL worker, and kept there; the renderer reads windows of
 * rows. Every statement the user sends is recorded in the activity log and the query history
 * (send.ts). Each file here is one concern; they share one hub (hub.ts), made here.
 */

export interface SqlFeature {
  handlers: Pick<BridgeHandlers, keyof typeof sqlChannels>
  /**
   * The guard's judgement of a statement sent as runPostgresQuery through `service.call`
   * (`infradesk call`): refuses, as `sql.run` would, what the profile or the settings do not
   * let go unconfirmed. Uses the console's learned database settings.
   */
  guardServiceCall(input: {
    profileId: string
    databaseId: string
    sql: string
    confirmedWrite: boolean
  }): Promise<void>
}

export function sqlFeature(context: DeskContext): SqlFeature {
  const hub = createSqlHub(context)
  return {
    handlers: {
      ...sqlPlanHandler(hub),
      ...sqlRunHandlers(hub),
      ...sqlExplainHandler(hub),
      ...sqlResultHandlers(hub),
      ...sqlSchemaHandlers(hub),
      ...sqlTabHandlers(hub),
    },
    async guardServiceCall({ profileId, databaseId, sql, confirmedWrite }) {
      const profile = requireProfile(context, profileId)
      await guard(hub, profile, sql, { databaseId, readOnly: false, confirmedWrite })
    },
  }
}
