import { createHash } from 'node:crypto'
import type { IncidentRecord, StatusComponentRecord, StatusPageRecord } from '../state'

/*
 * The gateway flavour's op 21, in the shape a real deployment's status page preview has
 * (wiolett-industries/gateway, `modules/status-page/status-page.service.ts`, PublicStatusPageDto;
 * facts only): `{title, description, hideExternalBranding, generatedAt, overallStatus, services,
 * incidents}`. Services carry `group` (or null), a status among operational, degraded, outage,
 * unknown and maintenance, and `healthHistory`: one `{ts, status, slow?}` per 5-minute check over
 * the last 16 hours (192 slots). Incidents are the active ones and those resolved in the last 14
 * days, newest first, each with `severity` (info, warning, critical), `status` active or
 * resolved, `affectedServiceIds` and its `updates` ({id, status, message, createdAt}).
 */

type ServiceStatus = 'operational' | 'degraded' | 'outage' | 'unknown' | 'maintenance'

export const HEALTH_SLOT_MS = 5 * 60 * 1000
export const HEALTH_SLOTS = 192
const RECENT_INCIDENT_DAYS = 14
const PUBLIC_INCIDENT_LIMIT = 25

const STATUS_FOR_IMPACT: Record<IncidentRecord['impact'], ServiceStatus> = {
  minor: 'degraded',
  major: 'outage',
  critical: 'outage',
}
const SEVERITY_FOR_IMPACT: Record<IncidentRecord['impact'], 'info' | 'warning' | 'critical'> = {
  minor: 'info',
  major: 'warning',
  critical: 'critical',
}
const RANK: ServiceStatus[] = ['operational', 'maintenance', 'unknown', 'degraded', 'outage']

function worst(statuses: ServiceStatus[]): ServiceStatus {
  return statuses.reduce<ServiceStatus>(
    (acc, status) => (RANK.indexOf(status) > RANK.indexOf(acc) ? status : acc),
    'operational',
  )
}

/** The real page's overall rule: any outage; else degraded or unknown; else maintenance. */
function overallOf(statuses: ServiceStatus[]): Exclude<ServiceStatus, 'unknown'> {
  if (statuses.includes('outage')) return 'outage'
  if (statuses.includes('degraded') || statuses.includes('unknown')) return 'degraded'
  if (statuses.includes('maintenance')) return 'maintenance'
  return 'operational'
}

/** A stable number in [0, 1) per text: the same seed draws the same history every time. */
function draw(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32
}

/** A UUID made from a text, so an update's id stays the same across previews. */
function stableUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

function openAt(incident: IncidentRecord, at: number): boolean {
  const started = Date.parse(incident.createdAt)
  const ended = incident.resolvedAt === null ? Infinity : Date.parse(incident.resolvedAt)
  return started <= at && at < ended
}

/**
 * One service's checks over the window, oldest first: degraded or outage while an incident
 * affecting it was open, a gap of `unknown` checks where the seed says its monitor was down, and
 * now and then a slow answer.
 */
function healthHistory(
  component: StatusComponentRecord,
  incidents: IncidentRecord[],
  now: number,
): { ts: string; status: ServiceStatus; slow?: true }[] {
  const last = Math.floor(now / HEALTH_SLOT_MS) * HEALTH_SLOT_MS
  const affecting = incidents.filter((incident) => incident.componentIds.includes(component.id))
  return Array.from({ length: HEALTH_SLOTS }, (_, index) => {
    const at = last - (HEALTH_SLOTS - 1 - index) * HEALTH_SLOT_MS
    const open = affecting.filter((incident) => openAt(incident, at))
    let status = worst(open.map((incident) => STATUS_FOR_IMPACT[incident.impact]))
    // The Dashboard's monitor lost its node for an hour, ten hours ago: no answer, no status.
    const hoursAgo = (last - at) / 3_600_000
    if (component.name === 'Dashboard' && hoursAgo >= 10 && hoursAgo < 11) status = 'unknown'
    const slow =
      status !== 'unknown' && status !== 'outage' && draw(`${component.id}:${index}`) < 0.05
    return { ts: new Date(at).toISOString(), status, ...(slow ? { slow: true as const } : {}) }
  })
}

export function gatewayPreview(
  page: StatusPageRecord,
  components: StatusComponentRecord[],
  incidents: IncidentRecord[],
  now: Date,
) {
  const nowMs = now.getTime()
  const open = incidents.filter((incident) => incident.status !== 'resolved')
  const services: {
    id: string
    name: string
    description: string
    group: string | null
    status: ServiceStatus
    healthHistory: { ts: string; status: ServiceStatus; slow?: true }[]
  }[] = components.map((component) => ({
    id: component.id,
    name: component.name,
    description: component.description,
    group: component.group,
    status: worst(
      open
        .filter((incident) => incident.componentIds.includes(component.id))
        .map((incident) => STATUS_FOR_IMPACT[incident.impact]),
    ),
    healthHistory: healthHistory(component, incidents, nowMs),
  }))
  // A service whose source the page cannot read (its node was removed): `unknown`, no group, and
  // the one check the real page makes up for a service without history.
  services.push({
    id: stableUuid(`${page.slug}:sms-relay`),
    name: 'SMS relay',
    description: 'Text message notifications',
    group: null,
    status: 'unknown',
    healthHistory: [{ ts: now.toISOString(), status: 'unknown' }],
  })
  const cutoff = nowMs - RECENT_INCIDENT_DAYS * 24 * 3_600_000
  const shown = incidents
    .filter(
      (incident) =>
        incident.status !== 'resolved' ||
        (incident.resolvedAt !== null && Date.parse(incident.resolvedAt) > cutoff),
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, PUBLIC_INCIDENT_LIMIT)
  return {
    title: page.title,
    description: `Live status of ${page.title.replace(/ Status$/, '')} services`,
    hideExternalBranding: false,
    generatedAt: now.toISOString(),
    overallStatus: overallOf(services.map((service) => service.status)),
    services,
    incidents: shown.map((incident) => ({
      id: incident.id,
      title: incident.title,
      message: incident.updates[0]?.message ?? '',
      severity: SEVERITY_FOR_IMPACT[incident.impact],
      status: incident.status === 'resolved' ? 'resolved' : 'active',
      type: 'manual',
      startedAt: incident.createdAt,
      resolvedAt: incident.resolvedAt,
      affectedServiceIds: [...incident.componentIds],
      updates: incident.updates.map((update, index) => ({
        id: stableUuid(`${incident.id}:${index}`),
        status: update.status,
        message: update.message,
        createdAt: update.at,
      })),
    })),
  }
}
