import { describe, expect, it } from 'vitest'
import { MIGRATION_PHASES, operations } from '../../../src/shared/api'
import {
  callOperation,
  GATEWAY_ARGS,
  sandboxForThisFile,
  type SeedIds,
} from '../../support/sandbox-process'

/*
 * The gateway flavour's operations that answer as a real deployment does: a retry that fails
 * again answers 200 with the route `failed` and its `lastError` (op 14), reorders answer
 * `{"success": true}` and refuse a negative sortOrder on its item's dotted path (ops 9, 11).
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS] })

function failedRoutes(seed: SeedIds) {
  return seed.proxyHosts.flatMap((host) =>
    host.routes
      .filter((route) => route.status === 'failed')
      .map((route) => ({
        hostId: host.id,
        routeId: route.id,
        failsAgain: route['retryFailsAgain'],
      })),
  )
}

describe('gateway flavour: op 14, a retry that fails again', () => {
  it('answers 200 with the route failed again and its lastError', async () => {
    const route = failedRoutes(sandbox.seed).find((candidate) => candidate.failsAgain === true)
    expect(route, 'the seed lists a failed route whose retry fails again').toBeDefined()
    const response = await callOperation(sandbox, 'retryProxyRoute', {
      params: { id: route!.hostId, routeId: route!.routeId },
    })
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({
      data: { id: route!.routeId, status: 'failed', lastError: expect.stringMatching(/DNS/) },
    })
    // The answer is still a valid op 14 answer for the contract: the failure is in its data.
    expect(operations.retryProxyRoute.response.safeParse(response.json).success).toBe(true)
  })

  it('answers a retry that works with the route ready and no lastError', async () => {
    const route = failedRoutes(sandbox.seed).find((candidate) => candidate.failsAgain === false)
    expect(route).toBeDefined()
    const response = await callOperation(sandbox, 'retryProxyRoute', {
      params: { id: route!.hostId, routeId: route!.routeId },
    })
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({ data: { status: 'ready', lastError: null } })
  })
})

describe('gateway flavour: reorders (ops 9 and 11)', () => {
  it('op 9 answers {success: true} with no data, and the order holds', async () => {
    const [first, second] = sandbox.seed.nginxTemplateFolders
    const items = [
      { id: first!, sortOrder: 1 },
      { id: second!, sortOrder: 0 },
    ]
    const response = await callOperation(sandbox, 'reorderNginxTemplateFolders', {
      body: { items },
    })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ success: true })
    expect(operations.reorderNginxTemplateFolders.response.safeParse(response.json).success).toBe(
      true,
    )
  })

  it('op 11 answers {success: true} with no data', async () => {
    const environmentIds = sandbox.seed.loggingEnvironmentFolders[0]!.environmentIds
    const items = environmentIds.map((id, index) => ({
      id,
      sortOrder: environmentIds.length - index,
    }))
    const response = await callOperation(sandbox, 'reorderLoggingEnvironments', { body: { items } })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({ success: true })
    expect(operations.reorderLoggingEnvironments.response.safeParse(response.json).success).toBe(
      true,
    )
  })

  it.each([
    ['reorderNginxTemplateFolders' as const, (seed: SeedIds) => seed.nginxTemplateFolders],
    [
      'reorderLoggingEnvironments' as const,
      (seed: SeedIds) => seed.loggingEnvironmentFolders[0]!.environmentIds,
    ],
  ])(
    '%s refuses a negative sortOrder on items.N.sortOrder, and changes nothing',
    async (name, ids) => {
      const [first, second] = ids(sandbox.seed)
      const response = await callOperation(sandbox, name, {
        body: {
          items: [
            { id: first!, sortOrder: 0 },
            { id: second!, sortOrder: -1 },
          ],
        },
      })
      expect(response.status).toBe(400)
      expect(response.json).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'Request validation failed',
        details: [
          { path: 'items.1.sortOrder', message: 'Number must be greater than or equal to 0' },
        ],
      })
    },
  )
})

describe('gateway flavour: op 21 in a real deployment shape', () => {
  it('sends services with groups, an unknown one, and 16 hours of 5-minute health checks', async () => {
    const response = await callOperation(sandbox, 'getStatusPagePreview')
    expect(response.status).toBe(200)
    const data = (response.json as { data: Record<string, unknown> }).data
    expect(Object.keys(data)).toEqual([
      'title',
      'description',
      'hideExternalBranding',
      'generatedAt',
      'overallStatus',
      'services',
      'incidents',
    ])
    const services = data['services'] as {
      group: string | null
      status: string
      healthHistory: { ts: string; status: string; slow?: boolean }[]
    }[]
    expect(services.some((service) => service.status === 'unknown' && service.group === null)).toBe(
      true,
    )
    const storefront = services.find((service) => service.group !== null)!
    expect(storefront.healthHistory).toHaveLength(192)
    const times = storefront.healthHistory.map((slot) => Date.parse(slot.ts))
    expect(times[1]! - times[0]!).toBe(5 * 60 * 1000)
    const statuses = new Set(
      services.flatMap((service) => service.healthHistory.map((slot) => slot.status)),
    )
    for (const status of statuses) {
      expect(['operational', 'degraded', 'outage', 'unknown', 'maintenance']).toContain(status)
    }
    expect(
      services.some((service) => service.healthHistory.some((slot) => slot.slow === true)),
    ).toBe(true)
    const incidents = data['incidents'] as {
      status: string
      severity: string
      affectedServiceIds: string[]
      updates: { id: string; status: string; message: string; createdAt: string }[]
    }[]
    expect(incidents.length).toBeGreaterThan(0)
    for (const incident of incidents) {
      expect(['active', 'resolved']).toContain(incident.status)
      expect(['info', 'warning', 'critical']).toContain(incident.severity)
      expect(incident.updates[0]).toEqual({
        id: expect.any(String),
        status: expect.any(String),
        message: expect.any(String),
        createdAt: expect.any(String),
      })
    }
  })
})

describe('gateway flavour: op 15 answers the .tar.gz itself', () => {
  it('sends application/gzip with a Content-Disposition file name and no Range support', async () => {
    const volume = sandbox.seed.volumes.find((candidate) => candidate.name === 'grafana-data')!
    const response = await callOperation(sandbox, 'exportVolume', {
      params: { nodeId: volume.nodeId, name: volume.name },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/gzip')
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="grafana-data.tar.gz"',
    )
    expect(response.headers.get('accept-ranges')).toBeNull()
    expect(response.bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]))
    expect(response.bytes.length).toBe(volume.sizeBytes)
    // A Range is not read: the whole archive again.
    const ranged = await callOperation(sandbox, 'exportVolume', {
      params: { nodeId: volume.nodeId, name: volume.name },
      headers: { range: 'bytes=10-' },
    })
    expect(ranged.status).toBe(200)
    expect(ranged.bytes.equals(response.bytes)).toBe(true)
  })
})

describe('gateway flavour: op 13 answers the migration as a real deployment shapes it', () => {
  it('the 22 fields of 2.4, a real phase and progress keys', async () => {
    const id = sandbox.seed.migrations.needs_attention![0]!
    const response = await callOperation(sandbox, 'resolveMigration', {
      params: { id },
      body: { authoritativeSide: 'target' },
    })
    expect(response.status).toBe(200)
    const data = (response.json as { data: Record<string, unknown> }).data
    expect(Object.keys(data).sort()).toEqual(
      [
        'id',
        'resourceType',
        'resourceName',
        'deploymentId',
        'sourceNodeId',
        'targetNodeId',
        'targetNodeSlug',
        'targetResourceId',
        'keepSource',
        'sourceState',
        'status',
        'phase',
        'progress',
        'verification',
        'errorCode',
        'errorMessage',
        'cancellationRequestedAt',
        'cutoverAt',
        'createdAt',
        'startedAt',
        'updatedAt',
        'completedAt',
      ].sort(),
    )
    expect(data).toMatchObject({ status: 'completed', phase: 'done' })
    const progress = data['progress'] as { completedPhases: string[]; message: string }
    expect(progress.completedPhases.length).toBeGreaterThan(0)
    for (const phase of progress.completedPhases) expect(MIGRATION_PHASES).toContain(phase)
    expect(progress.message).toMatch(/target node is authoritative/)
    expect(operations.resolveMigration.response.safeParse(response.json).success).toBe(true)
  })

  it('keeps the source: status cancelled, phase rollback', async () => {
    const id = sandbox.seed.migrations.needs_attention![1]!
    const response = await callOperation(sandbox, 'resolveMigration', {
      params: { id },
      body: { authoritativeSide: 'source' },
    })
    expect(response.json).toMatchObject({ data: { status: 'cancelled', phase: 'rollback' } })
  })
})

describe('gateway flavour: op 22 carries fieldSchema', () => {
  it('as a real deployment: {key, location, type, required, description?} and schemaMode', async () => {
    const slug = sandbox.seed.loggingSchemas[0]!
    const response = await callOperation(sandbox, 'getLoggingSchema', { params: { slug } })
    expect(response.status).toBe(200)
    const data = (response.json as { data: Record<string, unknown> }).data
    expect(data).toMatchObject({
      slug,
      schemaMode: expect.stringMatching(/^(loose|strip|reject)$/),
    })
    expect(data).not.toHaveProperty('fields')
    const fields = data['fieldSchema'] as Record<string, unknown>[]
    expect(fields.length).toBeGreaterThan(0)
    for (const field of fields) {
      expect(
        Object.keys(field).every((key) =>
          ['key', 'location', 'type', 'required', 'description'].includes(key),
        ),
      ).toBe(true)
      expect(['label', 'field']).toContain(field['location'])
      expect(['string', 'number', 'boolean', 'datetime', 'json']).toContain(field['type'])
      if (field['location'] === 'label') expect(field['type']).toBe('string')
    }
  })
})
