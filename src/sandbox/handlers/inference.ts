import type { OperationHandler } from '../context'
import { json } from '../http'

/** Op 6: the models the caller may call, in the OpenAI-style list shape of the spec's 2.5. */
const listInferenceModels: OperationHandler<'listInferenceModels'> = ({ core, caller }) => {
  const models = core.state.inferenceModels
    .filter((model) => model.availableTo.includes(caller.role))
    .map((model) => ({
      id: model.id,
      object: 'model',
      created: model.created,
      owned_by: model.ownedBy,
      kind: model.kind,
      context_length: model.contextLength,
    }))
  return json({ object: 'list', data: models })
}

export const inferenceHandlers = { listInferenceModels }
