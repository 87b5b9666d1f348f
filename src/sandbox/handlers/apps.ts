import type { OperationHandler } from '../context'
import { notFound } from '../failure'
import { json } from '../http'

/**
 * Op 20: members of the app in environments the caller may view and, among those, the
 * members the caller may view; optionally one environment only.
 */
const listAppMembers: OperationHandler<'listAppMembers'> = ({ core, caller, params, query }) => {
  const app = core.state.apps.find((candidate) => candidate.id === params.id)
  if (!app) throw notFound({ resource: 'app', id: params.id })
  const visibleEnvironments = new Set(
    core.state.appEnvironments
      .filter((environment) => environment.visibleTo.includes(caller.role))
      .map((environment) => environment.id),
  )
  const members = core.state.appMembers
    .filter((member) => member.appId === app.id)
    .filter((member) => visibleEnvironments.has(member.environmentId))
    .filter((member) => member.visibleTo.includes(caller.role))
    .filter(
      (member) => query.environmentId === undefined || member.environmentId === query.environmentId,
    )
    .map((member) => ({
      type: member.type,
      id: member.id,
      name: member.name,
      environmentId: member.environmentId,
      nodeIds: [...member.nodeIds],
      ...(member.type === 'docker' && member.nodeId !== null ? { nodeId: member.nodeId } : {}),
    }))
  return json({ data: members })
}

export const appHandlers = { listAppMembers }
