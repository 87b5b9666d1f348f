import { useRef } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { missingPermissionOf } from '../../lib/errors'
import { useSchemaForm } from '../../lib/schema-form'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { AnswerSection } from '../ops-common/AnswerSection'
import { callOperation, dataOf, isRecord, text } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { useOperationForm, schemaFormFill } from '../ops-common/useOperationForm'
import { WriteForm } from '../ops-common/WriteForm'
import '../ops-common/ops.css'

/*
 * Deployments: resolve the branch head of a blue/green deployment's Git source (op 19). It only
 * records the head as the desired commit, nothing is built, so it is confirmed on protected
 * profiles only. The spec names its permission, so a 403 always names it too.
 */

export const DEPLOYMENT_PERMISSION = 'docker:containers:edit'

type SeedDeployments = { nodeId: string; deploymentId: string }[]
const seedDeployments = (seed: SandboxSeed) => seed['deployments'] as SeedDeployments

/** The commit the answer records: `desiredCommit`, at the top or inside `source`. */
function recordedCommit(data: unknown): string | null {
  return (
    text(data, 'desiredCommit') ??
    (isRecord(data) ? text(data['source'], 'desiredCommit') : null) ??
    null
  )
}

const RESOLVE_DEPLOYMENT_SOURCE = ['resolveDeploymentSource'] as const

export function DeploymentsScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(operations.resolveDeploymentSource.params, {
    nodeId: routeParams['nodeId'] ?? '',
    deploymentId: routeParams['deploymentId'] ?? routeParams['id'] ?? '',
  })
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(RESOLVE_DEPLOYMENT_SOURCE, schemaFormFill(form), formRef)
  const { nodeId, deploymentId } = form.values
  const nodes = useIdSuggestions(profile, 'node', (seed) => [
    ...new Set(seedDeployments(seed).map((entry) => entry.nodeId)),
  ])
  const deployments = useIdSuggestions(profile, 'deployment', (seed) =>
    seedDeployments(seed).map((entry) => entry.deploymentId),
  )
  const resolve = useWrite<{ deploymentId: string; deployment: unknown }>(profile, form, false)

  async function send() {
    // The deployment first: the activity log names a call's first parameter as its target.
    const params = { deploymentId, nodeId }
    const outcome = await resolve.send(async () => {
      const answer = await callOperation(profile.id, 'resolveDeploymentSource', { params })
      return { deploymentId: params.deploymentId, deployment: dataOf(answer) }
    })
    if (outcome.ok) {
      nodes.remember(params.nodeId)
      deployments.remember(params.deploymentId)
    }
  }

  const deployment = resolve.value?.deployment
  const commit = recordedCommit(deployment)
  // The banner names the permission when the 403 does; otherwise the spec's is named here.
  const forbidden =
    resolve.error?.code === 'FORBIDDEN' && missingPermissionOf(resolve.error.details) === null
  return (
    <OpScreen
      title="Deployments"
      doing="Resolve a blue/green deployment’s branch head on"
      profile={profile}
    >
      <WriteForm
        write={resolve}
        formRef={formRef}
        label="Resolve the branch head"
        submitLabel="Resolve branch head"
        failure="The branch head was not resolved"
        failureAction={
          forbidden ? (
            <span>
              Needs <code>{DEPLOYMENT_PERMISSION}</code>
            </span>
          ) : undefined
        }
        send={send}
        confirmTitle="Record the branch head as the desired commit?"
        confirmText={
          <p>
            Deployment <code>{deploymentId}</code> on node <code>{nodeId}</code> gets its branch’s
            current head as its desired commit. Nothing is built.
          </p>
        }
        outcome={
          <>
            {resolve.value ? (
              <Outcome title={`Deployment ${resolve.value.deploymentId}: branch head recorded`}>
                Desired commit recorded:{' '}
                <code aria-label="Recorded commit">{commit ?? 'not reported by the service'}</code>.
                No build was started.
              </Outcome>
            ) : null}
            <AnswerSection noun="deployment" label="Resolved deployment" value={deployment} />
          </>
        }
      >
        <ul className="op-explain">
          <li>
            Asks the deployment’s Git source for the current head of its branch and records that
            commit as the <strong>desired commit</strong>.
          </li>
          <li>Nothing is built or deployed: the running colour keeps its commit.</li>
          <li>
            Needs the permission <code>{DEPLOYMENT_PERMISSION}</code> on the deployment.
          </li>
        </ul>
        <div className="op-form-row">
          <IdField label="Node ID" {...form.field('nodeId')} known={nodes} />
          <IdField label="Deployment ID" {...form.field('deploymentId')} known={deployments} />
        </div>
      </WriteForm>
    </OpScreen>
  )
}
