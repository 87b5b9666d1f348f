import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { withProfileClient } from './context'

/** The inference models screen (op 6): the catalog as the service lists it. */
export function inferenceHandlers(context: DeskContext): Pick<BridgeHandlers, 'inference.list'> {
  return {
    async 'inference.list'({ profileId }) {
      const catalog = await withProfileClient(context, profileId, (client) =>
        client.call('listInferenceModels'),
      )
      return { models: catalog.data }
    },
  }
}
