import type { migrationChannels } from '../../shared/bridge/channels/migrations'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { recordedCall } from './recorded'

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
      const answer = await recordedCall(context, profileId, 'resolveMigration', {
        input: { params: { id }, body: { authoritativeSide } },
        target: id,
        describe: (resolved) =>
          `${authoritativeSide} made authoritative; status ${resolved.data.status}`,
      })
      return answer.data
    },
  }
}
