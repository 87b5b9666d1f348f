import type { IncidentRecord, StatusComponentRecord, StatusPageRecord } from '../state'
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
    {
      id: newId(),
      title: 'Delayed webhook deliveries',
      status: 'investigating',
      impact: 'minor',
      componentIds: componentIds('Webhooks'),
      createdAt: clock.iso(-45 * MINUTE_MS),
      updatedAt: clock.iso(-20 * MINUTE_MS),
      resolvedAt: null,
      updates: [
        {
          at: clock.iso(-45 * MINUTE_MS),
          status: 'investigating',
          message: 'Webhook deliveries are delayed by up to 10 minutes. We are investigating.',
        },
        {
          at: clock.iso(-20 * MINUTE_MS),
          status: 'investigating',
          message: 'The delivery queue is draining; delays are shrinking.',
        },
      ],
    },
    {
      id: newId(),
      title: 'Elevated error rate on search',
      status: 'identified',
      impact: 'major',
      componentIds: componentIds('Search', 'Storefront'),
      createdAt: clock.iso(-3 * HOUR_MS),
      updatedAt: clock.iso(-HOUR_MS),
      resolvedAt: null,
      updates: [
        {
          at: clock.iso(-3 * HOUR_MS),
          status: 'investigating',
          message: 'Some catalogue searches fail with a timeout.',
        },
        {
          at: clock.iso(-HOUR_MS),
          status: 'identified',
          message: 'A reindex overloaded one search shard; it is being rebalanced.',
        },
      ],
    },
    {
      id: newId(),
      title: 'Payments provider maintenance',
      status: 'monitoring',
      impact: 'minor',
      componentIds: componentIds('Payments'),
      createdAt: clock.iso(-26 * HOUR_MS),
      updatedAt: clock.iso(-2 * HOUR_MS),
      resolvedAt: null,
      updates: [
        {
          at: clock.iso(-26 * HOUR_MS),
          status: 'identified',
          message:
            'Our payments provider runs planned maintenance; some card payments may be retried.',
        },
        {
          at: clock.iso(-2 * HOUR_MS),
          status: 'monitoring',
          message: 'Maintenance is over; we are watching payment success rates.',
        },
      ],
    },
    {
      id: newId(),
      title: 'Dashboard login failures',
      status: 'resolved',
      impact: 'major',
      componentIds: componentIds('Dashboard'),
      createdAt: clock.iso(-4 * DAY_MS),
      updatedAt: clock.iso(-4 * DAY_MS + 2 * HOUR_MS),
      resolvedAt: clock.iso(-4 * DAY_MS + 2 * HOUR_MS),
      updates: [
        {
          at: clock.iso(-4 * DAY_MS),
          status: 'investigating',
          message: 'Operators cannot sign in to the dashboard.',
        },
        {
          at: clock.iso(-4 * DAY_MS + 2 * HOUR_MS),
          status: 'resolved',
          message: 'An expired identity provider certificate was replaced.',
        },
      ],
    },
    {
      id: newId(),
      title: 'API outage in Frankfurt',
      status: 'resolved',
      impact: 'critical',
      componentIds: componentIds('Public API', 'Storefront'),
      createdAt: clock.iso(-11 * DAY_MS),
      updatedAt: clock.iso(-11 * DAY_MS + 50 * MINUTE_MS),
      resolvedAt: clock.iso(-11 * DAY_MS + 50 * MINUTE_MS),
      updates: [
        {
          at: clock.iso(-11 * DAY_MS),
          status: 'investigating',
          message: 'The API does not answer from the Frankfurt region.',
        },
        {
          at: clock.iso(-11 * DAY_MS + 50 * MINUTE_MS),
          status: 'resolved',
          message: 'Traffic was moved to Amsterdam and Frankfurt recovered.',
        },
      ],
    },
  ]
}
