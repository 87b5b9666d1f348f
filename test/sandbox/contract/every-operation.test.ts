import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { OPERATION_NAMES, operations } from '../../../src/shared/api'
import type { OperationName } from '../../../src/shared/api'
import { call, callOperation, sandboxForThisFile } from '../../support/sandbox-process'
import { expectError, expectSuccess } from '../../support/answers'
import type { SeedIds } from '../../support/sandbox-process'
import { makeSelfSigned, makeTempDir } from '../../support/tools'
import type { TempDir } from '../../support/tools'

/*
 * Rules that hold for all 22 operations alike: bearer auth, the viewer's permissions,
 * and request bodies that are not JSON. Each operation is called with a request that is
 * valid for the admin, so the only thing wrong is the one the test is about.
 */

interface SampleRequest {
  params?: Record<string, string>
  query?: Record<string, string>
  body?: unknown
}

/** Operations the viewer may call. */
const VIEWER_ALLOWED = new Set<OperationName>([
  'listSessions',
  'logout',
  'listInferenceModels',
  'exportVolume',
  'listCertificates',
  'listAppMembers',
  'getStatusPagePreview',
  'getLoggingSchema',
])

function firstOf<T>(list: readonly T[] | undefined, what: string): T {
  const first = list?.[0]
  if (first === undefined) throw new Error(`the seed has no ${what}`)
  return first
}

function failedRoute(seed: SeedIds): { id: string; routeId: string } {
  for (const host of seed.proxyHosts) {
    const route = host.routes.find((candidate) => candidate.status === 'failed')
    if (route) return { id: host.id, routeId: route.id }
  }
  throw new Error('the seed has no failed additional route')
}

function sampleRequests(
  seed: SeedIds,
  upload: { certificatePem: string; privateKeyPem: string },
): Record<OperationName, SampleRequest> {
  const volume = firstOf(seed.volumes, 'volume')
  const deployment = firstOf(seed.deployments, 'deployment')
  const environmentFolder = firstOf(seed.loggingEnvironmentFolders, 'logging environment folder')
  return {
    listSessions: {},
    logout: {},
    moveCertificateFolder: {
      params: { id: firstOf(seed.certificateFolders, 'certificate folder') },
      body: { parentId: null },
    },
    moveUserFolder: {
      params: { id: firstOf(seed.userFolders, 'user folder') },
      body: { parentId: null },
    },
    runPostgresQuery: {
      params: { id: firstOf(seed.databases.postgres, 'postgres database') },
      body: { sql: 'SELECT 1 AS one' },
    },
    listInferenceModels: {},
    uploadCertificate: { body: { name: 'every-operation-upload', ...upload } },
    rotateDatabaseCertificate: {
      params: { id: firstOf(seed.databases.postgres, 'postgres database') },
      body: {},
    },
    reorderNginxTemplateFolders: {
      body: { items: [{ id: firstOf(seed.nginxTemplateFolders, 'nginx folder'), sortOrder: 0 }] },
    },
    moveCertificates: {
      body: {
        ids: [firstOf(seed.certificates.all, 'certificate')],
        folderId: firstOf(seed.certificateFolders, 'certificate folder'),
      },
    },
    reorderLoggingEnvironments: {
      body: {
        items: [{ id: firstOf(environmentFolder.environmentIds, 'environment'), sortOrder: 0 }],
      },
    },
    exportCertificate: {
      params: { id: firstOf(seed.certificates.withPrivateKey, 'certificate with a key') },
      body: { format: 'pem' },
    },
    resolveMigration: {
      params: { id: firstOf(seed.migrations.needs_attention, 'needs_attention migration') },
      body: { authoritativeSide: 'target' },
    },
    retryProxyRoute: { params: failedRoute(seed) },
    exportVolume: { params: { nodeId: volume.nodeId, name: volume.name } },
    listCertificates: {},
    cancelCopyJob: { params: { id: firstOf(seed.copyJobs.running, 'running copy job') } },
    resolveIncident: { params: { id: firstOf(seed.incidents.open, 'open incident') } },
    resolveDeploymentSource: {
      params: { nodeId: deployment.nodeId, deploymentId: deployment.deploymentId },
    },
    listAppMembers: { params: { id: firstOf(seed.apps, 'app').id } },
    getStatusPagePreview: {},
    getLoggingSchema: { params: { slug: firstOf(seed.loggingSchemas, 'logging schema') } },
  }
}

const WITH_BODY = OPERATION_NAMES.filter((name) => operations[name].body !== null)
const forbiddenErrorSchema = z.looseObject({
  details: z.looseObject({ permission: z.string().min(1) }),
})

const sandbox = sandboxForThisFile({ resetBeforeEach: false })
let temp: TempDir
let samples: Record<OperationName, SampleRequest>

beforeAll(async () => {
  temp = await makeTempDir('infradesk-every-operation')
  samples = sampleRequests(sandbox.seed, await makeSelfSigned(temp, 'every-operation.test'))
})
afterAll(async () => {
  await temp?.remove()
})

describe('the 22 operations of the contract', () => {
  it('are all covered by this table', () => {
    expect(OPERATION_NAMES).toHaveLength(22)
    expect(Object.keys(samples).sort()).toEqual([...OPERATION_NAMES].sort())
  })

  it('answer the admin sample requests with 2xx (the samples are valid)', async () => {
    await sandbox.reset()
    for (const name of OPERATION_NAMES.filter((candidate) => candidate !== 'logout')) {
      const response = await callOperation(sandbox, name, samples[name])
      expect(response.status, `${name}: ${response.text().slice(0, 500)}`).toBeGreaterThanOrEqual(
        200,
      )
      expect(response.status, `${name}: ${response.text().slice(0, 500)}`).toBeLessThan(300)
    }
    await sandbox.reset()
  })
})

describe.each(OPERATION_NAMES)('%s: authentication', (name) => {
  it('401 UNAUTHORIZED without a token', async () => {
    expectError(
      await callOperation(sandbox, name, { ...samples[name], token: null }),
      'UNAUTHORIZED',
    )
  })

  it('401 UNAUTHORIZED with an unknown token', async () => {
    const response = await callOperation(sandbox, name, {
      ...samples[name],
      token: `${sandbox.tokens.admin}-not-issued`,
    })
    expectError(response, 'UNAUTHORIZED')
  })

  it('401 UNAUTHORIZED with a malformed Authorization header', async () => {
    for (const authorization of [
      `Basic ${Buffer.from('admin:admin').toString('base64')}`,
      'Bearer',
      'Bearer ',
      sandbox.tokens.admin,
    ]) {
      const response = await callOperation(sandbox, name, {
        ...samples[name],
        token: null,
        headers: { authorization },
      })
      expectError(response, 'UNAUTHORIZED')
    }
  })
})

describe.each(OPERATION_NAMES.filter((name) => !VIEWER_ALLOWED.has(name)))(
  '%s: the viewer',
  (name) => {
    it('is refused with 403 FORBIDDEN naming the missing permission', async () => {
      const response = await callOperation(sandbox, name, {
        ...samples[name],
        token: sandbox.tokens.viewer,
      })
      const body = expectError(response, 'FORBIDDEN')
      const permission = forbiddenErrorSchema.parse(body).details.permission
      expect(permission).toMatch(/^[a-z-]+(:[a-z-]+)+$/)
      if (name === 'resolveDeploymentSource') expect(permission).toBe('docker:containers:edit')
    })
  },
)

describe.each([...VIEWER_ALLOWED])('%s: the viewer', (name) => {
  // Op 2 ends the viewer's session: every test starts from the seed's tokens.
  beforeEach(async () => {
    await sandbox.reset()
  })

  it('may call it, and gets the documented shape', async () => {
    const response = await callOperation(sandbox, name, {
      ...samples[name],
      token: sandbox.tokens.viewer,
    })
    expectSuccess(name, response)
  })
})

describe.each(WITH_BODY)('%s: a body that is not JSON', (name) => {
  it('malformed JSON is 400 VALIDATION_ERROR, not 500', async () => {
    const response = await callOperation(sandbox, name, {
      params: samples[name].params,
      rawBody: '{"this is": not json',
      headers: { 'content-type': 'application/json' },
    })
    expectError(response, 'VALIDATION_ERROR')
  })

  it('a wrong content type is 400 VALIDATION_ERROR, even when the text is JSON', async () => {
    const response = await callOperation(sandbox, name, {
      params: samples[name].params,
      rawBody: JSON.stringify(samples[name].body ?? {}),
      headers: { 'content-type': 'text/plain' },
    })
    expectError(response, 'VALIDATION_ERROR')
  })

  it('a JSON body that is not an object is 400 VALIDATION_ERROR', async () => {
    for (const rawBody of ['[]', '"text"', '42']) {
      const response = await callOperation(sandbox, name, {
        params: samples[name].params,
        rawBody,
        headers: { 'content-type': 'application/json' },
      })
      expectError(response, 'VALIDATION_ERROR')
    }
  })
})

describe('requests outside the contract', () => {
  it('an unknown path is 404 NOT_FOUND in the error shape', async () => {
    expectError(await call(sandbox, { path: '/api/no-such-thing' }), 'NOT_FOUND')
  })

  it('authentication is checked before validation', async () => {
    const response = await callOperation(sandbox, 'cancelCopyJob', {
      params: { id: 'not-a-uuid' },
      token: null,
    })
    expectError(response, 'UNAUTHORIZED')
  })
})
