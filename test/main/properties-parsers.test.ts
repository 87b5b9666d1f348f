import fc from 'fast-check'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient, isServiceError } from '../../src/main/api'
import type { CallInput, ServiceClient } from '../../src/main/api'
import { parseServiceJson } from '../../src/main/api/json'
import { LIST_OPERATIONS, operations, OPERATION_NAMES } from '../../src/shared/api'
import type { OperationName } from '../../src/shared/api'

/*
 * Property tests of every response parser: whatever a service sends back (any JSON, any bytes,
 * any status, any content type), the client resolves with a value the operation's schema accepts
 * or rejects with a ServiceError that says what was wrong; never another exception, never a
 * crash. The answers come from a real HTTP server on loopback that sends exactly what the
 * property generated.
 */

const UUID = '3f0c6f4e-2b1a-4c3d-8e9f-0a1b2c3d4e5f'

/** A valid request for each operation (the answers do not depend on it). */
const INPUTS: Record<OperationName, CallInput> = {
  listSessions: {},
  logout: {},
  moveCertificateFolder: { params: { id: UUID }, body: { parentId: null } },
  moveUserFolder: { params: { id: UUID }, body: { parentId: null } },
  runPostgresQuery: { params: { id: 'pg-1' }, body: { sql: 'select 1' } },
  listInferenceModels: {},
  uploadCertificate: { body: { name: 'n', certificatePem: 'c', privateKeyPem: 'k' } },
  rotateDatabaseCertificate: { params: { id: 'db-1' } },
  reorderNginxTemplateFolders: { body: { items: [{ id: UUID, sortOrder: 0 }] } },
  moveCertificates: { body: { ids: ['c-1'], folderId: null } },
  reorderLoggingEnvironments: { body: { items: [{ id: UUID, sortOrder: 0 }] } },
  exportCertificate: { params: { id: 'c-1' }, body: { format: 'pem' } },
  resolveMigration: { params: { id: UUID }, body: { authoritativeSide: 'target' } },
  retryProxyRoute: { params: { id: 'h-1', routeId: 'r-1' } },
  exportVolume: { params: { nodeId: 'n-1', name: 'v' } },
  listCertificates: { query: { page: 1, limit: 5 } },
  cancelCopyJob: { params: { id: UUID } },
  resolveIncident: { params: { id: 'i-1' } },
  resolveDeploymentSource: { params: { nodeId: 'n-1', deploymentId: 'd-1' } },
  listAppMembers: { params: { id: UUID } },
  getStatusPagePreview: {},
  getLoggingSchema: { params: { slug: 's' } },
}

interface Answer {
  status: number
  contentType: string
  body: Buffer
}

let server: Server
let next: Answer = { status: 200, contentType: 'application/json', body: Buffer.from('{}') }
let requests = 0
let client: ServiceClient

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++
    request.resume()
    response.writeHead(next.status, {
      'content-type': next.contentType,
      'content-length': next.body.length,
    })
    response.end(next.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  client = createServiceClient({
    baseUrl: `http://127.0.0.1:${port}`,
    token: 'property-test-token',
    maxRetries: 0,
    timeoutMs: 10_000,
  })
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** JSON texts, including ones with numbers beyond 2^53, deep nesting and odd unicode. */
const jsonText = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ data: value })),
  fc
    .array(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }), {
      maxLength: 5,
    })
    .map((items) => JSON.stringify({ data: items, object: 'list' })),
  fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }).map((big) => `{"data":[{"id":"x","n":${big}}]}`),
  fc.nat({ max: 3000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.string({ unit: 'binary' }),
)

const answers = fc.record({
  status: fc.constantFrom(200, 201, 204, 299, 400, 401, 403, 404, 409, 422, 500, 502, 503),
  contentType: fc.constantFrom(
    'application/json',
    'application/problem+json',
    'text/html',
    'application/octet-stream',
    '',
  ),
  body: fc.oneof(
    jsonText.map((text) => Buffer.from(text, 'utf8')),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  ),
})

describe('every response parser, any answer', () => {
  it.each(OPERATION_NAMES)('%s: a parsed value or a ServiceError, nothing else', async (name) => {
    const sentBefore = requests
    await fc.assert(
      fc.asyncProperty(answers, async (answer) => {
        next = answer
        try {
          const value = await client.call(name, INPUTS[name])
          // Success only for a 2xx the schema accepts: the value is what it parsed.
          expect(answer.status).toBeGreaterThanOrEqual(200)
          expect(answer.status).toBeLessThan(300)
          expect(operations[name].response.safeParse(value).success).toBe(true)
        } catch (error) {
          if (!isServiceError(error)) throw error
          expect(error.message.length).toBeGreaterThan(0)
          // Our own bugs show as this generic message: it must never be what an answer causes.
          expect(error.message).not.toContain('could not complete the request')
        }
      }),
      { numRuns: 40 },
    )
    // The inputs are valid: every run reached the server (none stopped at request validation).
    expect(requests - sentBefore).toBe(40)
  })

  it.each(['listSessions', 'listInferenceModels'] as const)(
    '%s read row by row (callRows): rows the schema accepts, or a ServiceError',
    async (name) => {
      const row = LIST_OPERATIONS[name].row
      await fc.assert(
        fc.asyncProperty(answers, async (answer) => {
          next = answer
          let rows = 0
          try {
            const count = await client.callRows(name, {
              begin: () => {
                rows = 0
              },
              row: (read) => {
                expect(row.safeParse(read.value).success).toBe(true)
                rows += 1
              },
            })
            expect(answer.status).toBeGreaterThanOrEqual(200)
            expect(answer.status).toBeLessThan(300)
            expect(count).toBe(rows)
          } catch (error) {
            if (!isServiceError(error)) throw error
            expect(error.message).not.toContain('could not complete the request')
          }
        }),
        { numRuns: 60 },
      )
    },
  )

  it('the certificate export reads any answer as a file or a ServiceError', async () => {
    await fc.assert(
      fc.asyncProperty(answers, async (answer) => {
        next = answer
        try {
          const file = await client.exportCertificateFile('c-1', { format: 'pkcs12' })
          expect(Buffer.isBuffer(file.bytes)).toBe(true)
        } catch (error) {
          if (!isServiceError(error)) throw error
        }
      }),
      { numRuns: 60 },
    )
  })
})

/** No number in it that a double cannot hold exactly (those are the ones kept as text). */
function hasOnlySafeNumbers(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isInteger(value) || Number.isSafeInteger(value)
  if (Array.isArray(value)) return value.every(hasOnlySafeNumbers)
  if (value !== null && typeof value === 'object')
    return Object.values(value).every(hasOnlySafeNumbers)
  return true
}

describe('numbers as sent', () => {
  it('keeps integers beyond 2^53 exactly, and every other value as JSON.parse reads it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }).filter(hasOnlySafeNumbers), (value) => {
        const text = JSON.stringify(value)
        expect(parseServiceJson(text)).toEqual(JSON.parse(text))
      }),
      { numRuns: 300 },
    )
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 90n), max: 2n ** 90n }), (big) => {
        const parsed = parseServiceJson(`{"n":${big}}`) as { n: unknown }
        if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(parsed.n).toBe(Number(big))
        } else {
          expect(parsed.n).toBe(String(big))
        }
      }),
    )
  })

  it('a big number in a list reaches the caller as its exact digits', async () => {
    next = {
      status: 200,
      contentType: 'application/json',
      body: Buffer.from(
        '{"object":"list","data":[{"id":"m","tokens":9007199254740993,"x":1e400}]}',
      ),
    }
    const catalog = await client.call('listInferenceModels')
    expect(catalog.data[0]).toEqual({ id: 'm', tokens: '9007199254740993', x: '1e400' })
  })
})
