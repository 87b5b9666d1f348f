import type { migrationChannels } from '../../shared/bridge/channels/migrations'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { recordActivity, requireProfile, withProfileClient } from './context'

/*
 * Op 13 through main, like every write: validated against the contract by the client, and
 * recorded in the activity log, success or failure. The log line says which side was made
 * authoritative and what status the service answered, so the record stands on its own.
 */
export function migrationHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, keyof typeof migrationChannels> {
  return {
    async 'migrations.resolve'({ profileId, id, authoritativeSide }) {
      const profile = requireProfile(context, profileId)
      try {
        const answer = await withProfileClient(context, profileId, (client) =>
          client.call('resolveMigration', { params: { id }, body: { authoritativeSide } }),
        )
        recordActivity(context, profile, 'resolveMigration', id, {
          message: `${authoritativeSide} made authoritative; status ${answer.data.status}`,
        })
        return answer.data
      } catch (error) {
        recordActivity(context, profile, 'resolveMigration', id, { error })
        throw error
      }
    },
  }
}
