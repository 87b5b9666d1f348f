import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { MIGRATION_STATUSES } from '../../src/shared/api'
import {
  MigrationPhase,
  MigrationStatus,
} from '../../src/renderer/src/features/migrations/MigrationStatus'
import {
  migrationPhaseLabel,
  migrationStatusLabel,
  yesNo,
} from '../../src/renderer/src/features/migrations/words'
import { itWords } from './support/word-tables'

/*
 * A migration's status, phase and yes/no fields read as words (the screen once
 * showed `needs_attention`, `resolved_target_authoritative` and "Keep source true"); the value
 * as sent stays beside the words as code.
 */

describe('migration words', () => {
  it.each(MIGRATION_STATUSES)('the status %s of the interface has a label without _', (status) => {
    expect(migrationStatusLabel(status)).not.toMatch(/_/)
  })

  itWords('the status', migrationStatusLabel, [
    ['needs_attention', 'Needs attention'],
    ['cleanup_pending', 'Cleanup pending'],
    // A status the interface does not list is worded, not dropped.
    ['rolled_back', 'Rolled back'],
  ])

  it('a resolved phase says which side is authoritative', () => {
    expect(migrationPhaseLabel('resolved_target_authoritative')).toBe(
      'Resolved: the target node is authoritative',
    )
    expect(migrationPhaseLabel('resolved_source_authoritative')).toBe(
      'Resolved: the source node is authoritative',
    )
    expect(migrationPhaseLabel('cutover')).toBe('Cutover')
  })

  it('keepSource reads yes or no', () => {
    expect(yesNo(true)).toBe('Yes')
    expect(yesNo(false)).toBe('No')
    expect(yesNo('true')).toBeNull()
  })

  it('the badge leads with the words; the raw value follows as code where asked', () => {
    const withRaw = renderToStaticMarkup(
      createElement(MigrationStatus, { status: 'needs_attention', raw: true }),
    )
    expect(withRaw).toMatch(
      />Needs attention<\/span><code class="raw-value">needs_attention<\/code>/,
    )
    const plain = renderToStaticMarkup(
      createElement(MigrationStatus, { status: 'needs_attention' }),
    )
    expect(plain).toContain('title="needs_attention"')
    expect(plain).not.toContain('<code')
    const phase = renderToStaticMarkup(
      createElement(MigrationPhase, { phase: 'resolved_target_authoritative' }),
    )
    expect(phase).toContain('Resolved: the target node is authoritative<code')
  })
})
