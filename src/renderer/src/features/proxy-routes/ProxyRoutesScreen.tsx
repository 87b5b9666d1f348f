import { useState } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { callOperation, checkWith, dataOf, text, useFieldChecks } from '../ops-common/form'
import { AnswerSection } from '../ops-common/AnswerSection'
import { FormIssues } from '../ops-common/FormIssues'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { WriteConfirm } from '../ops-common/WriteConfirm'
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
  const retry = useWrite<{ hostId: string; routeId: string; route: unknown }>(
    profile,
    checks,
    false,
  )

  async function send() {
    const params = { id: hostId, routeId }
    const outcome = await retry.send(async () => {
      const answer = await callOperation(profile.id, 'retryProxyRoute', { params })
      return { hostId: params.id, routeId: params.routeId, route: dataOf(answer) }
    })
    if (outcome.ok) {
      hosts.remember(params.id)
      routes.remember(params.routeId)
    }
  }

  const route = retry.value?.route
  const state = text(route, 'status')
  return (
    <OpScreen
      title="Proxy routes"
      doing="Retry a failed managed additional route on"
      profile={profile}
    >
      <form
        className="op-form"
        aria-label="Retry a route"
        onSubmit={(event) => {
          event.preventDefault()
          retry.submit(() => void send())
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
        <FormIssues issues={retry.issues} />
        <div className="op-form-actions">
          <Button
            type="submit"
            variant="primary"
            busy={retry.busy && !retry.confirming}
            disabled={!profile.signedIn}
          >
            Retry route
          </Button>
        </div>
      </form>

      {retry.error && !retry.confirming ? (
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
      <AnswerSection
        heading="The route as the service returned it"
        label="Retried route"
        value={route}
      />

      <WriteConfirm
        {...retry.dialog}
        profile={profile}
        title="Retry this route?"
        confirmLabel="Retry route"
        tone="primary"
        onConfirm={() => void send()}
      >
        <p>
          The service provisions route <code>{routeId}</code> of proxy host <code>{hostId}</code>{' '}
          again.
        </p>
      </WriteConfirm>
    </OpScreen>
  )
}
