import { createServer, request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, ServiceError } from '../../src/main/api'
import type { Desk } from '../../src/main/desk'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox } from '../../src/sandbox'
import {
  OPERATION_NAMES,
  operations,
  pathParamNames,
  validationIssuesOf,
} from '../../src/shared/api'
import type { OperationName } from '../../src/shared/api'
import type { Profile } from '../../src/shared/bridge'
import { openTestDesk, type TestDesk } from '../support/desk'
import { listenLocally } from '../support/local-server'

/*
 * A path parameter `.` or `..` (or one that decodes to it) must never leave the app: URL
 * normalisation folded `exportVolume {nodeId:'..', name:'..'}` into `GET /api/docker/export` and
 * `retryProxyRoute {routeId:'..'}` into `POST /api/proxy-hosts/x/retry`, bearer token included.
 * Checked at each door: the client (against a server that records every request it gets), the
 * bridge (`service.call` and `volumes.export` through a desk), and the sandbox (raw requests).
 */

const DOT_VALUES = ['..', '.', '%2e', '%2E%2e', '.%2e', '%252e%252e', '..%2f']
/** Valid for every path parameter, uuid ones included. */
const VALID = '6f1c2b4e-8a3d-4c5e-9f70-1a2b3c4d5e6f'

interface Recorder {
  url: string
  /** `METHOD /path` of every request received. */
  requests: string[]
  close(): Promise<void>
}

/** Answers op 1 with an empty list (a token check) and anything else with `{}`; records all. */
async function startRecorder(): Promise<Recorder> {
  const requests: string[] = []
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`)
    const body = request.url === '/auth/me/sessions' ? '[]' : '{"data":{}}'
    response.writeHead(200, { 'content-type': 'application/json' }).end(body)
  })
  const { url, close } = await listenLocally(server)
  return { url, requests, close }
}

/** Each operation with path parameters, each of its parameters. */
const PATH_PARAMS = OPERATION_NAMES.flatMap((operation) =>
  pathParamNames(operations[operation].path).map((param) => ({ operation, param })),
)

function paramsWith(operation: OperationName, param: string, value: string) {
  const names = pathParamNames(operations[operation].path)
  return { ...Object.fromEntries(names.map((name) => [name, VALID])), [param]: value }
}

/** A body each operation accepts, so only the path parameter is wrong. */
const BODIES: Partial<Record<OperationName, unknown>> = {
  moveCertificateFolder: { parentId: null },
  moveUserFolder: { parentId: null },
  runPostgresQuery: { sql: 'select 1' },
  exportCertificate: { format: 'pem' },
  resolveMigration: { authoritativeSide: 'source' },
}

let recorder: Recorder
let sandbox: RunningSandbox

beforeAll(async () => {
  recorder = await startRecorder()
  sandbox = await startSandbox({ port: 0 })
})

afterAll(async () => {
  await sandbox?.close()
  await recorder?.close()
})

describe('the client sends nothing for a dot-segment path parameter', () => {
  it.each(PATH_PARAMS)('$operation: params.$param', async ({ operation, param }) => {
    recorder.requests.length = 0
    const client = createServiceClient({ baseUrl: recorder.url, token: 'secret-token' })
    for (const value of DOT_VALUES) {
      const input = { params: paramsWith(operation, param, value), body: BODIES[operation] }
      const error = await client.call(operation, input).then(
        () => null,
        (caught: unknown) => caught,
      )
      expect(error, `${operation} ${param}=${value}`).toBeInstanceOf(ServiceError)
      expect((error as ServiceError).code).toBe('VALIDATION_ERROR')
      expect(
        validationIssuesOf((error as ServiceError).details).map((issue) => issue.path),
      ).toEqual([[param]])
    }
    expect(recorder.requests).toEqual([])
  })
})

describe('the bridge refuses it too', () => {
  let harness: TestDesk
  let desk: Desk
  let profile: Profile

  beforeAll(async () => {
    harness = await openTestDesk('path-params')
    desk = harness.desk
    profile = await harness.addProfile(
      { url: recorder.url, tokens: { admin: 'secret-token' } },
      { name: 'Recorder', color: '#2563eb', sessionOnly: true },
    )
    recorder.requests.length = 0
  })

  afterAll(async () => {
    await harness?.close()
  })

  it('service.call: exportVolume and retryProxyRoute, the two calls that reached other paths', async () => {
    recorder.requests.length = 0
    const calls = [
      {
        operation: 'exportVolume',
        params: { nodeId: '..', name: '..' },
        fields: ['nodeId', 'name'],
      },
      { operation: 'retryProxyRoute', params: { id: 'x', routeId: '..' }, fields: ['routeId'] },
      { operation: 'getLoggingSchema', params: { slug: '%2e%2e' }, fields: ['slug'] },
    ]
    for (const { operation, params, fields } of calls) {
      const result = await desk.dispatch('service.call', {
        profileId: profile.id,
        operation,
        params,
      })
      expect(result.ok).toBe(false)
      if (result.ok) continue
      expect(result.error.code).toBe('VALIDATION_ERROR')
      expect(validationIssuesOf(result.error.details).map((issue) => issue.path)).toEqual(
        fields.map((field) => [field]),
      )
    }
    expect(recorder.requests).toEqual([])
  })

  it('volumes.export with a node id or name of ".."', async () => {
    recorder.requests.length = 0
    for (const [nodeId, name] of [
      ['..', 'data'],
      ['node-1', '..'],
      ['.%2e', '.'],
    ]) {
      const result = await desk.dispatch('volumes.export', { profileId: profile.id, nodeId, name })
      expect(result.ok).toBe(false)
      if (result.ok) continue
      expect(result.error.code).toBe('VALIDATION_ERROR')
    }
    expect(recorder.requests).toEqual([])
  })
})

describe('the sandbox refuses it on the field', () => {
  /** A raw request: Node's client sends the target as given, dot segments and all. */
  function rawRequest(method: string, target: string): Promise<{ status: number; body: string }> {
    const url = new URL(sandbox.url)
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: target,
          headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
        },
        (response) => {
          let body = ''
          response.setEncoding('utf8')
          response.on('data', (chunk: string) => (body += chunk))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        },
      )
      outgoing.on('error', reject)
      outgoing.end()
    })
  }

  it.each([
    ['GET', '/api/docker/nodes/../volumes/../export', ['nodeId', 'name']],
    ['GET', '/api/docker/nodes/%252e%252e/volumes/x/export', ['nodeId']],
    ['POST', '/api/proxy-hosts/x/additional-routes/./retry', ['routeId']],
    ['POST', '/api/proxy-hosts/x/additional-routes/.%252e/retry', ['routeId']],
    ['GET', '/api/logging/schemas/by-slug/..%252f', ['slug']],
  ])('%s %s', async (method, target, fields) => {
    const answer = await rawRequest(method, target)
    expect(answer.status).toBe(400)
    const body = JSON.parse(answer.body) as { code: string; details: unknown }
    expect(body.code).toBe('VALIDATION_ERROR')
    expect(validationIssuesOf(body.details).map((issue) => issue.path)).toEqual(
      fields.map((field) => [field]),
    )
  })
})
