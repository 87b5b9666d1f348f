import { describe, expect, it } from 'vitest'
import {
  activityRequest,
  dayOf,
  filterProblem,
  loggedOperations,
  exportRequest,
  NO_FILTERS,
  operationTitle,
  rangeProblem,
  timeRangeOf,
} from '../../src/renderer/src/features/activity/filters'
import { channels } from '../../src/shared/bridge'
import { itWords } from './support/word-tables'

/* The Activity screen's readable operation names and its filters. */

describe('activity filters', () => {
  // Operations in words; a name the contract lacks kept as it is.
  itWords('the operation', operationTitle, [
    ['cancelCopyJob', 'Cancel a storage copy job'],
    ['resolveMigration', 'Resolve a migration that needs attention'],
    ['somethingNew', 'somethingNew'],
    // The app's own line for the Expiring list's CSV/.ics, not its raw name.
    ['exportExpiring', 'Export the expiring certificates (CSV or .ics)'],
    ['toString', 'toString'],
  ])

  it('offers the operations that write lines: the writes and the certificate export', () => {
    const names = loggedOperations().map((choice) => choice.name)
    expect(names).toEqual(
      expect.arrayContaining([
        'logout',
        'cancelCopyJob',
        'resolveMigration',
        'exportCertificate',
        // Files written are logged too, so they can be filtered for.
        'exportVolume',
        'exportExpiring',
      ]),
    )
    // Each choice is one the list's filter accepts.
    for (const name of names) {
      expect(channels['activity.list'].input.safeParse({ operation: name }).success, name).toBe(
        true,
      )
    }
    expect(names).not.toContain('listCertificates')
    expect(names).not.toContain('getStatusPagePreview')
  })

  it('asks main for exactly the chosen filters, in a request the contract accepts', () => {
    expect(activityRequest(NO_FILTERS)).toEqual({ limit: 500 })
    const request = activityRequest({
      profileId: 'p1',
      operation: 'cancelCopyJob',
      outcome: 'error',
      fromDay: null,
      untilDay: null,
    })
    expect(request).toEqual({
      limit: 500,
      profileId: 'p1',
      operation: 'cancelCopyJob',
      outcome: 'error',
    })
    expect(channels['activity.list'].input.parse(request)).toEqual(request)
  })

  it('turns the chosen days into a time range of whole local days', () => {
    const range = timeRangeOf({ fromDay: '2024-03-01', untilDay: '2024-03-31' })
    expect(range).toEqual({
      from: new Date(2024, 2, 1).getTime(),
      to: new Date(2024, 3, 1).getTime(),
    })
    expect(timeRangeOf({ fromDay: null, untilDay: 'not a day' })).toEqual({})
    const request = exportRequest({ ...NO_FILTERS, fromDay: '2024-03-01' }, 'ndjson')
    expect(request).toEqual({ format: 'ndjson', from: new Date(2024, 2, 1).getTime() })
    expect(channels['activity.export'].input.parse(request)).toEqual(request)
    expect(
      channels['activity.list'].input.parse(
        activityRequest({ ...NO_FILTERS, untilDay: '2024-03-31' }),
      ),
    ).toEqual({
      limit: 500,
      to: new Date(2024, 3, 1).getTime(),
    })
  })

  it('points out a From day after the Until day, and only that', () => {
    const reversed = rangeProblem({ fromDay: '2024-03-31', untilDay: '2024-03-01' })
    expect(reversed).toContain('From 2024-03-31 is after Until 2024-03-01')
    // Text order is date order across month and year boundaries too.
    expect(rangeProblem({ fromDay: '2024-10-01', untilDay: '2024-09-30' })).not.toBeNull()
    expect(rangeProblem({ fromDay: '2025-01-01', untilDay: '2024-12-31' })).not.toBeNull()
    expect(rangeProblem({ fromDay: '2024-03-01', untilDay: '2024-03-01' })).toBeNull()
    expect(rangeProblem({ fromDay: '2024-09-30', untilDay: '2024-10-01' })).toBeNull()
    expect(rangeProblem({ fromDay: '2024-03-31', untilDay: null })).toBeNull()
    expect(rangeProblem({ fromDay: null, untilDay: '2024-03-01' })).toBeNull()
  })
})

describe('days typed as YYYY-MM-DD (no mm/dd/yyyy beside ISO times)', () => {
  it('reads a real day in the ISO form, padding one-digit months and days', () => {
    expect(dayOf('2024-03-31')).toBe('2024-03-31')
    expect(dayOf(' 2024-3-1 ')).toBe('2024-03-01')
    expect(dayOf('2024-02-29')).toBe('2024-02-29')
    for (const text of ['2023-02-29', '2024-13-01', '03/31/2024', '31.03.2024', '2024-03', '']) {
      expect(dayOf(text), text).toBeNull()
    }
  })

  it('points out a text that is not a day, on its field, before any range', () => {
    expect(filterProblem({ fromDay: '03/31/2024', untilDay: null })).toEqual({
      message: expect.stringMatching(/^From “03\/31\/2024” is not a day: write it as YYYY-MM-DD/),
      fields: ['fromDay'],
    })
    expect(filterProblem({ fromDay: '2024-03-01', untilDay: '2024-02-30' })?.fields).toEqual([
      'untilDay',
    ])
    expect(filterProblem({ fromDay: '2024-03-31', untilDay: '2024-03-01' })).toEqual({
      message: expect.stringContaining('From 2024-03-31 is after Until 2024-03-01'),
      fields: ['fromDay', 'untilDay'],
    })
    expect(filterProblem({ fromDay: '2024-3-1', untilDay: '2024-03-01' })).toBeNull()
    // A day not yet whole asks for nothing: no bound is sent for it.
    expect(timeRangeOf({ fromDay: '2024-03', untilDay: null })).toEqual({})
    expect(timeRangeOf({ fromDay: '2024-3-1', untilDay: null })).toEqual({
      from: new Date(2024, 2, 1).getTime(),
    })
  })
})
