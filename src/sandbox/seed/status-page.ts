import type {
  IncidentRecord,
  IncidentStatus,
  IncidentUpdate,
  StatusComponentRecord,
  StatusPageRecord,
} from '../state'
import { DAY_MS, HOUR_MS, MINUTE_MS, newId, type SeedClock } from './time'

export function seedStatusPage(): StatusPageRecord {
  return {
    title: 'Northwind Status',
    slug: 'northwind',
    publicUrl: 'https://status.northwind.example',
  }
}

export function seedStatusComponents(): StatusComponentRecord[] {
  const components: [string, string, string][] = [
    ['Storefront', 'Customer facing', 'Web shop and checkout'],
    ['Public API', 'Customer facing', 'REST and GraphQL APIs'],
    ['Webhooks', 'Customer facing', 'Outgoing event deliveries'],
    ['Payments', 'Customer facing', 'Card and invoice payments'],
    ['Dashboard', 'Internal', 'Operator dashboard'],
    ['Search', 'Internal', 'Catalogue search and indexing'],
  ]
  return components.map(([name, group, description]) => ({ id: newId(), name, group, description }))
}

export function seedIncidents(
  clock: SeedClock,
  components: StatusComponentRecord[],
): IncidentRecord[] {
  const componentIds = (...names: string[]) =>
    components
      .filter((component) => names.includes(component.name))
      .map((component) => component.id)
  return [
    incident('Delayed webhook deliveries', 'minor', componentIds('Webhooks'), [
      update(
        clock.iso(-45 * MINUTE_MS),
        'investigating',
        'Webhook deliveries are delayed by up to 10 minutes. We are investigating.',
      ),
      update(
        clock.iso(-20 * MINUTE_MS),
        'investigating',
        'The delivery queue is draining; delays are shrinking.',
      ),
    ]),
    incident('Elevated error rate on search', 'major', componentIds('Search', 'Storefront'), [
      update(
        clock.iso(-3 * HOUR_MS),
        'investigating',
        'Some catalogue searches fail with a timeout.',
      ),
      update(
        clock.iso(-HOUR_MS),
        'identified',
        'A reindex overloaded one search shard; it is being rebalanced.',
      ),
    ]),
    incident('Payments provider maintenance', 'minor', componentIds('Payments'), [
      update(
        clock.iso(-26 * HOUR_MS),
        'identified',
        'Our payments provider runs planned maintenance; some card payments may be retried.',
      ),
      update(
        clock.iso(-2 * HOUR_MS),
        'monitoring',
        'Maintenance is over; we are watching payment success rates.',
      ),
    ]),
    incident('Dashboard login failures', 'major', componentIds('Dashboard'), [
      update(clock.iso(-4 * DAY_MS), 'investigating', 'Operators cannot sign in to the dashboard.'),
      update(
        clock.iso(-4 * DAY_MS + 2 * HOUR_MS),
        'resolved',
        'An expired identity provider certificate was replaced.',
      ),
    ]),
    incident('API outage in Frankfurt', 'critical', componentIds('Public API', 'Storefront'), [
      update(
        clock.iso(-11 * DAY_MS),
        'investigating',
        'The API does not answer from the Frankfurt region.',
      ),
      update(
        clock.iso(-11 * DAY_MS + 50 * MINUTE_MS),
        'resolved',
        'Traffic was moved to Amsterdam and Frankfurt recovered.',
      ),
    ]),
  ]
}

const update = (at: string, status: IncidentStatus, message: string): IncidentUpdate => ({
  at,
  status,
  message,
})

/**
 * An incident told by its updates, oldest first: opened at the first, now where the last left
 * it (resolved at the last one when that resolved it).
 */
function incident(
  title: string,
  impact: IncidentRecord['impact'],
  componentIds: string[],
  updates: [IncidentUpdate, ...IncidentUpdate[]],
): IncidentRecord {
  const first = updates[0]
  const last = updates.at(-1) ?? first
  return {
    id: newId(),
    title,
    status: last.status,
    impact,
    componentIds,
    createdAt: first.at,
    updatedAt: last.at,
    resolvedAt: last.status === 'resolved' ? last.at : null,
    updates,
  }
}
