import { issueDatabaseCertificate } from '../database-certificates'
import type { SandboxPki } from '../pki/types'
import type {
  CopyJobRecord,
  DatabaseRecord,
  DeploymentRecord,
  NodeRecord,
  ProxyHostRecord,
  ProxyRouteRecord,
  VolumeRecord,
} from '../state'
import { DAY_MS, HOUR_MS, MINUTE_MS, hexFrom, newId, type SeedClock } from './time'

const MIB = 1024 * 1024
const GIB = 1024 * MIB

export function seedNodes(): NodeRecord[] {
  return [
    {
      id: newId(),
      slug: 'docker-fra-01',
      name: 'Frankfurt 01',
      hostname: 'docker-fra-01.nodes.northwind.example',
      daemonVersion: '2.14.1',
      canReloadCertificates: true,
    },
    {
      id: newId(),
      slug: 'docker-ams-02',
      name: 'Amsterdam 02',
      hostname: 'docker-ams-02.nodes.northwind.example',
      daemonVersion: '2.14.1',
      canReloadCertificates: true,
    },
    {
      // An old daemon: database certificates can only be rotated by a restart here.
      id: newId(),
      slug: 'docker-legacy-01',
      name: 'Legacy 01',
      hostname: 'docker-legacy-01.nodes.northwind.example',
      daemonVersion: '1.9.3',
      canReloadCertificates: false,
    },
  ]
}

/** Node by slug; the seed's own tables name nodes by slug. */
function nodeBySlug(nodes: NodeRecord[], slug: string): NodeRecord {
  const node = nodes.find((candidate) => candidate.slug === slug)
  if (!node) throw new Error(`Seed node "${slug}" does not exist`)
  return node
}

export async function seedDatabases(
  pki: SandboxPki,
  clock: SeedClock,
  nodes: NodeRecord[],
): Promise<DatabaseRecord[]> {
  const specs: [
    string,
    DatabaseRecord['engine'],
    string,
    string,
    number,
    DatabaseRecord['postgresSeed'],
  ][] = [
    ['billing-primary', 'postgresql', '16.4', 'docker-fra-01', 5432, 'large'],
    ['inventory', 'postgresql', '15.8', 'docker-ams-02', 5432, 'small'],
    ['sessions-cache', 'redis', '7.4.1', 'docker-fra-01', 6380, null],
    ['events-warehouse', 'clickhouse', '24.8.4', 'docker-ams-02', 9440, null],
    ['rate-limiter', 'redis', '6.2.14', 'docker-legacy-01', 6380, null],
  ]
  return Promise.all(
    specs.map(async ([name, engine, version, nodeSlug, port, postgresSeed], index) => {
      const host = `${name}.db.northwind.example`
      // Issued a while ago, so a rotation visibly moves notAfter forward.
      const certificate = await issueDatabaseCertificate(pki, host, clock.date(-40 * DAY_MS))
      return {
        id: newId(),
        name,
        engine,
        version,
        nodeId: nodeBySlug(nodes, nodeSlug).id,
        host,
        port,
        status: 'running' as const,
        postgresSeed,
        certificate,
        lastRotation: null,
        createdAt: clock.iso(-(300 - index * 20) * DAY_MS),
      }
    }),
  )
}

export function seedVolumes(
  clock: SeedClock,
  nodes: NodeRecord[],
): Omit<VolumeRecord, 'archiveBytes'>[] {
  const specs: [string, string, number, Record<string, string>][] = [
    ['docker-fra-01', 'shop-uploads', 3 * MIB, { app: 'storefront' }],
    ['docker-fra-01', 'grafana-data', 2 * MIB, { app: 'grafana' }],
    ['docker-fra-01', 'media-library', GIB, { app: 'storefront', tier: 'bulk' }],
    ['docker-ams-02', 'redis-sessions', 2 * MIB, { app: 'sessions' }],
    ['docker-ams-02', 'ci-cache', 6 * MIB, { app: 'ci' }],
    ['docker-ams-02', 'backups-nightly', 8 * MIB, { app: 'backup' }],
  ]
  return specs.map(([nodeSlug, name, dataBytes, labels], index) => ({
    nodeId: nodeBySlug(nodes, nodeSlug).id,
    name,
    driver: 'local' as const,
    dataBytes,
    contentSeed: `volume:${nodeSlug}:${name}`,
    createdAt: clock.iso(-(200 - index * 15) * DAY_MS),
    labels,
  }))
}

export function seedCopyJobs(
  clock: SeedClock,
  volumes: Omit<VolumeRecord, 'archiveBytes'>[],
): CopyJobRecord[] {
  const volume = (name: string) => {
    const found = volumes.find((candidate) => candidate.name === name)
    if (!found) throw new Error(`Seed volume "${name}" does not exist`)
    return found
  }
  const job = (
    name: string,
    from: string,
    to: { nodeId: string; volumeName: string },
    status: CopyJobRecord['status'],
    fraction: number,
    startedHoursAgo: number | null,
    extra: Partial<CopyJobRecord> = {},
  ): CopyJobRecord => {
    const source = volume(from)
    const finished = status === 'completed' || status === 'failed' || status === 'cancelled'
    const startedAt = startedHoursAgo === null ? null : clock.iso(-startedHoursAgo * HOUR_MS)
    return {
      id: newId(),
      name,
      status,
      source: { nodeId: source.nodeId, volumeName: source.name },
      target: to,
      totalBytes: source.dataBytes,
      bytesCopied: Math.round(source.dataBytes * fraction),
      errorMessage: null,
      createdAt: clock.iso(-((startedHoursAgo ?? 0) + 1) * HOUR_MS),
      startedAt,
      finishedAt: finished ? clock.iso(-Math.max(0, (startedHoursAgo ?? 1) - 1) * HOUR_MS) : null,
      cancelledAt:
        status === 'cancelled' ? clock.iso(-((startedHoursAgo ?? 1) - 0.5) * HOUR_MS) : null,
      updatedAt: clock.iso(-5 * MINUTE_MS),
      ...extra,
    }
  }
  const ams = volume('redis-sessions').nodeId
  const fra = volume('shop-uploads').nodeId
  return [
    job(
      'media-library → Amsterdam',
      'media-library',
      { nodeId: ams, volumeName: 'media-library' },
      'running',
      0.42,
      2,
    ),
    job(
      'shop-uploads → Amsterdam',
      'shop-uploads',
      { nodeId: ams, volumeName: 'shop-uploads-replica' },
      'queued',
      0,
      null,
    ),
    job(
      'grafana-data backup',
      'grafana-data',
      { nodeId: ams, volumeName: 'grafana-data-backup' },
      'queued',
      0,
      null,
    ),
    job(
      'ci-cache → Frankfurt',
      'ci-cache',
      { nodeId: fra, volumeName: 'ci-cache' },
      'completed',
      1,
      30,
    ),
    job(
      'backups-nightly → Frankfurt',
      'backups-nightly',
      { nodeId: fra, volumeName: 'backups-offsite' },
      'completed',
      1,
      50,
    ),
    job(
      'redis-sessions → Frankfurt',
      'redis-sessions',
      { nodeId: fra, volumeName: 'redis-sessions' },
      'failed',
      0.63,
      8,
      {
        errorMessage: 'Target node ran out of disk space (no space left on device)',
      },
    ),
    job(
      'grafana-data → Amsterdam (old)',
      'grafana-data',
      { nodeId: ams, volumeName: 'grafana-data' },
      'cancelled',
      0.18,
      72,
    ),
  ]
}

export function seedProxyHosts(
  clock: SeedClock,
  nodes: NodeRecord[],
  certificateIdByName: ReadonlyMap<string, string>,
): ProxyHostRecord[] {
  const route = (
    domain: string,
    path: string,
    forwardTo: string,
    status: ProxyRouteRecord['status'],
    lastError: string | null = null,
  ): ProxyRouteRecord => ({
    id: newId(),
    domain,
    path,
    forwardTo,
    managed: true,
    status,
    lastError,
    retryCount: status === 'failed' ? 3 : 0,
    lastAttemptAt: clock.iso(-(status === 'failed' ? 2 : 26) * HOUR_MS),
    updatedAt: clock.iso(-2 * HOUR_MS),
  })
  const d = 'northwind.example'
  const fra = nodeBySlug(nodes, 'docker-fra-01').id
  const ams = nodeBySlug(nodes, 'docker-ams-02').id
  return [
    {
      id: newId(),
      name: 'Storefront',
      domainNames: [`shop.${d}`],
      forwardHost: 'storefront',
      forwardPort: 3000,
      nodeId: fra,
      certificateId: certificateIdByName.get('shop-northwind') ?? null,
      routes: [
        route(`shop.${d}`, '/api', 'http://storefront-api:8080', 'active'),
        route(
          `ws.shop.${d}`,
          '/',
          'http://storefront-realtime:4000',
          'failed',
          `ACME http-01 challenge failed: DNS A record for ws.shop.${d} does not point at this proxy`,
        ),
        route(`m.shop.${d}`, '/', 'http://storefront:3000', 'active'),
      ],
    },
    {
      id: newId(),
      name: 'API gateway',
      domainNames: [`api.${d}`],
      forwardHost: 'gateway',
      forwardPort: 8443,
      nodeId: fra,
      certificateId: certificateIdByName.get('api-gateway') ?? null,
      routes: [
        route(`api.${d}`, '/v1', 'http://gateway-v1:8080', 'active'),
        route(
          `legacy-api.${d}`,
          '/',
          'http://gateway-legacy:8080',
          'failed',
          'Upstream gateway-legacy:8080 refused the connection during the health check',
        ),
        route(`partners.api.${d}`, '/', 'http://partner-gateway:8080', 'pending'),
      ],
    },
    {
      id: newId(),
      name: 'Docs',
      domainNames: [`docs.${d}`],
      forwardHost: 'docs-site',
      forwardPort: 80,
      nodeId: ams,
      certificateId: certificateIdByName.get('docs-portal') ?? null,
      routes: [route(`docs.${d}`, '/v2', 'http://docs-site-v2:80', 'active')],
    },
  ]
}

export function seedDeployments(clock: SeedClock, nodes: NodeRecord[]): DeploymentRecord[] {
  const fra = nodeBySlug(nodes, 'docker-fra-01').id
  const ams = nodeBySlug(nodes, 'docker-ams-02').id
  return [
    {
      id: newId(),
      name: 'storefront',
      nodeId: fra,
      strategy: 'blue_green',
      activeColor: 'blue',
      status: 'running',
      source: {
        type: 'git',
        repository: 'https://git.northwind.example/web/storefront.git',
        branch: 'main',
        branchHead: hexFrom('storefront-head', 40),
        branchHeadMessage: 'Checkout: show delivery estimate on the basket page',
        desiredCommit: hexFrom('storefront-desired', 40),
        deployedCommit: hexFrom('storefront-desired', 40),
        desiredCommitResolvedAt: clock.iso(-3 * DAY_MS),
      },
      lastBuildAt: clock.iso(-3 * DAY_MS + HOUR_MS),
      updatedAt: clock.iso(-3 * DAY_MS + HOUR_MS),
    },
    {
      id: newId(),
      name: 'docs-site',
      nodeId: ams,
      strategy: 'blue_green',
      activeColor: 'green',
      status: 'running',
      source: {
        type: 'git',
        repository: 'https://git.northwind.example/docs/site.git',
        branch: 'release',
        branchHead: hexFrom('docs-head', 40),
        branchHeadMessage: 'Document the v2 webhooks retry policy',
        desiredCommit: null,
        deployedCommit: hexFrom('docs-deployed', 40),
        desiredCommitResolvedAt: null,
      },
      lastBuildAt: clock.iso(-12 * DAY_MS),
      updatedAt: clock.iso(-12 * DAY_MS),
    },
    {
      // Not blue/green and not from Git: op 19 has no branch to resolve here.
      id: newId(),
      name: 'metabase',
      nodeId: ams,
      strategy: 'recreate',
      activeColor: null,
      status: 'running',
      source: { type: 'image', image: 'metabase/metabase', tag: 'v0.50.12' },
      lastBuildAt: null,
      updatedAt: clock.iso(-30 * DAY_MS),
    },
  ]
}

/**
 * Whether retrying this failed route fails again (the gateway flavour's op 14): DNS is not the
 * proxy's to change, so a route that failed on its DNS record fails again with the same cause.
 */
export function retryFailsAgain(route: Pick<ProxyRouteRecord, 'lastError'>): boolean {
  return route.lastError !== null && /\bDNS\b/.test(route.lastError)
}
