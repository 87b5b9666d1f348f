import type { OperationHandler } from '../context'
import { conflict, notFound } from '../failure'
import { json } from '../http'
import type {
  IncidentRecord,
  IncidentUpdate,
  StatusComponentRecord,
  StatusPageRecord,
} from '../state'
import { gatewayPreview } from './status-page-gateway'

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

/**
 * Op 21: what the public status page would show now, derived from the open incidents. The
 * gateway flavour's shape is a real deployment's (status-page-gateway.ts).
 */
const getStatusPagePreview: OperationHandler<'getStatusPagePreview'> = ({ core }) => {
  const { statusPage, statusComponents, incidents } = core.state
  if (core.flavor === 'gateway') {
    return json({ data: gatewayPreview(statusPage, statusComponents, incidents, core.now()) })
  }
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
  const overallStatus = worst(components.map((component) => component.status))
  if (core.variant) {
    return json({
      data: variantPreview(
        statusPage,
        components,
        overallStatus,
        [...open, ...recentlyResolved],
        core.now(),
      ),
    })
  }
  return json({
    data: {
      ...statusPage,
      overallStatus,
      components,
      openIncidents: structuredClone(open),
      recentlyResolved: structuredClone(recentlyResolved),
      generatedAt: core.now().toISOString(),
    },
  })
}

/*
 * The variant's op 21 (the spec shows only "data envelope"): the same page in another
 * reasonable shape, every name and unit different from the default's where a service could
 * choose either: the page's name and address nested under `page`, `overall` and component
 * `state` in a statuspage.io-like vocabulary (`degraded` for degraded_performance), one
 * `incidents` list whose entries carry `name`, `state`, `severity`, times in epoch seconds
 * (`startedAt`, `resolvedAt`, the page's `updated_at`; updates' `at` with `body`), and fields the app has no name for
 * (`timezone`, `subscriberCount`, incidents' `shortlink`), which it must still show.
 */
const VARIANT_STATE: Record<ComponentStatus, string> = {
  operational: 'operational',
  degraded_performance: 'degraded',
  partial_outage: 'partial_outage',
  major_outage: 'major_outage',
}

function epochSeconds(iso: string): number
function epochSeconds(iso: string | null): number | null
function epochSeconds(iso: string | null): number | null {
  return iso === null ? null : Math.floor(Date.parse(iso) / 1000)
}

function variantPreview(
  statusPage: StatusPageRecord,
  components: (StatusComponentRecord & { status: ComponentStatus })[],
  overall: ComponentStatus,
  incidents: IncidentRecord[],
  now: Date,
) {
  return {
    page: { name: statusPage.title, slug: statusPage.slug, url: statusPage.publicUrl },
    overall: VARIANT_STATE[overall],
    updated_at: Math.floor(now.getTime() / 1000),
    timezone: 'UTC',
    subscriberCount: 1284,
    components: components.map(({ status, ...component }) => ({
      ...component,
      state: VARIANT_STATE[status],
    })),
    incidents: incidents.map((incident) => ({
      id: incident.id,
      name: incident.title,
      state: incident.status,
      severity: incident.impact,
      componentIds: [...incident.componentIds],
      startedAt: epochSeconds(incident.createdAt),
      resolvedAt: epochSeconds(incident.resolvedAt),
      shortlink: `https://stat.us/${incident.id.slice(0, 8)}`,
      updates: incident.updates.map((update: IncidentUpdate) => ({
        at: epochSeconds(update.at),
        state: update.status,
        body: update.message,
      })),
    })),
  }
}

export const statusPageHandlers = { resolveIncident, getStatusPagePreview }
