import type { MigrationStatus } from '../../shared/api'
import type { DeploymentRecord, MigrationRecord, NodeRecord } from '../state'
import { HOUR_MS, MINUTE_MS, newId, type SeedClock } from './time'

/*
 * Migrations in every status, four of them needing attention. Those hold the migration
 * lock and keep both nodes in maintenance mode, with the source container's restart policy
 * replaced by "no": exactly what op 13 must undo. Two of those move containers of one name
 * ("keycloak" on each node): a migration is known by what it moves, so a name alone may not
 * say which one is meant (the app refuses such a name where an id is asked for).
 */

interface MigrationSpec {
  status: MigrationStatus
  phase: string
  resourceName: string
  deployment?: string
  from: string
  to: string
  keepSource?: boolean
  sourceState: string
  targetState: string
  startedHoursAgo: number | null
  errorCode?: string
  errorMessage?: string
  progress: Record<string, unknown>
  verification?: Record<string, unknown>
}

// prettier-ignore
const SPECS: MigrationSpec[] = [
  { status: 'pending', phase: 'queued', resourceName: 'grafana', from: 'docker-fra-01', to: 'docker-ams-02', sourceState: 'running', targetState: 'absent', startedHoursAgo: null, progress: { step: 0, totalSteps: 6 } },
  { status: 'running', phase: 'syncing_volumes', resourceName: 'storefront-worker', from: 'docker-fra-01', to: 'docker-ams-02', sourceState: 'running', targetState: 'created', startedHoursAgo: 1, progress: { step: 3, totalSteps: 6, bytesTransferred: 734003200, bytesTotal: 1073741824, percent: 68 } },
  { status: 'waiting', phase: 'awaiting_cutover_window', resourceName: 'billing-api', from: 'docker-fra-01', to: 'docker-ams-02', sourceState: 'running', targetState: 'created', startedHoursAgo: 5, progress: { step: 4, totalSteps: 6, cutoverWindow: '02:00-03:00 UTC' } },
  { status: 'cancelling', phase: 'rolling_back', resourceName: 'search-indexer', from: 'docker-ams-02', to: 'docker-fra-01', sourceState: 'stopped', targetState: 'removing', startedHoursAgo: 3, progress: { step: 2, totalSteps: 6 } },
  { status: 'cancelled', phase: 'cancelled', resourceName: 'mailhog', from: 'docker-ams-02', to: 'docker-fra-01', sourceState: 'running', targetState: 'absent', startedHoursAgo: 48, progress: { step: 2, totalSteps: 6 } },
  { status: 'completed', phase: 'done', resourceName: 'docs-site', deployment: 'docs-site', from: 'docker-fra-01', to: 'docker-ams-02', sourceState: 'removed', targetState: 'running', startedHoursAgo: 96, progress: { step: 6, totalSteps: 6, percent: 100 }, verification: { checksumsMatch: true, healthCheck: 'passing' } },
  { status: 'failed', phase: 'verifying', resourceName: 'metabase', from: 'docker-ams-02', to: 'docker-fra-01', sourceState: 'running', targetState: 'exited', startedHoursAgo: 20, errorCode: 'VERIFICATION_FAILED', errorMessage: 'Health check on the target did not pass within 300 s', progress: { step: 5, totalSteps: 6 }, verification: { checksumsMatch: true, healthCheck: 'failing' } },
  { status: 'cleanup_pending', phase: 'removing_source', resourceName: 'redis-sessions', from: 'docker-ams-02', to: 'docker-fra-01', sourceState: 'stopped', targetState: 'running', startedHoursAgo: 10, progress: { step: 6, totalSteps: 6 }, verification: { checksumsMatch: true, healthCheck: 'passing' } },
  { status: 'needs_attention', phase: 'cutover', resourceName: 'storefront', deployment: 'storefront', from: 'docker-fra-01', to: 'docker-ams-02', keepSource: true, sourceState: 'stopped', targetState: 'running', startedHoursAgo: 6, errorCode: 'SPLIT_BRAIN_SUSPECTED', errorMessage: 'Both nodes accepted writes during cutover; an operator must choose the authoritative side', progress: { step: 5, totalSteps: 6, percent: 90 }, verification: { checksumsMatch: false, sourceWritesAfterCutover: 14, targetWritesAfterCutover: 3 } },
  { status: 'needs_attention', phase: 'verifying', resourceName: 'wiki', from: 'docker-ams-02', to: 'docker-fra-01', sourceState: 'stopped', targetState: 'running', startedHoursAgo: 30, errorCode: 'VOLUME_CHECKSUM_MISMATCH', errorMessage: 'Volume wiki-data differs between source and target after the final sync', progress: { step: 5, totalSteps: 6 }, verification: { checksumsMatch: false, mismatchedVolumes: ['wiki-data'] } },
  { status: 'needs_attention', phase: 'cleanup', resourceName: 'keycloak', from: 'docker-fra-01', to: 'docker-ams-02', keepSource: true, sourceState: 'stopped', targetState: 'exited', startedHoursAgo: 14, errorCode: 'TARGET_UNHEALTHY_AFTER_CUTOVER', errorMessage: 'The target container exited after cutover; the source was kept stopped', progress: { step: 6, totalSteps: 6 }, verification: { checksumsMatch: true, healthCheck: 'failing' } },
  // Last, so the first needs_attention ids stay those above (tests pick the first two).
  { status: 'needs_attention', phase: 'verifying', resourceName: 'keycloak', from: 'docker-ams-02', to: 'docker-fra-01', sourceState: 'stopped', targetState: 'running', startedHoursAgo: 12, errorCode: 'VOLUME_CHECKSUM_MISMATCH', errorMessage: 'Volume keycloak-data differs between source and target after the final sync', progress: { step: 5, totalSteps: 6 }, verification: { checksumsMatch: false, mismatchedVolumes: ['keycloak-data'] } },
]

const TERMINAL: MigrationStatus[] = ['cancelled', 'completed', 'failed']

export function seedMigrations(
  clock: SeedClock,
  nodes: NodeRecord[],
  deployments: DeploymentRecord[],
): MigrationRecord[] {
  const node = (slug: string) => {
    const found = nodes.find((candidate) => candidate.slug === slug)
    if (!found) throw new Error(`Seed node "${slug}" does not exist`)
    return found
  }
  return SPECS.map((spec, index) => {
    const source = node(spec.from)
    const target = node(spec.to)
    const deploymentId = spec.deployment
      ? (deployments.find((deployment) => deployment.name === spec.deployment)?.id ?? null)
      : null
    const started = spec.startedHoursAgo === null ? null : -spec.startedHoursAgo * HOUR_MS
    const createdAt = clock.iso((started ?? 0) - 10 * MINUTE_MS - index * MINUTE_MS)
    const terminal = TERMINAL.includes(spec.status)
    // A migration that is under way (or stuck) holds the lock and the maintenance mode.
    const holding = !terminal && spec.status !== 'pending'
    const afterCutover = ['needs_attention', 'cleanup_pending', 'completed', 'failed'].includes(
      spec.status,
    )
    return {
      id: newId(),
      resourceType: spec.deployment ? 'deployment' : 'container',
      resourceName: spec.resourceName,
      deploymentId,
      sourceNodeId: source.id,
      targetNodeId: target.id,
      targetNodeSlug: target.slug,
      targetResourceId: spec.status === 'pending' ? null : `${spec.resourceName}-${target.slug}`,
      keepSource: spec.keepSource ?? false,
      sourceState: spec.sourceState,
      targetState: spec.targetState,
      status: spec.status,
      phase: spec.phase,
      progress: spec.progress,
      verification: spec.verification ?? {},
      errorCode: spec.errorCode ?? null,
      errorMessage: spec.errorMessage ?? null,
      cancellationRequestedAt:
        spec.status === 'cancelling' || spec.status === 'cancelled'
          ? clock.iso((started ?? 0) + HOUR_MS)
          : null,
      cutoverAt: afterCutover && started !== null ? clock.iso(started + 40 * MINUTE_MS) : null,
      createdAt,
      startedAt: started === null ? null : clock.iso(started),
      updatedAt: clock.iso(-(index + 1) * MINUTE_MS),
      completedAt: terminal && started !== null ? clock.iso(started + 2 * HOUR_MS) : null,
      lock: {
        held: holding,
        acquiredAt: started === null ? null : clock.iso(started),
        releasedAt: holding || started === null ? null : clock.iso(started + 2 * HOUR_MS),
      },
      maintenanceMode: {
        active: holding,
        nodeIds: holding ? [source.id, target.id] : [],
        enteredAt: holding && started !== null ? clock.iso(started + 30 * MINUTE_MS) : null,
        releasedAt: null,
      },
      sourceRestartPolicy: afterCutover && !terminal ? 'no' : 'unless-stopped',
      replacedSourceRestartPolicy: afterCutover && !terminal ? 'unless-stopped' : null,
      resolution: null,
    }
  })
}
