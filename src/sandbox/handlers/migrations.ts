import type { OperationHandler } from '../context'
import { conflict, notFound } from '../failure'
import { json } from '../http'
import { migrationView } from '../views'
import { gatewayMigrationView, gatewayPhase } from './migration-gateway'

/**
 * Op 13 (the spec's section 3): confirms the chosen node as authoritative, releases the
 * migration lock and the maintenance mode, restores the source's restart policy when the
 * source is chosen, and starts or removes no container. Target chosen: completed; source
 * chosen: cancelled (docs/SERVICE.md, "Migration status after resolve"). Every effect shows in
 * the returned migration.
 * The variant makes the other choice section 3 leaves open ("next state: not shown"): either
 * side ends `cleanup_pending` (no container was removed, so the other node's copy awaits
 * cleanup), still one of section 3's statuses; the phase names the side.
 * The gateway flavour answers the migration object as a real deployment shapes it
 * (migration-gateway.ts): its phase names (`done` when the target is kept, `rollback` when the
 * source is), `progress` as far as it got before it stopped, and none of the sandbox's extras.
 */
const resolveMigration: OperationHandler<'resolveMigration'> = ({ core, caller, params, body }) => {
  const migration = core.state.migrations.find((candidate) => candidate.id === params.id)
  if (!migration) throw notFound({ resource: 'migration', id: params.id })
  if (migration.status !== 'needs_attention') {
    throw conflict({
      reason: 'Only a migration that needs attention can be resolved',
      status: migration.status,
    })
  }
  const now = core.now().toISOString()
  const side = body.authoritativeSide
  const stoppedAt = gatewayPhase(migration.phase)
  const restoreRestartPolicy = side === 'source' && migration.replacedSourceRestartPolicy !== null

  migration.status = core.variant
    ? 'cleanup_pending'
    : side === 'target'
      ? 'completed'
      : 'cancelled'
  migration.phase =
    side === 'target' ? 'resolved_target_authoritative' : 'resolved_source_authoritative'
  migration.updatedAt = now
  migration.completedAt = now
  migration.lock = { ...migration.lock, held: false, releasedAt: now }
  migration.maintenanceMode = { ...migration.maintenanceMode, active: false, releasedAt: now }
  if (restoreRestartPolicy && migration.replacedSourceRestartPolicy !== null) {
    migration.sourceRestartPolicy = migration.replacedSourceRestartPolicy
    migration.replacedSourceRestartPolicy = null
  }
  migration.verification = { ...migration.verification, authoritativeSide: side }
  migration.resolution = {
    authoritativeSide: side,
    authoritativeNodeId: side === 'target' ? migration.targetNodeId : migration.sourceNodeId,
    resolvedAt: now,
    resolvedBy: caller.user.email,
    lockReleased: true,
    maintenanceModeReleased: true,
    restartPolicyRestored: restoreRestartPolicy,
    // Resolving only records the decision; containers stay exactly as the operator left them.
    containersStarted: 0,
    containersRemoved: 0,
  }
  if (core.flavor === 'gateway') {
    migration.phase = side === 'target' ? 'done' : 'rollback'
    return json({
      data: gatewayMigrationView(migration, {
        progressAt: stoppedAt,
        message: `Resolved by an operator: the ${side} node is authoritative`,
      }),
    })
  }
  return json({ data: migrationView(migration) })
}

export const migrationHandlers = { resolveMigration }
