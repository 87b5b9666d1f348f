import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  call,
  callOperation,
  PERSONALITIES,
  sandboxForThisFile,
  UNKNOWN_UUID,
} from '../../support/sandbox-process'
import {
  expectError,
  expectErrorCode,
  expectSuccess,
  expectValidationError,
} from '../../support/answers'
import type { SeedIds } from '../../support/sandbox-process'
import { INCIDENT_LIST_KEYS, readIncident, readStatusPage } from '../../../src/shared/status-page'

/*
 * The remaining operations: 6 (inference catalog), 14 (retry a proxy route), 17 (cancel a
 * copy job), 18 (resolve an incident), 20 (app members), 21 (status page preview) and
 * 22 (logging schema by slug), plus what a reset restores.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true })

const statusSchema = z.looseObject({ id: z.string(), status: z.string() })

describe('op 6: GET /api/inference/catalog', () => {
  it('is { object: "list", data: [{ id }] } with the models the caller may call', async () => {
    const admin = expectSuccess(
      'listInferenceModels',
      await callOperation(sandbox, 'listInferenceModels'),
    )
    expect(admin.object).toBe('list')
    expect(admin.data.map((model) => model.id).sort()).toEqual(
      [...sandbox.seed.inferenceModels].sort(),
    )
    const viewer = expectSuccess(
      'listInferenceModels',
      await callOperation(sandbox, 'listInferenceModels', { token: sandbox.tokens.viewer }),
    )
    const adminIds = admin.data.map((model) => model.id)
    for (const model of viewer.data) expect(adminIds).toContain(model.id)
    expect(viewer.data.length).toBeGreaterThan(0)
  })
})

function routeWith(seed: SeedIds, status: string) {
  for (const host of seed.proxyHosts) {
    const route = host.routes.find((candidate) => candidate.status === status)
    if (route) return { id: host.id, routeId: route.id }
  }
  throw new Error(`the seed has no ${status} additional route`)
}

describe('op 14: POST /api/proxy-hosts/{id}/additional-routes/{routeId}/retry', () => {
  function retry(params: { id: string; routeId: string }) {
    return callOperation(sandbox, 'retryProxyRoute', { params })
  }

  it('retries a failed route; it is no longer failed, so a second retry is 409', async () => {
    const params = routeWith(sandbox.seed, 'failed')
    const route = statusSchema.parse(expectSuccess('retryProxyRoute', await retry(params)).data)
    expect(route.id).toBe(params.routeId)
    expect(route.status).not.toBe('failed')
    expectError(await retry(params), 'CONFLICT')
    await sandbox.reset()
    expectSuccess('retryProxyRoute', await retry(params))
  })

  it('409 for an active route', async () => {
    expectError(await retry(routeWith(sandbox.seed, 'active')), 'CONFLICT')
  })

  it('404 for an unknown host, an unknown route, or a route of another host', async () => {
    const params = routeWith(sandbox.seed, 'failed')
    expectError(await retry({ id: 'no-such-host', routeId: params.routeId }), 'NOT_FOUND')
    expectError(await retry({ id: params.id, routeId: 'no-such-route' }), 'NOT_FOUND')
    const otherHost = sandbox.seed.proxyHosts.find((host) => host.id !== params.id)
    expect(otherHost).toBeDefined()
    expectError(await retry({ id: otherHost?.id as string, routeId: params.routeId }), 'NOT_FOUND')
  })

  it('400 naming the empty path parameter', async () => {
    const { id, routeId } = routeWith(sandbox.seed, 'failed')
    expectValidationError(
      await call(sandbox, {
        method: 'POST',
        path: `/api/proxy-hosts/${id}/additional-routes//retry`,
      }),
      ['routeId'],
    )
    expectValidationError(
      await call(sandbox, {
        method: 'POST',
        path: `/api/proxy-hosts//additional-routes/${routeId}/retry`,
      }),
      ['id'],
    )
  })

  it('takes no body: an empty object is fine, anything else is 400', async () => {
    const params = routeWith(sandbox.seed, 'failed')
    const withFields = await callOperation(sandbox, 'retryProxyRoute', {
      params,
      body: { force: true },
    })
    expectError(withFields, 'VALIDATION_ERROR')
    expectSuccess(
      'retryProxyRoute',
      await callOperation(sandbox, 'retryProxyRoute', { params, body: {} }),
    )
  })
})

describe('op 17: POST /api/storage/copy-jobs/{id}/cancel', () => {
  function cancel(id: string) {
    return callOperation(sandbox, 'cancelCopyJob', { params: { id } })
  }

  it('the seed has copy jobs running and finished', () => {
    expect(sandbox.seed.copyJobs.running?.length ?? 0).toBeGreaterThan(0)
    expect(sandbox.seed.copyJobs.completed?.length ?? 0).toBeGreaterThan(0)
  })

  it('cancels a running job; cancelling it again is 409', async () => {
    const id = sandbox.seed.copyJobs.running?.[0] as string
    const job = statusSchema.parse(expectSuccess('cancelCopyJob', await cancel(id)).data)
    expect(job.id).toBe(id)
    expect(job.status).toBe('cancelled')
    expectError(await cancel(id), 'CONFLICT')
  })

  it('409 for a job that has already finished', async () => {
    for (const status of ['completed', 'failed', 'cancelled']) {
      for (const id of sandbox.seed.copyJobs[status] ?? []) {
        expectError(await cancel(id), 'CONFLICT')
      }
    }
  })

  it('cancels a queued job too', async () => {
    // The spec does not require queued jobs in a seed, but this sandbox seeds two: without one
    // this case would check nothing.
    const id = sandbox.seed.copyJobs.queued?.[0]
    expect(id, 'the seed has a queued copy job').toEqual(expect.any(String))
    const job = statusSchema.parse(expectSuccess('cancelCopyJob', await cancel(id as string)).data)
    expect(job.status).toBe('cancelled')
  })

  it('404 for an unknown job', async () => {
    expectError(await cancel(UNKNOWN_UUID), 'NOT_FOUND')
  })

  it('400 naming id when it is not a uuid or is empty', async () => {
    expectValidationError(await cancel('job-1'), ['id'])
    expectValidationError(
      await call(sandbox, { method: 'POST', path: '/api/storage/copy-jobs//cancel' }),
      ['id'],
    )
  })
})

/*
 * Op 21's shape is not in the spec, so these run against both personalities and read the
 * preview as the app does (src/shared/status-page.ts): the default's `openIncidents` and
 * `recentlyResolved`, the variant's one `incidents` list with `state` and epoch seconds.
 */
describe.each(PERSONALITIES)(
  'op 18: POST /api/status-page/incidents/{id}/resolve, op 21: GET /api/status-page/preview ($personality)',
  ({ variant, args }) => {
    // The default personality shares the file's sandbox; the variant gets its own process.
    const on = variant ? sandboxForThisFile({ resetBeforeEach: true, args }) : sandbox

    async function preview(token?: string) {
      const body = expectSuccess(
        'getStatusPagePreview',
        await callOperation(on, 'getStatusPagePreview', { token }),
      )
      const data = z.record(z.string(), z.unknown()).parse(body.data)
      const incidents = INCIDENT_LIST_KEYS.flatMap((key) => {
        const list = data[key]
        return Array.isArray(list) ? z.array(z.looseObject({ id: z.string() })).parse(list) : []
      }).map((incident) => readIncident(incident))
      return {
        data,
        page: readStatusPage(data),
        open: incidents.filter((incident) => incident.open),
        closed: incidents.filter((incident) => !incident.open),
      }
    }

    function resolve(id: string) {
      return callOperation(on, 'resolveIncident', { params: { id } })
    }
    // The code is what a client reads; the variant's HTTP statuses are its own choice.
    const expectFailure = variant ? expectErrorCode : expectError

    it('the preview shows the open incidents, for the viewer too', async () => {
      const read = await preview()
      const open = read.open.map((incident) => incident.id).sort()
      expect(open).toEqual([...on.seed.incidents.open].sort())
      expect((await preview(on.tokens.viewer)).open).toHaveLength(open.length)
      // What the app names, read by its synonyms in either personality.
      expect(read.page.title).toBe('Northwind Status')
      expect(read.page.overall.level).not.toBeNull()
      for (const incident of [...read.open, ...read.closed]) {
        expect(incident.title).toEqual(expect.any(String))
        expect(incident.status.stage).not.toBeNull()
        expect(incident.startedAt).toBeLessThanOrEqual(Date.now())
      }
      if (variant) {
        expect(read.data).toHaveProperty('incidents')
        expect(read.data).not.toHaveProperty('openIncidents')
      } else {
        expect(read.data).toHaveProperty('openIncidents')
      }
    })

    it('resolves an open incident: it leaves the preview, and resolving it again is 409', async () => {
      const id = on.seed.incidents.open[0] as string
      const incident = z
        .looseObject({ id: z.string(), status: z.string(), resolvedAt: z.string() })
        .parse(expectSuccess('resolveIncident', await resolve(id)).data)
      expect(incident.id).toBe(id)
      expect(incident.status).toBe('resolved')
      expect(Date.parse(incident.resolvedAt)).not.toBeNaN()

      const after = await preview()
      expect(after.open.map((open) => open.id)).not.toContain(id)
      expect(after.closed.map((done) => done.id)).toContain(id)
      expectFailure(await resolve(id), 'CONFLICT')
    })

    it('409 for an incident that was resolved in the seed', async () => {
      expectFailure(await resolve(on.seed.incidents.resolved[0] as string), 'CONFLICT')
    })

    it('404 for an unknown incident; 400 naming id when it is empty', async () => {
      expectFailure(await resolve('no-such-incident'), 'NOT_FOUND')
      expectValidationError(
        await call(on, { method: 'POST', path: '/api/status-page/incidents//resolve' }),
        ['id'],
      )
    })

    it('op 21 takes no query parameters', async () => {
      expectValidationError(
        await callOperation(on, 'getStatusPagePreview', { query: { draft: 'true' } }),
        ['draft'],
      )
    })
  },
)

describe('op 20: GET /api/apps/{id}/members', () => {
  function members(id: string, options: { token?: string; environmentId?: string } = {}) {
    return callOperation(sandbox, 'listAppMembers', {
      params: { id },
      query: options.environmentId === undefined ? {} : { environmentId: options.environmentId },
      token: options.token,
    })
  }

  it('lists members with type, id, name, environmentId, nodeIds; Docker members carry nodeId', async () => {
    let dockerSeen = false
    let otherKindSeen = false
    for (const app of sandbox.seed.apps) {
      const listed = expectSuccess('listAppMembers', await members(app.id)).data
      for (const member of listed) {
        expect(member.id).toEqual(expect.any(String))
        expect(member.name).toEqual(expect.any(String))
        expect(app.environmentIds).toContain(member.environmentId)
        expect(Array.isArray(member.nodeIds)).toBe(true)
        if (member.type === 'docker') {
          dockerSeen = true
          expect(member.nodeId).toEqual(expect.any(String))
          expect(member.nodeIds).toContain(member.nodeId)
        } else {
          otherKindSeen = true
        }
      }
    }
    expect(dockerSeen).toBe(true)
    expect(otherKindSeen).toBe(true)
  })

  it('the viewer sees fewer members, only in environments it may view', async () => {
    // An extra of this sandbox's seed: the environments, and which the viewer may not view.
    const hidden = (sandbox.seed.appEnvironments ?? []).filter(
      (environment) => !environment.viewerMayView,
    )
    expect(hidden, 'the seed has an environment hidden from the viewer').not.toEqual([])
    let fewerSomewhere = false
    for (const app of sandbox.seed.apps) {
      const admin = expectSuccess('listAppMembers', await members(app.id)).data
      const viewer = expectSuccess(
        'listAppMembers',
        await members(app.id, { token: sandbox.tokens.viewer }),
      ).data
      const adminKeys = admin.map((member) => `${String(member.type)}:${String(member.id)}`)
      for (const member of viewer) {
        expect(adminKeys).toContain(`${String(member.type)}:${String(member.id)}`)
      }
      if (viewer.length < admin.length) fewerSomewhere = true
      for (const environment of hidden) {
        expect(viewer.map((member) => member.environmentId)).not.toContain(environment.id)
      }
    }
    expect(fewerSomewhere).toBe(true)
  })

  it('filters by environmentId', async () => {
    const app = sandbox.seed.apps.find((candidate) => candidate.environmentIds.length > 1)
    expect(app, 'an app spans several environments').toBeDefined()
    const all = expectSuccess('listAppMembers', await members(app?.id as string)).data
    for (const environmentId of app?.environmentIds ?? []) {
      const filtered = expectSuccess(
        'listAppMembers',
        await members(app?.id as string, { environmentId }),
      ).data
      expect(filtered.every((member) => member.environmentId === environmentId)).toBe(true)
      expect(filtered).toHaveLength(
        all.filter((member) => member.environmentId === environmentId).length,
      )
    }
  })

  it('404 for an unknown app', async () => {
    expectError(await members('no-such-app'), 'NOT_FOUND')
  })

  it('400 naming environmentId when it is not a uuid, and id when it is empty', async () => {
    const app = sandbox.seed.apps[0]?.id as string
    expectValidationError(await members(app, { environmentId: 'production' }), ['environmentId'])
    expectValidationError(await call(sandbox, { path: '/api/apps//members' }), ['id'])
    expectValidationError(
      await callOperation(sandbox, 'listAppMembers', {
        params: { id: app },
        query: { kind: 'docker' },
      }),
      ['kind'],
    )
  })
})

describe('op 22: GET /api/logging/schemas/by-slug/{slug}', () => {
  it('resolves every seeded slug to its schema', async () => {
    for (const slug of sandbox.seed.loggingSchemas) {
      const schema = expectSuccess(
        'getLoggingSchema',
        await callOperation(sandbox, 'getLoggingSchema', {
          params: { slug },
          token: sandbox.tokens.viewer,
        }),
      ).data
      expect(schema.slug).toBe(slug)
      expect(schema.id).toEqual(expect.any(String))
      expect(schema.name).toEqual(expect.any(String))
    }
  })

  it('404 for an unknown slug; 400 naming slug when it is empty', async () => {
    expectError(
      await callOperation(sandbox, 'getLoggingSchema', { params: { slug: 'no-such-schema' } }),
      'NOT_FOUND',
    )
    expectValidationError(await call(sandbox, { path: '/api/logging/schemas/by-slug/' }), ['slug'])
  })
})

describe('POST /__sandbox/reset', () => {
  it('restores the seed: the same ids, and every state change undone', async () => {
    const before = sandbox.seed
    await callOperation(sandbox, 'resolveIncident', {
      params: { id: before.incidents.open[0] as string },
    })
    await callOperation(sandbox, 'cancelCopyJob', {
      params: { id: before.copyJobs.running?.[0] as string },
    })
    const during = await call(sandbox, { path: '/__sandbox/seed' })
    expect(during.json).not.toEqual(before)
    const restored = await sandbox.reset()
    expect(restored).toEqual(before)
  })

  it('GET /__sandbox/seed is for the admin token only', async () => {
    expectError(await call(sandbox, { path: '/__sandbox/seed', token: null }), 'UNAUTHORIZED')
    expectError(
      await call(sandbox, { path: '/__sandbox/seed', token: sandbox.tokens.viewer }),
      'FORBIDDEN',
    )
    expectError(
      await call(sandbox, {
        method: 'POST',
        path: '/__sandbox/reset',
        token: sandbox.tokens.viewer,
      }),
      'FORBIDDEN',
    )
  })
})
