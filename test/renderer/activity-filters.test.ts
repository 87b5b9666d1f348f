import { describe, expect, it } from 'vitest'
import {
  activityRequest,
  loggedOperations,
  NO_FILTERS,
  operationTitle,
} from '../../src/renderer/src/features/activity/filters'
import { channels } from '../../src/shared/bridge'

/* The Activity screen's readable operation names and its filters (issue 20). */

describe('activity filters', () => {
  it('names operations in words, keeping a name the contract lacks as it is', () => {
    expect(operationTitle('cancelCopyJob')).toBe('Cancel a storage copy job')
    expect(operationTitle('resolveMigration')).toBe('Resolve a migration that needs attention')
    expect(operationTitle('somethingNew')).toBe('somethingNew')
    expect(operationTitle('toString')).toBe('toString')
  })

  it('offers the operations that write lines: the writes and the certificate export', () => {
    const names = loggedOperations().map((choice) => choice.name)
    expect(names).toEqual(
      expect.arrayContaining(['logout', 'cancelCopyJob', 'resolveMigration', 'exportCertificate']),
    )
    expect(names).not.toContain('listCertificates')
    expect(names).not.toContain('getStatusPagePreview')
  })

  it('asks main for exactly the chosen filters, in a request the contract accepts', () => {
    expect(activityRequest(NO_FILTERS)).toEqual({ limit: 500 })
    const request = activityRequest({
      profileId: 'p1',
      operation: 'cancelCopyJob',
      outcome: 'error',
    })
    expect(request).toEqual({
      limit: 500,
      profileId: 'p1',
      operation: 'cancelCopyJob',
      outcome: 'error',
    })
    expect(channels['activity.list'].input.parse(request)).toEqual(request)
  })
})
