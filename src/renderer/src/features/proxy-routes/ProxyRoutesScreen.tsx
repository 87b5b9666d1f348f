import { useRef } from 'react'
import { operations } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { useSchemaForm } from '../../lib/schema-form'
import { useIdSuggestions, type SandboxSeed } from '../../lib/suggestions'
import { Badge } from '../../ui/Badge'
import { AnswerSection } from '../ops-common/AnswerSection'
import { callOperation, dataOf, text } from '../ops-common/call'
import { IdField } from '../ops-common/IdField'
import { OpScreen } from '../ops-common/OpScreen'
import { Outcome } from '../ops-common/Outcome'
import { useWrite } from '../ops-common/useWrite'
import { useOperationForm, schemaFormFill } from '../ops-common/useOperationForm'
import { WriteForm } from '../ops-common/WriteForm'
import '../ops-common/ops.css'

/*
 * Proxy hosts: retry a failed managed additional route (op 14). A retry only asks the service
 * to provision the route again, so it is confirmed on protected profiles only; the answer's
 * state (usually `pending`) is shown.
 */

type SeedHosts = { id: string; routes: { id: string; status: string }[] }[]

function seedHosts(seed: SandboxSeed): SeedHosts {
  return seed['proxyHosts'] as SeedHosts
}

/** The sandbox's route states and a real deployment's (staging … ready, failed). */
const ROUTE_TONE: Record<string, 'success' | 'warning' | 'danger' | 'info'> = {
  active: 'success',
  ready: 'success',
  pending: 'info',
  staging: 'info',
  provisioning: 'info',
  failed: 'danger',
}

const RETRY_PROXY_ROUTE = ['retryProxyRoute'] as const

export function ProxyRoutesScreen({ profile }: { profile: Profile }) {
  const routeParams = useAppStore((s) => s.routeParams)
  const form = useSchemaForm(operations.retryProxyRoute.params, {
    id: routeParams['id'] ?? '',
    routeId: routeParams['routeId'] ?? '',
  })
  const formRef = useRef<HTMLFormElement>(null)
  useOperationForm(RETRY_PROXY_ROUTE, schemaFormFill(form), formRef)
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
  const retry = useWrite<{ hostId: string; routeId: string; route: unknown }>(profile, form, false)

  async function send() {
    const params = { ...form.values }
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
      <WriteForm
        write={retry}
        formRef={formRef}
        label="Retry a route"
        submitLabel="Retry route"
        failure="The route was not retried"
        send={send}
        confirmTitle="Retry this route?"
        confirmText={
          <p>
            The service provisions route <code>{form.values.routeId}</code> of proxy host{' '}
            <code>{form.values.id}</code> again.
          </p>
        }
        outcome={
          <>
            {retry.value ? (
              <Outcome title={`Route ${retry.value.routeId} retried`}>
                Its state is now{' '}
                <span aria-label={`Route state: ${state ?? 'unknown'}`}>
                  <Badge tone={ROUTE_TONE[state ?? ''] ?? 'neutral'}>
                    {state ?? 'not reported'}
                  </Badge>
                </span>
                {state === 'pending' ? ': the service is provisioning it again.' : null}
              </Outcome>
            ) : null}
            <AnswerSection noun="route" label="Retried route" value={route} />
          </>
        }
      >
        <div className="op-form-row">
          <IdField label="Proxy host ID" {...form.field('id')} known={hosts} />
          <IdField
            label="Route ID"
            {...form.field('routeId')}
            known={routes}
            hint="Only a failed route can be retried."
          />
        </div>
      </WriteForm>
    </OpScreen>
  )
}
