import { MIGRATION_PHASES } from '../../../../shared/api'
import type { Migration } from '../../../../shared/api'
import { formatBytes } from '../transfers/format'

/*
 * Where a migration got, in words: its phase (and, for a phase on a real deployment's way from
 * queued to done, which of those it has passed), bytes moved of how many, a percentage or a
 * step count, and the service's message. Read from `progress`, whose keys the spec leaves open:
 * a real deployment's (completedPhases, transferredBytes, totalBytes, message), the sandbox's
 * (step, totalSteps, bytesTransferred, bytesTotal, percent). The key/value table beside it still
 * shows every key as sent.
 */

function words(phase: string): string {
  const text = phase.replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function numberOf(progress: Record<string, unknown>, ...keys: string[]): number | null {
  for (const key of keys) {
    const value = progress[key]
    if (typeof value === 'number' && Number.isFinite(value)) return value
  }
  return null
}

function textOf(progress: Record<string, unknown>, key: string): string | null {
  const value = progress[key]
  return typeof value === 'string' && value !== '' ? value : null
}

export function MigrationProgress({ migration }: { migration: Migration }) {
  const { phase, progress } = migration
  const completed = Array.isArray(progress['completedPhases'])
    ? progress['completedPhases'].filter((item): item is string => typeof item === 'string')
    : []
  const phases = MIGRATION_PHASES as readonly string[]
  const onTheWay = phases.includes(phase) || completed.some((item) => phases.includes(item))
  const transferred = numberOf(progress, 'transferredBytes', 'bytesTransferred')
  const total = numberOf(progress, 'totalBytes', 'bytesTotal')
  const percent =
    transferred !== null && total !== null && total > 0
      ? Math.round((transferred / total) * 100)
      : numberOf(progress, 'percent')
  const step = numberOf(progress, 'step')
  const steps = numberOf(progress, 'totalSteps')
  const message = textOf(progress, 'message')
  return (
    <section aria-label="Phase and progress" className="migration-progress">
      <h3>Phase and progress</h3>
      <p>
        Phase: <strong>{words(phase)}</strong>
        {phases.includes(phase) && phase !== 'queued' && phase !== 'done' ? (
          <span className="muted">
            {' '}
            (phase {phases.indexOf(phase)} of {phases.length - 2} on the way to done)
          </span>
        ) : null}
        {step !== null && steps !== null ? (
          <span className="muted">
            {' '}
            · step {step} of {steps}
          </span>
        ) : null}
      </p>
      {percent !== null ? (
        <p className="migration-progress-bar">
          <progress max={100} value={Math.min(Math.max(percent, 0), 100)} aria-label="Progress" />{' '}
          <span>
            {transferred !== null && total !== null
              ? `${formatBytes(transferred)} of ${formatBytes(total)} (${percent} %)`
              : `${percent} %`}
          </span>
        </p>
      ) : null}
      {message ? <p className="migration-progress-message">{message}</p> : null}
      {onTheWay ? (
        <ol className="migration-phases" aria-label="Phases">
          {MIGRATION_PHASES.filter((item) => item !== 'queued').map((item) => {
            const state = completed.includes(item)
              ? 'passed'
              : item === phase
                ? 'current'
                : 'not reached'
            return (
              <li
                key={item}
                className={`migration-phase migration-phase-${state.replace(' ', '-')}`}
              >
                {words(item)} <span className="muted">({state})</span>
              </li>
            )
          })}
        </ol>
      ) : null}
    </section>
  )
}
