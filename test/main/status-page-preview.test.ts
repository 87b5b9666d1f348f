import { describe, expect, it } from 'vitest'
import { readPreview } from '../../src/main/features/operations/status-page'

/* How main splits op 21's answer (any shape) into the page and its incidents. */

describe('readPreview', () => {
  it('takes incidents from any known list and keeps every other field on the page', () => {
    const { page, incidents } = readPreview({
      page: { name: 'Acme Status' },
      overall: 'degraded',
      incidents: [{ id: 'i1', state: 'investigating', startedAt: 1_747_058_602 }],
      resolvedIncidents: [{ id: 'i2', state: 'resolved' }],
      timezone: 'UTC',
    })
    expect(incidents.map((incident) => incident.id)).toEqual(['i1', 'i2'])
    expect(incidents[0]).toEqual({ id: 'i1', state: 'investigating', startedAt: 1_747_058_602 })
    expect(page).toEqual({ page: { name: 'Acme Status' }, overall: 'degraded', timezone: 'UTC' })
  })

  it('an entry that is not an incident with a string id stays on the page, not lost', () => {
    const { page, incidents } = readPreview({
      openIncidents: [{ id: 'i1' }, { id: 7, name: 'numbered' }, 'text'],
    })
    expect(incidents).toEqual([{ id: 'i1' }])
    expect(page).toEqual({ openIncidents: [{ id: 7, name: 'numbered' }, 'text'] })
  })
})
