import { useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { Badge } from '../../ui/Badge'
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
 * Proxy hosts: retry a failed managed additional route (op 14). A retry only asks the service
 * to provision the route again, so it is confirmed on protected profiles only; the answer's
 * state (usually `pending`) is shown.
 */

const { id: hostSchema, routeId: routeSchema } = operations.retryProxyRoute.params.shape

type SeedHosts = { id: string; routes: { id: string; status: string }[] }[]

function seedHosts(seed: SandboxSeed): SeedHosts {
  return seed['proxyHosts'] as SeedHosts
}

const ROUTE_TONE: Record<string, 'success' | 'warning' | 'danger' | 'info'> = {
  active: 'success',
  pending: 'info',
  failed: 'danger',
}

export function ProxyRoutesScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const [hostId, setHostId] = useState(routeParams['id'] ?? '')
  const [routeId, setRouteId] = useState(routeParams['routeId'] ?? '')
  const [confirming, setConfirming] = useState(false)
  const [otherIssues, setOtherIssues] = useState<string[]>([])
  const hosts = useIdSuggestions(profile, 'proxy-host', (seed) =>
    seedHosts(seed)
      .filter((host) => host.routes.some((route) => route.status === 'failed'))
      .map((host) => host.id),
  )
  const routes = useIdSuggestions(profile, 'proxy-route', (seed) =>
    seedHosts(seed).flatMap((host) =>
      host.routes.filter((route) => route.status === 'failed').map((route) => route.id),
    ),
  )
  const checks = useFieldChecks(
    { id: hostId, routeId },
    {
      id: (value) => checkWith(hostSchema, value),
      routeId: (value) => checkWith(routeSchema, value),
    },
  )
  const retry = useCall<{ hostId: string; routeId: string; route: unknown }>()

  async function send() {
    const params = { id: hostId, routeId }
    const outcome = await retry.run(async () => {
      const answer = await callOperation(profile.id, 'retryProxyRoute', { params })
      return { hostId: params.id, routeId: params.routeId, route: dataOf(answer) }
    })
    if (outcome.ok) {
      hosts.remember(params.id)
      routes.remember(params.routeId)
      setConfirming(false)
    } else if (namesFields(outcome.error)) {
      setOtherIssues(checks.placeServerErrors(outcome.error))
      setConfirming(false)
    }
  }

  const route = retry.value?.route
  const state = text(route, 'status')
  return (
    <section className="screen" aria-labelledby="proxy-title">
      <header className="screen-header">
        <div>
          <h1 id="proxy-title">Proxy routes</h1>
          <p className="screen-subtitle">
            Retry a failed managed additional route on <strong>{profile.name}</strong>
          </p>
        </div>
      </header>

      <form
        className="op-form"
        aria-label="Retry a route"
        onSubmit={(event) => {
          event.preventDefault()
          retry.clear()
          setOtherIssues([])
          if (!checks.attempt()) return
          if (needsConfirmation(profile, false)) setConfirming(true)
          else void send()
        }}
      >
        <div className="op-form-row">
          <IdField
            label="Proxy host ID"
            value={hostId}
            onChange={setHostId}
            suggestions={hosts.suggestions}
            error={checks.errors.id}
          />
          <IdField
            label="Route ID"
            value={routeId}
            onChange={setRouteId}
            suggestions={routes.suggestions}
            error={checks.errors.routeId}
            hint="Only a failed route can be retried."
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
            busy={retry.busy && !confirming}
            disabled={!profile.signedIn}
          >
            Retry route
          </Button>
        </div>
      </form>

      {retry.error && !confirming ? (
        <ErrorBanner error={retry.error} context="The route was not retried" />
      ) : null}

      {retry.value ? (
        <Outcome title={`Route ${retry.value.routeId} retried`}>
          Its state is now{' '}
          <span aria-label={`Route state: ${state ?? 'unknown'}`}>
            <Badge tone={ROUTE_TONE[state ?? ''] ?? 'neutral'}>{state ?? 'not reported'}</Badge>
          </span>
          {state === 'pending' ? ': the service is provisioning it again.' : null}
        </Outcome>
      ) : null}
      {isRecord(route) ? (
        <div className="op-section">
          <h2>The route as the service returned it</h2>
          <ValueTable value={route} label="Retried route" />
        </div>
      ) : null}

      <WriteConfirm
        open={confirming}
        profile={profile}
        title="Retry this route?"
        confirmLabel="Retry route"
        tone="primary"
        busy={retry.busy}
        error={retry.error}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void send()}
      >
        <p>
          The service provisions route <code>{routeId}</code> of proxy host <code>{hostId}</code>{' '}
          again.
        </p>
      </WriteConfirm>
    </section>
  )
}
