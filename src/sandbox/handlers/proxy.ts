import type { OperationHandler } from '../context'
import { conflict, notFound } from '../failure'
import { json } from '../http'

/** Op 14: a failed managed route is provisioned again (pending); any other route is a 409. */
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
  route.status = 'pending'
  route.lastError = null
  route.retryCount += 1
  route.lastAttemptAt = now
  route.updatedAt = now
  return json({ data: { ...route, proxyHostId: host.id, previousError } })
}

export const proxyHandlers = { retryProxyRoute }
