import type { AppEnvironmentRecord, AppMemberRecord, AppRecord, NodeRecord } from '../state'
import { newId } from './time'

export interface AppsSeed {
  environments: AppEnvironmentRecord[]
  apps: AppRecord[]
  members: AppMemberRecord[]
}

/**
 * Apps with members across environments. The viewer may see staging and development but not
 * production, and not members marked admin-only: op 20 shows the viewer fewer members.
 */
export function seedApps(nodes: NodeRecord[]): AppsSeed {
  const environments: AppEnvironmentRecord[] = [
    { id: newId(), name: 'Production', slug: 'production', visibleTo: ['admin'] },
    { id: newId(), name: 'Staging', slug: 'staging', visibleTo: ['admin', 'viewer'] },
    { id: newId(), name: 'Development', slug: 'development', visibleTo: ['admin', 'viewer'] },
  ]
  const [production, staging, development] = environments.map((environment) => environment.id) as [
    string,
    string,
    string,
  ]
  const [fra, ams, legacy] = nodes.map((node) => node.id) as [string, string, string]

  const storefront: AppRecord = {
    id: newId(),
    name: 'Storefront',
    slug: 'storefront',
    environmentIds: [production, staging, development],
  }
  const billing: AppRecord = {
    id: newId(),
    name: 'Billing',
    slug: 'billing',
    environmentIds: [production, staging],
  }
  const intranet: AppRecord = {
    id: newId(),
    name: 'Intranet',
    slug: 'intranet',
    environmentIds: [production],
  }

  const member = (
    app: AppRecord,
    type: AppMemberRecord['type'],
    name: string,
    environmentId: string,
    nodeIds: string[],
    visibleTo: AppMemberRecord['visibleTo'] = ['admin', 'viewer'],
  ): AppMemberRecord => ({
    appId: app.id,
    type,
    id: newId(),
    name,
    environmentId,
    nodeIds,
    nodeId: type === 'docker' ? (nodeIds[0] ?? null) : null,
    visibleTo,
  })

  const members: AppMemberRecord[] = [
    member(storefront, 'docker', 'storefront-web', production, [fra]),
    member(storefront, 'docker', 'storefront-worker', production, [fra]),
    member(storefront, 'database', 'billing-primary', production, [fra]),
    member(storefront, 'proxy_host', 'shop.northwind.example', production, [fra, ams]),
    member(storefront, 'docker', 'storefront-web', staging, [ams]),
    member(storefront, 'static_site', 'storefront-storybook', staging, [ams]),
    member(storefront, 'docker', 'storefront-secrets-sync', staging, [ams], ['admin']),
    member(storefront, 'docker', 'storefront-web', development, [legacy]),
    member(storefront, 'database', 'inventory', development, [ams]),
    member(billing, 'docker', 'billing-api', production, [fra]),
    member(billing, 'database', 'billing-primary', production, [fra]),
    member(billing, 'docker', 'billing-api', staging, [ams]),
    member(billing, 'proxy_host', 'payments.northwind.example', staging, [ams]),
    member(intranet, 'docker', 'wiki', production, [legacy]),
    member(intranet, 'static_site', 'handbook', production, [ams]),
  ]
  return { environments, apps: [storefront, billing, intranet], members }
}
