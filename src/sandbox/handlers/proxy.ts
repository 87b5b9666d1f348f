import type { OperationHandler } from '../context'
import { conflict, notFound } from '../failure'
import { json } from '../http'
import { retryFailsAgain } from '../seed/infrastructure'

/**
 * Op 14: a failed managed route is provisioned again (pending); any other route is a 409.
 * The gateway flavour answers as a real deployment's retry does, which provisions at once and
 * answers 200 with the route as it ends: `ready`, or `failed` again with `lastError` saying why
 * (the seeded route whose DNS record points elsewhere). The work failed though the call did not.
 */
const retryProxyRoute: OperationHandler<'retryProxyRoute'> = ({ core, params }) => {
  const host = core.state.proxyHosts.find((candidate) => candidate.id === params.id)
  if (!host) throw notFound({ resource: 'proxyHost', id: params.id })
  const route = host.routes.find((candidate) => candidate.id === params.routeId)
  if (!route) throw notFound({ resource: 'additionalRoute', id: params.routeId })
  if (route.status !== 'failed') {
    throw conflict({ reason: 'Only a failed route can be retried', status: route.status })
  }
  const now = core.now().toISOString()
  const previousError = route.lastError
  route.retryCount += 1
  route.lastAttemptAt = now
  route.updatedAt = now
  if (core.flavor === 'gateway') {
    if (!retryFailsAgain(route)) {
      route.status = 'active'
      route.lastError = null
    }
    // The real route's words for its states: `ready` where the sandbox keeps `active`.
    const status = route.status === 'active' ? 'ready' : route.status
    return json({ data: { ...route, status, proxyHostId: host.id } })
  }
  route.status = 'pending'
  route.lastError = null
  return json({ data: { ...route, proxyHostId: host.id, previousError } })
}

export const proxyHandlers = { retryProxyRoute }
