/*
 * A migration's status and phase in words. The service sends snake_case values
 * (`needs_attention`, `resolved_target_authoritative`); an operator reads a label, and the raw
 * value stays beside it as `code` where they may need it (to search the service's logs).
 */

const STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Pending',
  running: 'Running',
  waiting: 'Waiting',
  cancelling: 'Cancelling',
  cancelled: 'Cancelled',
  completed: 'Completed',
  failed: 'Failed',
  cleanup_pending: 'Cleanup pending',
  needs_attention: 'Needs attention',
}

const PHASE_LABELS: Readonly<Record<string, string>> = {
  resolved_target_authoritative: 'Resolved: the target node is authoritative',
  resolved_source_authoritative: 'Resolved: the source node is authoritative',
}

/** `snake_case` or `kebab-case` as a sentence: "cleanup_pending" → "Cleanup pending". */
export function sentenceOf(value: string): string {
  const text = value.replace(/[_-]+/g, ' ').trim()
  return text === '' ? value : text.charAt(0).toUpperCase() + text.slice(1)
}

/** A migration status as a label; a status the interface does not list is still worded. */
export function migrationStatusLabel(status: string): string {
  return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status]! : sentenceOf(status)
}

/** A migration phase as a label ("resolved_target_authoritative" says which side won). */
export function migrationPhaseLabel(phase: string): string {
  return Object.hasOwn(PHASE_LABELS, phase) ? PHASE_LABELS[phase]! : sentenceOf(phase)
}

/** A yes/no field (`keepSource`) in words; anything else is left to the caller. */
export function yesNo(value: unknown): string | null {
  if (value === true) return 'Yes'
  if (value === false) return 'No'
  return null
}
