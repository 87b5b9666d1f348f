import type { OperationHandler } from '../context'
import { notFound, unprocessable } from '../failure'
import { json } from '../http'

/**
 * Op 19: records the Git branch head as the deployment's desired commit, without building.
 * The permission (docker:containers:edit) is checked before this runs.
 */
const resolveDeploymentSource: OperationHandler<'resolveDeploymentSource'> = ({ core, params }) => {
  if (!core.state.nodes.some((node) => node.id === params.nodeId)) {
    throw notFound({ resource: 'node', id: params.nodeId })
  }
  const deployment = core.state.deployments.find(
    (candidate) => candidate.id === params.deploymentId && candidate.nodeId === params.nodeId,
  )
  if (!deployment) throw notFound({ resource: 'deployment', id: params.deploymentId })
  const source = deployment.source
  if (deployment.strategy !== 'blue_green' || source.type !== 'git') {
    throw unprocessable({
      reason: 'Only a blue/green deployment with a Git source has a branch head to resolve',
      strategy: deployment.strategy,
      sourceType: source.type,
    })
  }
  const now = core.now().toISOString()
  const previousDesiredCommit = source.desiredCommit
  source.desiredCommit = source.branchHead
  source.desiredCommitResolvedAt = now
  deployment.updatedAt = now
  return json({
    data: {
      ...structuredClone(deployment),
      desiredCommit: source.desiredCommit,
      previousDesiredCommit,
      buildTriggered: false,
    },
  })
}

export const deploymentHandlers = { resolveDeploymentSource }
