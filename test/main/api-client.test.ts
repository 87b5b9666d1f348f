import { createServer } from 'node:http'
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createServer as createNetServer } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createServiceClient, ServiceError } from '../../src/main/api'
import type { CallInput, ServiceClient, ServiceClientOptions } from '../../src/main/api'
import { OPERATION_NAMES, operations, validationIssuesOf } from '../../src/shared/api'
import type { OperationName } from '../../src/shared/api'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox, SeedIds } from '../../src/sandbox'
import { listenLocally } from '../support/local-server'
import { makeSelfSigned, makeTempDir, openssl, sha256Hex } from '../support/tools'
import type { TempDir } from '../support/tools'

/*
 * The service client against a real sandbox (in this process) for all 22 operations and
 * the errors the service can answer with, and against small local servers for what a
 * sandbox never does: hang, answer the wrong shape, fail with 503, drop connections, or
 * present a self-signed TLS certificate.
 */

let sandbox: RunningSandbox
let temp: TempDir
let seed: SeedIds
/** Every error any client produced in this file, checked at the end for token leaks. */
const seenErrors: ServiceError[] = []
/** Every token any client in this file used. */
const usedTokens = new Set<string>()

beforeAll(async () => {
  temp = await makeTempDir('infradesk-api-client')
  sandbox = await startSandbox({ port: 0 })
  seed = sandbox.seed()
})

afterAll(async () => {
  await sandbox?.close()
  await temp?.remove()
})

function client(options: Partial<ServiceClientOptions> = {}): ServiceClient {
  const token = options.token ?? sandbox.tokens.admin
  usedTokens.add(token)
  // Small backoff delays: the retries are real, the test just does not wait long for them.
  return createServiceClient({ baseUrl: sandbox.url, retryDelayMs: 5, ...options, token })
}

/** Awaits a rejection and checks it is a ServiceError with `code`. */
async function expectServiceError(work: Promise<unknown>, code: string): Promise<ServiceError> {
  let caught: unknown
  try {
    await work
  } catch (error) {
    caught = error
  }
  expect(caught, `expected ${code}, got success`).toBeDefined()
  expect(caught).toBeInstanceOf(ServiceError)
  const error = caught as ServiceError
  seenErrors.push(error)
  expect(error.code, error.message).toBe(code)
  return error
}

function firstOf<T>(list: readonly T[] | undefined, what: string): T {
  const first = list?.[0]
  if (first === undefined) throw new Error(`the seed has no ${what}`)
  return first
}

/* ------------------------------------------------------------ local servers */

interface SeenRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

interface LocalServer {
  url: string
  requests: SeenRequest[]
  close(): Promise<void>
}

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void

async function startLocalServer(
  handler: Handler,
  make: () => Server = () => createServer(),
  protocol: 'http' | 'https' = 'http',
): Promise<LocalServer> {
  const server = make()
  const requests: SeenRequest[] = []
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => (body += chunk))
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
      })
      handler(request, response, body)
    })
  })
  const { url, close } = await listenLocally(server, protocol)
  return { url, requests, close }
}

function answerJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

async function closedPortUrl(): Promise<string> {
  const { url, close } = await listenLocally(createNetServer())
  await close()
  return url
}

/* --------------------------------------------------------- all 22 operations */

function failedRoute(): { id: string; routeId: string } {
  for (const host of seed.proxyHosts) {
    const route = host.routes.find((candidate) => candidate.status === 'failed')
    if (route) return { id: host.id, routeId: route.id }
  }
  throw new Error('the seed has no failed additional route')
}

function smallestVolume() {
  const volume = [...seed.volumes].sort((a, b) => a.sizeBytes - b.sizeBytes)[0]
  if (!volume) throw new Error('the seed has no volume')
  return volume
}

/** A valid admin request for each operation, and what its answer must show. */
async function sampleCalls(): Promise<
  Record<OperationName, { input: CallInput; check: (value: unknown) => void }>
> {
  const upload = await makeSelfSigned(temp, 'api-client.test')
  const volume = smallestVolume()
  const deployment = firstOf(seed.deployments, 'deployment')
  const environments = firstOf(seed.loggingEnvironmentFolders, 'environment folder').environmentIds
  const incident = firstOf(seed.incidents.open, 'open incident')
  const migration = firstOf(seed.migrations.needs_attention, 'needs_attention migration')
  const copyJob = firstOf(seed.copyJobs.running, 'running copy job')
  const certificateFolder = firstOf(seed.certificateFolders, 'certificate folder')
  const data = (value: unknown) => (value as { data: unknown }).data
  return {
    listSessions: {
      input: {},
      check: (value) => {
        const sessions = value as { isCurrent: boolean }[]
        expect(sessions.length).toBeGreaterThan(0)
        expect(sessions.filter((session) => session.isCurrent)).toHaveLength(1)
      },
    },
    logout: {
      input: {},
      check: (value) => expect((value as { message: string }).message).toEqual(expect.any(String)),
    },
    moveCertificateFolder: {
      input: { params: { id: certificateFolder }, body: { parentId: null } },
      check: (value) => expect(data(value)).toMatchObject({ id: certificateFolder }),
    },
    moveUserFolder: {
      input: { params: { id: firstOf(seed.userFolders, 'user folder') }, body: { parentId: null } },
      check: (value) => expect(data(value)).toBeTypeOf('object'),
    },
    runPostgresQuery: {
      input: {
        params: { id: firstOf(seed.databases.postgres, 'postgres database') },
        body: { sql: 'SELECT 41 + 1 AS answer' },
      },
      check: (value) => {
        const result = data(value) as { rows: unknown[][]; fields: { name: string }[] }
        expect(result.fields.map((field) => field.name)).toEqual(['answer'])
        expect(result.rows).toEqual([[42]])
      },
    },
    listInferenceModels: {
      input: {},
      check: (value) => {
        const catalog = value as { object: string; data: { id: string }[] }
        expect(catalog.object).toBe('list')
        expect(catalog.data.map((model) => model.id)).toEqual(
          expect.arrayContaining(seed.inferenceModels),
        )
      },
    },
    uploadCertificate: {
      input: { body: { name: 'api-client-upload', ...upload } },
      check: (value) => expect(data(value)).toMatchObject({ name: 'api-client-upload' }),
    },
    rotateDatabaseCertificate: {
      input: { params: { id: firstOf(seed.databases.postgres, 'postgres database') } },
      check: (value) => expect(data(value)).toBeTypeOf('object'),
    },
    reorderNginxTemplateFolders: {
      input: {
        body: {
          items: seed.nginxTemplateFolders.map((id, index) => ({ id, sortOrder: index })),
        },
      },
      check: (value) => expect(value).toHaveProperty('data'),
    },
    moveCertificates: {
      input: {
        body: { ids: [firstOf(seed.certificates.all, 'certificate')], folderId: certificateFolder },
      },
      check: (value) => expect(value).toHaveProperty('data'),
    },
    reorderLoggingEnvironments: {
      input: { body: { items: environments.map((id, index) => ({ id, sortOrder: index })) } },
      check: (value) => expect(value).toHaveProperty('data'),
    },
    exportCertificate: {
      input: {
        params: { id: firstOf(seed.certificates.withPrivateKey, 'certificate with a key') },
        body: { format: 'pem' },
      },
      check: (value) => {
        const file = data(value) as { encoding: string; content: string }
        expect(file.encoding).toBe('utf8')
        expect(file.content).toContain('-----BEGIN CERTIFICATE-----')
      },
    },
    resolveMigration: {
      input: { params: { id: migration }, body: { authoritativeSide: 'target' } },
      check: (value) => expect(data(value)).toMatchObject({ id: migration, status: 'completed' }),
    },
    retryProxyRoute: {
      input: { params: failedRoute() },
      check: (value) => expect(data(value)).toBeTypeOf('object'),
    },
    exportVolume: {
      input: { params: { nodeId: volume.nodeId, name: volume.name } },
      check: (value) => {
        const exported = data(value) as { sizeBytes: number; downloadUrl: string }
        expect(exported.sizeBytes).toBe(volume.sizeBytes)
        expect(exported.downloadUrl).toEqual(expect.any(String))
      },
    },
    listCertificates: {
      input: { query: { page: 1, limit: 5, showSystem: true } },
      check: (value) => {
        const page = value as { data: unknown[]; meta?: { limit: number; total: number } }
        expect(page.data).toHaveLength(5)
        expect(page.meta?.limit).toBe(5)
        // The seed plus the certificate uploaded by op 7, which runs before op 16.
        expect(page.meta?.total).toBe(seed.certificates.all.length + 1)
      },
    },
    cancelCopyJob: {
      input: { params: { id: copyJob } },
      check: (value) => expect(data(value)).toMatchObject({ id: copyJob }),
    },
    resolveIncident: {
      input: { params: { id: incident } },
      check: (value) => expect(data(value)).toMatchObject({ id: incident }),
    },
    resolveDeploymentSource: {
      input: { params: { nodeId: deployment.nodeId, deploymentId: deployment.deploymentId } },
      check: (value) => expect(data(value)).toBeTypeOf('object'),
    },
    listAppMembers: {
      input: { params: { id: firstOf(seed.apps, 'app').id } },
      check: (value) => expect((data(value) as unknown[]).length).toBeGreaterThan(0),
    },
    getStatusPagePreview: {
      input: {},
      check: (value) => expect(value).toHaveProperty('data'),
    },
    getLoggingSchema: {
      input: { params: { slug: firstOf(seed.loggingSchemas, 'logging schema') } },
      check: (value) => expect(data(value)).toBeTypeOf('object'),
    },
  }
}

describe('all 22 operations against the sandbox', () => {
  it('succeed through call(), parsed by the contract', async () => {
    await sandbox.reset()
    seed = sandbox.seed()
    const samples = await sampleCalls()
    expect(Object.keys(samples).sort()).toEqual([...OPERATION_NAMES].sort())
    // The first op 5 starts the database engine (PGlite), which takes long on a busy machine.
    const api = client({ timeoutMs: 150_000 })
    // Logout last: it ends the admin's session.
    const order = [...OPERATION_NAMES.filter((name) => name !== 'logout'), 'logout' as const]
    for (const name of order) {
      const sample = samples[name]
      const value = await api.call(name, sample.input).catch((error: unknown) => {
        throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`)
      })
      expect(operations[name].response.safeParse(value).success, name).toBe(true)
      sample.check(value)
    }
    // The logged-out token no longer works.
    await expectServiceError(api.call('listSessions'), 'UNAUTHORIZED')
    await sandbox.reset()
  }, 300_000)
})

/* ------------------------------------------------------- errors of the service */

describe('service errors', () => {
  beforeEach(async () => {
    await sandbox.reset()
    seed = sandbox.seed()
  })

  it('VALIDATION_ERROR is caught before anything is sent', async () => {
    const server = await startLocalServer((_, response) => answerJson(response, 200, {}))
    try {
      const api = client({ baseUrl: server.url })
      const error = await expectServiceError(
        api.call('cancelCopyJob', { params: { id: 'not-a-uuid' } }),
        'VALIDATION_ERROR',
      )
      expect(error.message).toBe('Request validation failed')
      expect(validationIssuesOf(error.details).map((issue) => issue.path)).toEqual([['id']])

      const nested = await expectServiceError(
        api.call('reorderNginxTemplateFolders', { body: { items: [{ id: 'x', sortOrder: 1.5 }] } }),
        'VALIDATION_ERROR',
      )
      expect(validationIssuesOf(nested.details).map((issue) => issue.path)).toEqual([
        ['items', '0', 'id'],
        ['items', '0', 'sortOrder'],
      ])
      await expectServiceError(
        api.call('listSessions', { query: { unexpected: 'x' } }),
        'VALIDATION_ERROR',
      )
      await expectServiceError(
        api.call('moveCertificates', { body: { ids: [], folderId: null } }),
        'VALIDATION_ERROR',
      )
      await expectServiceError(api.call('logout', { body: { extra: true } }), 'VALIDATION_ERROR')
      expect(server.requests).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('VALIDATION_ERROR from the service keeps its details and status', async () => {
    // The spec leaves the bounds of `limit` open; the sandbox sets at most 500.
    const error = await expectServiceError(
      client().call('listCertificates', { query: { limit: 501 } }),
      'VALIDATION_ERROR',
    )
    expect(error.status).toBe(400)
    expect(validationIssuesOf(error.details).map((issue) => issue.path)).toContainEqual(['limit'])
  })

  it('UNAUTHORIZED with a token the service does not know', async () => {
    const error = await expectServiceError(
      client({ token: 'not-a-token-the-sandbox-issued' }).call('listSessions'),
      'UNAUTHORIZED',
    )
    expect(error.status).toBe(401)
    expect(error.message).toBe('Authentication required')
  })

  it('FORBIDDEN for the viewer on op 19, naming the permission', async () => {
    const deployment = firstOf(seed.deployments, 'deployment')
    const error = await expectServiceError(
      client({ token: sandbox.tokens.viewer }).call('resolveDeploymentSource', {
        params: { nodeId: deployment.nodeId, deploymentId: deployment.deploymentId },
      }),
      'FORBIDDEN',
    )
    expect(error.status).toBe(403)
    expect(error.details).toMatchObject({ permission: 'docker:containers:edit' })
  })

  it('NOT_FOUND for an id that names nothing', async () => {
    const error = await expectServiceError(
      client().call('resolveIncident', { params: { id: 'no-such-incident' } }),
      'NOT_FOUND',
    )
    expect(error.status).toBe(404)
  })

  it('CONFLICT when resolving an incident that is already resolved', async () => {
    const error = await expectServiceError(
      client().call('resolveIncident', {
        params: { id: firstOf(seed.incidents.resolved, 'resolved incident') },
      }),
      'CONFLICT',
    )
    expect(error.status).toBe(409)
  })

  it('UNPROCESSABLE_ENTITY for a jks export without passphrase, in both forms', async () => {
    const id = firstOf(seed.certificates.withPrivateKey, 'certificate with a key')
    const viaCall = await expectServiceError(
      client().call('exportCertificate', { params: { id }, body: { format: 'jks' } }),
      'UNPROCESSABLE_ENTITY',
    )
    expect(viaCall.status).toBe(422)
    await expectServiceError(
      client().exportCertificateFile(id, { format: 'jks' }),
      'UNPROCESSABLE_ENTITY',
    )
  })

  /** The ServiceError of listSessions from a server that answers `status` with `body`. */
  async function refusalOf(status: number, body: unknown, expectedCode: string) {
    const server = await startLocalServer((_, response) => answerJson(response, status, body))
    try {
      return await expectServiceError(
        client({ baseUrl: server.url }).call('listSessions'),
        expectedCode,
      )
    } finally {
      await server.close()
    }
  }

  it('a code the client does not know falls back to the status', async () => {
    const error = await refusalOf(
      418,
      { code: 'SHORT_AND_STOUT', message: 'Slow down' },
      'UNPROCESSABLE_ENTITY',
    )
    expect(error.status).toBe(418)
    expect(error.message).toContain('Slow down')
    // The service's own code is kept beside the app's.
    expect(error.serviceCode).toBe('SHORT_AND_STOUT')
    // The body's code wins over the status when it is one of the seven.
    const notFound = await refusalOf(
      418,
      { code: 'NOT_FOUND', message: 'Resource not found' },
      'NOT_FOUND',
    )
    expect(notFound.status).toBe(418)
  })
})

/* --------------------------------------------------------- errors of the way */

describe('network, TLS and shape errors', () => {
  it('OFFLINE when nothing listens, naming the address and the reason', async () => {
    const url = await closedPortUrl()
    const error = await expectServiceError(client({ baseUrl: url }).call('listSessions'), 'OFFLINE')
    expect(error.message).toBe(`Could not connect to ${url} (connection refused)`)
  })

  it('OFFLINE for a host name that does not resolve', async () => {
    const error = await expectServiceError(
      client({ baseUrl: 'https://no-such-host.invalid', maxRetries: 0 }).call('listSessions'),
      'OFFLINE',
    )
    expect(error.message).toMatch(/^Could not connect to https:\/\/no-such-host\.invalid:443 \(/)
  })

  it('BAD_URL for a base URL that is not an http(s) URL', async () => {
    await expectServiceError(client({ baseUrl: 'not a url' }).call('listSessions'), 'BAD_URL')
    await expectServiceError(
      client({ baseUrl: 'ftp://example.com' }).call('listSessions'),
      'BAD_URL',
    )
    await expectServiceError(
      client({ baseUrl: 'https://user:pass@example.com' }).call('listSessions'),
      'BAD_URL',
    )
  })

  it('TIMEOUT when the service never answers (and a timeout is not retried)', async () => {
    const server = await startLocalServer(() => {
      // Never answers.
    })
    try {
      const error = await expectServiceError(
        client({ baseUrl: server.url, timeoutMs: 200 }).call('listSessions'),
        'TIMEOUT',
      )
      expect(error.message).toBe(`No answer from ${server.url} within 200 ms`)
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('CANCELLED when the caller aborts', async () => {
    const server = await startLocalServer(() => {
      // Never answers.
    })
    try {
      const controller = new AbortController()
      const pending = client({ baseUrl: server.url }).call(
        'listSessions',
        {},
        {
          signal: controller.signal,
        },
      )
      setTimeout(() => controller.abort(), 50)
      await expectServiceError(pending, 'CANCELLED')
    } finally {
      await server.close()
    }
  })

  it("CANCELLED for every call under way and after when the client's own signal aborts", async () => {
    let arrived = (): void => undefined
    const first = new Promise<void>((resolve) => (arrived = resolve))
    let requests = 0
    const server = await startLocalServer(() => {
      // Never answers.
      requests += 1
      arrived()
    })
    try {
      const lifetime = new AbortController()
      const stopping = client({ baseUrl: server.url, signal: lifetime.signal })
      const pending = stopping.call('listSessions', {}, { signal: new AbortController().signal })
      await first
      lifetime.abort()
      await expectServiceError(pending, 'CANCELLED')
      await expectServiceError(stopping.call('listSessions'), 'CANCELLED')
      await expectServiceError(
        stopping.fetchRaw(`${server.url}/file`, { authenticated: false }),
        'CANCELLED',
      )
      expect(requests).toBe(1)
    } finally {
      await server.close()
    }
  })

  it('BAD_RESPONSE when a 2xx answer has the wrong shape or is not JSON', async () => {
    const server = await startLocalServer((request, response) => {
      if (request.url === '/auth/me/sessions') {
        answerJson(response, 200, [{ id: 5, authMethod: 'password' }])
      } else if (request.url === '/api/inference/catalog') {
        response.writeHead(200, { 'content-type': 'text/html' })
        response.end('<html>login</html>')
      } else {
        answerJson(response, 200, { object: 'list', data: [{ id: 'm', extra: { kept: true } }] })
      }
    })
    try {
      const api = client({ baseUrl: server.url })
      const shape = await expectServiceError(api.call('listSessions'), 'BAD_RESPONSE')
      expect(shape.message).toContain('listSessions')
      expect(shape.message).toContain('0.id')
      expect(validationIssuesOf(shape.details).map((issue) => issue.path)).toContainEqual([
        '0',
        'id',
      ])
      const html = await expectServiceError(api.call('listInferenceModels'), 'BAD_RESPONSE')
      expect(html.message).toContain('text/html')
      // Lenient: unknown fields pass through (the status preview's data is anything).
      await expect(api.call('getStatusPagePreview')).resolves.toMatchObject({
        object: 'list',
        data: [{ id: 'm', extra: { kept: true } }],
      })
    } finally {
      await server.close()
    }
  })

  it('retries a GET on 503 and never retries a write', async () => {
    const server = await startLocalServer((_, response) =>
      answerJson(response, 503, { message: 'unavailable' }),
    )
    try {
      const api = client({ baseUrl: server.url, maxRetries: 2 })
      const read = await expectServiceError(api.call('listSessions'), 'INTERNAL_ERROR')
      expect(read.status).toBe(503)
      expect(server.requests.map((request) => request.method)).toEqual(['GET', 'GET', 'GET'])

      server.requests.length = 0
      await expectServiceError(api.call('logout'), 'INTERNAL_ERROR')
      expect(server.requests.map((request) => request.method)).toEqual(['POST'])

      // A POST that reads (op 12) is not retried either.
      server.requests.length = 0
      await expectServiceError(
        api.call('exportCertificate', { params: { id: 'c' }, body: { format: 'pem' } }),
        'INTERNAL_ERROR',
      )
      expect(server.requests).toHaveLength(1)
    } finally {
      await server.close()
    }
  })

  it('retries a GET after a dropped connection and succeeds; a write is sent once', async () => {
    let count = 0
    const server = await startLocalServer((request, response) => {
      count += 1
      if (count % 2 === 1) {
        request.socket.destroy()
        return
      }
      answerJson(response, 200, request.method === 'GET' ? [] : { message: 'Logged out' })
    })
    try {
      const api = client({ baseUrl: server.url, maxRetries: 2 })
      await expect(api.call('listSessions')).resolves.toEqual([])
      expect(server.requests.map((request) => request.method)).toEqual(['GET', 'GET'])

      server.requests.length = 0
      const write = await expectServiceError(api.call('logout'), 'OFFLINE')
      expect(write.message).toContain(server.url)
      expect(server.requests.map((request) => request.method)).toEqual(['POST'])
    } finally {
      await server.close()
    }
  })

  it('TLS_ERROR for a self-signed certificate', async () => {
    const { privateKeyPem: key, certificatePem: cert } = await makeSelfSigned(temp, '127.0.0.1', {
      subjectAltName: 'IP:127.0.0.1',
    })
    const server = await startLocalServer(
      (_, response) => answerJson(response, 200, []),
      () => createHttpsServer({ key, cert }),
      'https',
    )
    try {
      const error = await expectServiceError(
        client({ baseUrl: server.url }).call('listSessions'),
        'TLS_ERROR',
      )
      // The certificate is named (src/main/net/errors.ts): network-trust.test.ts checks how.
      expect(error.message).toMatch(
        `Could not connect securely to ${server.url} (self-signed certificate). The server’s certificate:`,
      )
      expect(error.message).toMatch(/SHA-256 ([0-9A-F]{2}:){31}[0-9A-F]{2}/)
      // TLS failures are not retried: the certificate will not change in 250 ms.
      expect(server.requests).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('keeps the base URL path and sends the token, user agent and query as the wire wants', async () => {
    const server = await startLocalServer((_, response) => answerJson(response, 200, { data: [] }))
    try {
      const api = client({ baseUrl: `${server.url}/ims/`, userAgent: 'Infradesk-test/1' })
      await api.call('listCertificates', {
        query: { page: 2, search: 'a b&c', showSystem: null, type: undefined },
      })
      const [seen] = server.requests
      expect(seen?.url).toBe('/ims/api/ssl-certificates?page=2&search=a+b%26c&showSystem=null')
      expect(seen?.headers.authorization).toBe(`Bearer ${sandbox.tokens.admin}`)
      expect(seen?.headers['user-agent']).toBe('Infradesk-test/1')

      await api.call('listAppMembers', { params: { id: 'a/b' } }).catch(() => undefined)
      expect(server.requests[1]?.url).toBe('/ims/api/apps/a%2Fb/members')
    } finally {
      await server.close()
    }
  })

  it('refuses a token that cannot go in a header, without quoting it', async () => {
    const token = 'line-one\nline-two-secret'
    const error = await expectServiceError(
      client({ token, baseUrl: await closedPortUrl() }).call('listSessions'),
      'VALIDATION_ERROR',
    )
    expect(validationIssuesOf(error.details).map((issue) => issue.path)).toEqual([['token']])
  })

  it('reports a redirect instead of following it with the token', async () => {
    const elsewhere = await startLocalServer((_, response) => answerJson(response, 200, []))
    const server = await startLocalServer((_, response) => {
      response.writeHead(302, { location: `${elsewhere.url}/auth/me/sessions` })
      response.end()
    })
    try {
      const error = await expectServiceError(
        client({ baseUrl: server.url }).call('listSessions'),
        'BAD_RESPONSE',
      )
      expect(error.message).toContain('redirects to')
      expect(elsewhere.requests).toEqual([])
    } finally {
      await server.close()
      await elsewhere.close()
    }
  })
})

/* ----------------------------------------------------- certificate files */

describe('exportCertificateFile', () => {
  it('reads raw bytes from the sandbox, equal to the JSON form', async () => {
    await sandbox.reset()
    seed = sandbox.seed()
    const id = firstOf(seed.certificates.withPrivateKey, 'certificate with a key')
    const api = client()

    const raw = await api.exportCertificateFile(id, { format: 'der' })
    expect(raw.mediaType).not.toMatch(/json/)
    expect(raw.filename).toMatch(/\.(der|cer|crt)$/)
    // DER: a SEQUENCE, and openssl reads it.
    expect(raw.bytes[0]).toBe(0x30)
    const derFile = await temp.write('export.der', raw.bytes)
    await openssl(['x509', '-inform', 'DER', '-in', derFile, '-noout', '-subject'])

    const json = await api.call('exportCertificate', { params: { id }, body: { format: 'der' } })
    expect(json.data.encoding).toBe('base64')
    expect(sha256Hex(Buffer.from(json.data.content, 'base64'))).toBe(sha256Hex(raw.bytes))
    expect(json.data.filename).toBe(raw.filename)

    const pem = await api.exportCertificateFile(id, { format: 'pem' })
    expect(pem.bytes.toString('utf8')).toContain('-----BEGIN CERTIFICATE-----')

    // A passphrase-protected binary format comes through byte for byte.
    const p12 = await api.exportCertificateFile(id, { format: 'pkcs12', passphrase: 'pw-123' })
    const p12File = await temp.write('export.p12', p12.bytes)
    await openssl(['pkcs12', '-in', p12File, '-passin', 'pass:pw-123', '-nokeys', '-noout'])
  })

  it('reads the JSON form when that is what the service sends', async () => {
    const id = firstOf(seed.certificates.withPrivateKey, 'certificate with a key')
    const raw = await client().exportCertificateFile(id, { format: 'der' })
    const server = await startLocalServer((_, response) =>
      answerJson(response, 200, {
        data: {
          filename: 'from-json.der',
          mediaType: 'application/pkix-cert',
          encoding: 'base64',
          content: raw.bytes.toString('base64'),
        },
      }),
    )
    try {
      const file = await client({ baseUrl: server.url }).exportCertificateFile(id, {
        format: 'der',
      })
      expect(server.requests[0]?.headers.accept).toBe('application/octet-stream')
      expect(file.filename).toBe('from-json.der')
      expect(file.mediaType).toBe('application/pkix-cert')
      expect(file.bytes.equals(raw.bytes)).toBe(true)
    } finally {
      await server.close()
    }
  })

  it('takes the file name from filename* over filename, and refuses binary sent as text', async () => {
    const bytes = Buffer.from([0x30, 0x82, 0x00, 0xff, 0xfe, 0x80])
    const server = await startLocalServer((request, response) => {
      if (request.url?.includes('/text/')) {
        answerJson(response, 200, {
          data: { filename: 'x.der', mediaType: 'x', encoding: 'utf8', content: 'abc' },
        })
        return
      }
      response.writeHead(200, {
        'content-type': 'application/pkix-cert',
        'content-disposition': `attachment; filename="fallback.der"; filename*=UTF-8''%C3%A9t%C3%A9.der`,
      })
      response.end(bytes)
    })
    try {
      const api = client({ baseUrl: server.url })
      const file = await api.exportCertificateFile('some-id', { format: 'der' })
      expect(file.filename).toBe('été.der')
      expect(file.mediaType).toBe('application/pkix-cert')
      expect(file.bytes.equals(bytes)).toBe(true)
      await expectServiceError(api.exportCertificateFile('text', { format: 'der' }), 'BAD_RESPONSE')
    } finally {
      await server.close()
    }
  })
})

/* ------------------------------------------------------------- fetchRaw */

describe('fetchRaw', () => {
  it('streams a volume archive through its download URL, with Range', async () => {
    const volume = smallestVolume()
    const api = client()
    const exported = await api.call('exportVolume', {
      params: { nodeId: volume.nodeId, name: volume.name },
    })
    const downloadUrl = exported.data.downloadUrl as string
    const whole = await api.fetchRaw(downloadUrl, { authenticated: false })
    expect(whole.status).toBe(200)
    const bytes = await whole.bytes(Number.MAX_SAFE_INTEGER)
    expect(bytes.length).toBe(exported.data.sizeBytes)
    expect(sha256Hex(bytes)).toBe(exported.data.sha256)

    const part = await api.fetchRaw(downloadUrl, {
      authenticated: false,
      headers: { range: 'bytes=10-19' },
    })
    expect(part.status).toBe(206)
    expect((await part.bytes(1024)).equals(bytes.subarray(10, 20))).toBe(true)
  })

  it('sends the token to the profile origin only, and only when asked', async () => {
    const api = client()
    const signedIn = await api.fetchRaw('/auth/me/sessions', { authenticated: true })
    const anonymous = await api.fetchRaw('/auth/me/sessions', { authenticated: false })
    expect([signedIn.status, anonymous.status]).toEqual([200, 401])
    signedIn.discard()
    anonymous.discard()

    const foreign = await startLocalServer((_, response) => answerJson(response, 200, {}))
    try {
      await api.fetchRaw(`${foreign.url}/file`, { authenticated: true })
      expect(foreign.requests[0]?.headers.authorization).toBeUndefined()
    } finally {
      await foreign.close()
    }
  })

  it('maps network failures like call() does', async () => {
    const url = await closedPortUrl()
    await expectServiceError(client().fetchRaw(`${url}/x`, { authenticated: false }), 'OFFLINE')
  })
})

/* -------------------------------------------------------------- no leaks */

describe('tokens in errors', () => {
  it('never appear in any error message or details seen in this file', () => {
    expect(seenErrors.length).toBeGreaterThan(20)
    for (const error of seenErrors) {
      const text = `${error.message}\n${JSON.stringify(error.details ?? null)}`
      for (const token of usedTokens) {
        expect(text, `${error.code}: ${error.message}`).not.toContain(token)
      }
    }
  })
})
