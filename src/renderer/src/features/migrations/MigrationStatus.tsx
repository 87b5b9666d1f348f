import { Badge } from '../../ui/Badge'
import { migrationPhaseLabel, migrationStatusLabel } from './words'

export function statusTone(status: string) {
  if (status === 'completed') return 'success' as const
  if (status === 'needs_attention' || status === 'failed') return 'danger' as const
  if (status === 'cancelled') return 'neutral' as const
  return 'info' as const
}

/**
 * A migration status as a badge in words. Where an operator may need the value the service
 * sent (a details table, what the app last saw), it follows as `code`; elsewhere it is the
 * tooltip.
 */
export function MigrationStatus({ status, raw = false }: { status: string; raw?: boolean }) {
  const label = migrationStatusLabel(status)
  return (
    <span className="migration-status" title={raw ? undefined : status}>
      <Badge tone={statusTone(status)}>{label}</Badge>
      {raw && label !== status ? <code className="raw-value">{status}</code> : null}
    </span>
  )
}

/** A phase in words, the value as sent beside it. */
export function MigrationPhase({ phase }: { phase: string }) {
  const label = migrationPhaseLabel(phase)
  return (
    <span className="migration-status">
      {label}
      {label !== phase ? <code className="raw-value">{phase}</code> : null}
    </span>
  )
}
