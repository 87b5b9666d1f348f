import type { OperationHandler } from '../context'
import { conflict, notFound } from '../failure'
import { json } from '../http'
import type { IncidentRecord } from '../state'

/** Op 18: an open incident becomes resolved (resolvedAt set); a resolved one is a 409. */
const resolveIncident: OperationHandler<'resolveIncident'> = ({ core, caller, params }) => {
  const incident = core.state.incidents.find((candidate) => candidate.id === params.id)
  if (!incident) throw notFound({ resource: 'incident', id: params.id })
  if (incident.status === 'resolved') {
    throw conflict({ reason: 'The incident is already resolved', resolvedAt: incident.resolvedAt })
  }
  const now = core.now().toISOString()
  incident.status = 'resolved'
  incident.resolvedAt = now
  incident.updatedAt = now
  incident.updates.push({
    at: now,
    status: 'resolved',
    message: `Resolved by ${caller.user.name}.`,
  })
  return json({ data: structuredClone(incident) })
}

const COMPONENT_STATUS_RANK = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
] as const
type ComponentStatus = (typeof COMPONENT_STATUS_RANK)[number]

const STATUS_FOR_IMPACT: Record<IncidentRecord['impact'], ComponentStatus> = {
  minor: 'degraded_performance',
  major: 'partial_outage',
  critical: 'major_outage',
}

function worst(statuses: ComponentStatus[]): ComponentStatus {
  return statuses.reduce<ComponentStatus>(
    (acc, status) =>
      COMPONENT_STATUS_RANK.indexOf(status) > COMPONENT_STATUS_RANK.indexOf(acc) ? status : acc,
    'operational',
  )
}

const RECENTLY_RESOLVED = 5

/** Op 21: what the public status page would show now, derived from the open incidents. */
const getStatusPagePreview: OperationHandler<'getStatusPagePreview'> = ({ core }) => {
  const { statusPage, statusComponents, incidents } = core.state
  const open = incidents.filter((incident) => incident.status !== 'resolved')
  const components = statusComponents.map((component) => ({
    ...component,
    status: worst(
      open
        .filter((incident) => incident.componentIds.includes(component.id))
        .map((incident) => STATUS_FOR_IMPACT[incident.impact]),
    ),
  }))
  const recentlyResolved = incidents
    .filter((incident) => incident.status === 'resolved')
    .sort((a, b) => (b.resolvedAt ?? '').localeCompare(a.resolvedAt ?? ''))
    .slice(0, RECENTLY_RESOLVED)
  return json({
    data: {
      ...statusPage,
      overallStatus: worst(components.map((component) => component.status)),
      components,
      openIncidents: structuredClone(open),
      recentlyResolved: structuredClone(recentlyResolved),
      generatedAt: core.now().toISOString(),
    },
  })
}

export const statusPageHandlers = { resolveIncident, getStatusPagePreview }
