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
  namesFields,
  text,
  useCall,
  useFieldChecks,
} from '../ops-common/form'
import { IdField } from '../ops-common/IdField'
import { Outcome } from '../ops-common/Outcome'
import { ValueTable } from '../ops-common/ValueTable'
import { needsConfirmation, WriteConfirm } from '../ops-common/WriteConfirm'
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
  const [confirming, setConfirming] = useState(false)
  const [otherIssues, setOtherIssues] = useState<string[]>([])
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
  const resolve = useCall<{ deploymentId: string; deployment: unknown }>()

  async function send() {
    // The deployment first: the activity log names a call's first parameter as its target.
    const params = { deploymentId, nodeId }
    const outcome = await resolve.run(async () => {
      const answer = await callOperation(profile.id, 'resolveDeploymentSource', { params })
      return { deploymentId: params.deploymentId, deployment: dataOf(answer) }
    })
    if (outcome.ok) {
      nodes.remember(params.nodeId)
      deployments.remember(params.deploymentId)
      setConfirming(false)
    } else if (namesFields(outcome.error)) {
      setOtherIssues(checks.placeServerErrors(outcome.error))
      setConfirming(false)
    }
  }

  const deployment = resolve.value?.deployment
  const commit = recordedCommit(deployment)
  // The banner names the permission when the 403 does; otherwise the spec's is named here.
  const forbidden =
    resolve.error?.code === 'FORBIDDEN' && missingPermissionOf(resolve.error.details) === null
  return (
    <section className="screen" aria-labelledby="deployments-title">
      <header className="screen-header">
        <div>
          <h1 id="deployments-title">Deployments</h1>
          <p className="screen-subtitle">
            Resolve a blue/green deployment’s branch head on <strong>{profile.name}</strong>
          </p>
        </div>
      </header>

      <form
        className="op-form"
        aria-label="Resolve the branch head"
        onSubmit={(event) => {
          event.preventDefault()
          resolve.clear()
          setOtherIssues([])
          if (!checks.attempt()) return
          if (needsConfirmation(profile, false)) setConfirming(true)
          else void send()
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
        {otherIssues.length > 0 ? (
          <ul className="form-issues">
            {otherIssues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
        ) : null}
        <div className="op-form-actions">
          <Button
            type="submit"
            variant="primary"
            busy={resolve.busy && !confirming}
            disabled={!profile.signedIn}
          >
            Resolve branch head
          </Button>
        </div>
      </form>

      {resolve.error && !confirming ? (
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
      {isRecord(deployment) ? (
        <div className="op-section">
          <h2>The deployment as the service returned it</h2>
          <ValueTable value={deployment} label="Resolved deployment" />
        </div>
      ) : null}

      <WriteConfirm
        open={confirming}
        profile={profile}
        title="Record the branch head as the desired commit?"
        confirmLabel="Resolve branch head"
        tone="primary"
        busy={resolve.busy}
        error={resolve.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void send()}
      >
        <p>
          Deployment <code>{deploymentId}</code> on node <code>{nodeId}</code> gets its branch’s
          current head as its desired commit. Nothing is built.
        </p>
      </WriteConfirm>
    </section>
  )
}
