import { MIGRATION_PHASES } from '../../shared/api'
import type { MigrationRecord } from '../state'

/*
 * The gateway flavour's migration object, as a real deployment's docker module shapes it
 * (`docker-migration-records.ts`, `docker-migration.schemas.ts`; facts only): exactly the 22
 * fields of the spec's 2.4, phases from its list (queued, locking, … transferring, …
 * verifying_target, … cutover, proxy_cutover, cleanup_source, finalizing, done; rollback), and
 * `progress` with its keys: `completedPhases`, `transferredBytes` and `totalBytes` while
 * artifacts move, `message`. The sandbox's own records keep their words; this maps them.
 */

const PHASE_OF: Record<string, string> = {
  queued: 'queued',
  syncing_volumes: 'transferring',
  awaiting_cutover_window: 'cutover',
  rolling_back: 'rollback',
  cancelled: 'rollback',
  done: 'done',
  verifying: 'verifying_target',
  removing_source: 'cleanup_source',
  cutover: 'cutover',
  cleanup: 'cleanup_source',
}

/** The real phase for one of the sandbox's, or the sandbox's word when it has none. */
export function gatewayPhase(phase: string): string {
  return PHASE_OF[phase] ?? phase
}

function numberField(record: Record<string, unknown>, key: string): number | null {
  const value = record[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** The phases before `phase` on the real way (none for `rollback` or a phase not on it). */
function phasesBefore(phase: string): string[] {
  const index = (MIGRATION_PHASES as readonly string[]).indexOf(phase)
  // `queued` is where a migration waits, not a phase it completes.
  return index <= 0 ? [] : MIGRATION_PHASES.slice(1, index)
}

function gatewayProgress(migration: MigrationRecord, phase: string): Record<string, unknown> {
  const progress: Record<string, unknown> = { completedPhases: phasesBefore(phase) }
  const transferred = numberField(migration.progress, 'bytesTransferred')
  const total = numberField(migration.progress, 'bytesTotal')
  if (transferred !== null && total !== null) {
    progress['transferredBytes'] = transferred
    progress['totalBytes'] = total
    progress['message'] = 'Transferring volume'
  } else if (phasesBefore(phase).includes('transferring')) {
    progress['message'] = 'Artifacts transferred and verified'
  }
  return progress
}

/**
 * `progressAt`: the phase whose progress the object reports, when it is not the current one (a
 * resolved migration reports how far it got before it stopped); `message` overrides the words.
 */
export function gatewayMigrationView(
  migration: MigrationRecord,
  { progressAt, message }: { progressAt?: string; message?: string } = {},
) {
  const phase = gatewayPhase(migration.phase)
  const progress = gatewayProgress(migration, progressAt ?? phase)
  if (message !== undefined) progress['message'] = message
  return {
    id: migration.id,
    resourceType: migration.resourceType,
    resourceName: migration.resourceName,
    deploymentId: migration.deploymentId,
    sourceNodeId: migration.sourceNodeId,
    targetNodeId: migration.targetNodeId,
    targetNodeSlug: migration.targetNodeSlug,
    targetResourceId: migration.targetResourceId,
    keepSource: migration.keepSource,
    sourceState: migration.sourceState,
    status: migration.status,
    phase,
    progress,
    verification: structuredClone(migration.verification),
    errorCode: migration.errorCode,
    errorMessage: migration.errorMessage,
    cancellationRequestedAt: migration.cancellationRequestedAt,
    cutoverAt: migration.cutoverAt,
    createdAt: migration.createdAt,
    startedAt: migration.startedAt,
    updatedAt: migration.updatedAt,
    completedAt: migration.completedAt,
  }
}
