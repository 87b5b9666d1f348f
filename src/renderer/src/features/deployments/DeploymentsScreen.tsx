import { useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { missingPermissionOf } from '../../lib/errors'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import {
  callOperation,
  checkWith,
  dataOf,
  isRecord,
  text,
  useFieldChecks,
} from '../ops-common/form'
import { AnswerSection } from '../ops-common/AnswerSection'
import { FormIssues } from '../ops-common/FormIssues'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { WriteConfirm } from '../ops-common/WriteConfirm'
import '../ops-common/ops.css'

/*
 * Deployments: resolve the branch head of a blue/green deployment's Git source (op 19). It only
 * records the head as the desired commit, nothing is built, so it is confirmed on protected
 * profiles only. The spec names its permission, so a 403 always names it too.
 */

const { nodeId: nodeSchema, deploymentId: deploymentSchema } =
  operations.resolveDeploymentSource.params.shape
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

export function DeploymentsScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const [nodeId, setNodeId] = useState(routeParams['nodeId'] ?? '')
  const [deploymentId, setDeploymentId] = useState(
    routeParams['deploymentId'] ?? routeParams['id'] ?? '',
  )
  const nodes = useIdSuggestions(profile, 'node', (seed) => [
    ...new Set(seedDeployments(seed).map((entry) => entry.nodeId)),
  ])
  const deployments = useIdSuggestions(profile, 'deployment', (seed) =>
    seedDeployments(seed).map((entry) => entry.deploymentId),
  )
  const checks = useFieldChecks(
    { nodeId, deploymentId },
    {
      nodeId: (value) => checkWith(nodeSchema, value),
      deploymentId: (value) => checkWith(deploymentSchema, value),
    },
  )
  const resolve = useWrite<{ deploymentId: string; deployment: unknown }>(profile, checks, false)

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
      <form
        className="op-form"
        aria-label="Resolve the branch head"
        onSubmit={(event) => {
          event.preventDefault()
          resolve.submit(() => void send())
        }}
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
          <IdField
            label="Node ID"
            value={nodeId}
            onChange={setNodeId}
            suggestions={nodes.suggestions}
            error={checks.errors.nodeId}
          />
          <IdField
            label="Deployment ID"
            value={deploymentId}
            onChange={setDeploymentId}
            suggestions={deployments.suggestions}
            error={checks.errors.deploymentId}
          />
        </div>
        <FormIssues issues={resolve.issues} />
        <div className="op-form-actions">
          <Button
            type="submit"
            variant="primary"
            busy={resolve.busy && !resolve.confirming}
            disabled={!profile.signedIn}
          >
            Resolve branch head
          </Button>
        </div>
      </form>

      {resolve.error && !resolve.confirming ? (
        <ErrorBanner
          error={resolve.error}
          context="The branch head was not resolved"
          action={
            forbidden ? (
              <span>
                Needs <code>{DEPLOYMENT_PERMISSION}</code>
              </span>
            ) : undefined
          }
        />
      ) : null}

      {resolve.value ? (
        <Outcome title={`Deployment ${resolve.value.deploymentId}: branch head recorded`}>
          Desired commit recorded:{' '}
          <code aria-label="Recorded commit">{commit ?? 'not reported by the service'}</code>. No
          build was started.
        </Outcome>
      ) : null}
      <AnswerSection
        heading="The deployment as the service returned it"
        label="Resolved deployment"
        value={deployment}
      />

      <WriteConfirm
        {...resolve.dialog}
        profile={profile}
        title="Record the branch head as the desired commit?"
        confirmLabel="Resolve branch head"
        tone="primary"
        onConfirm={() => void send()}
      >
        <p>
          Deployment <code>{deploymentId}</code> on node <code>{nodeId}</code> gets its branch’s
          current head as its desired commit. Nothing is built.
        </p>
      </WriteConfirm>
    </OpScreen>
  )
}
