import { inferenceModelSchema } from '../../shared/api'
import type { InferenceModel } from '../../shared/api'
import type { BridgeHandlers } from '../bridge/dispatcher'
import type { DeskContext } from './context'
import { requireProfile, withProfileClient } from './context'
import { fetchWindow, readWindow, type WindowAnswer } from './lists'

/*
 * The inference models screen (op 6). The catalog runs to 150,000 models (10 MB): it is read
 * into main's cache and the screen reads windows of it (`inference.fetch` on every visit, then
 * `inference.window` as it scrolls or filters). `inference.list` answers the whole catalog, for
 * scripts and tests.
 */
export function inferenceHandlers(
  context: DeskContext,
): Pick<BridgeHandlers, 'inference.list' | 'inference.window' | 'inference.fetch'> {
  /** Per profile: the fields the models carry beside `id`, first-seen order (the columns). */
  const keysOf = new Map<string, string[]>()

  function withKeys(profileId: string, window: WindowAnswer<InferenceModel>) {
    let keys = keysOf.get(profileId)
    if (keys === undefined) {
      // Not fetched since main started (the cached catalog): the window's own fields.
      const seen = new Set<string>()
      for (const model of window.items) for (const key of Object.keys(model)) seen.add(key)
      keys = [...seen]
    }
    return { ...window, keys: keys.filter((key) => key !== 'id') }
  }

  return {
    async 'inference.list'({ profileId }) {
      const catalog = await withProfileClient(context, profileId, (client) =>
        client.call('listInferenceModels'),
      )
      return { models: catalog.data }
    },

    async 'inference.window'(input) {
      requireProfile(context, input.profileId)
      const window = await readWindow(context, 'inference', inferenceModelSchema, input, {
        error: null,
      })
      return withKeys(input.profileId, window)
    },

    async 'inference.fetch'(input) {
      const window = await fetchWindow<InferenceModel>(
        context,
        'inference',
        'listInferenceModels',
        input,
        (keys) => keysOf.set(input.profileId, keys),
      )
      return withKeys(input.profileId, window)
    },
  }
}
