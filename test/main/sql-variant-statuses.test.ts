import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../src/main/api'
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import { makeSelfSigned, makeTempDir, type TempDir } from '../support/tools'
import { serviceErrorOf } from '../support/service-error'

/*
 * The statuses the spec does not show (docs/SERVICE.md, "Status codes"). The default sandbox
 * answers each error code with its own status and an upload with 201; the variant answers every
 * refusal of the client's request with 400 and every success with 200. The client reads both
 * the same way: the body's code decides, any 2xx is a success.
 */

let temp: TempDir
const personalities: Record<'default' | 'variant', RunningSandbox> = {} as never

beforeAll(async () => {
  temp = await makeTempDir('infradesk-statuses')
  personalities.default = await startSandbox({ port: 0 })
  personalities.variant = await startSandbox({ port: 0, variant: true })
})

afterAll(async () => {
  await personalities.default?.close()
  await personalities.variant?.close()
  await temp?.remove()
})

describe.each([
  [
    'default',
    {
      VALIDATION_ERROR: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      CONFLICT: 409,
      UNPROCESSABLE_ENTITY: 422,
    },
    201,
  ],
  [
    'variant',
    {
      VALIDATION_ERROR: 400,
      UNAUTHORIZED: 400,
      FORBIDDEN: 400,
      NOT_FOUND: 400,
      CONFLICT: 400,
      UNPROCESSABLE_ENTITY: 400,
    },
    200,
  ],
] as const)('the %s personality', (name, statuses, uploadStatus) => {
  const sandbox = () => personalities[name]
  const client = (token = sandbox().tokens.admin) =>
    createServiceClient({ baseUrl: sandbox().url, token, retryDelayMs: 5 })

  it('each error is known by its body, whatever the status', async () => {
    const seed = sandbox().seed()
    const cases = [
      [
        'VALIDATION_ERROR',
        () =>
          client().call('runPostgresQuery', {
            params: { id: seed.databases.postgres[1]! },
            body: { sql: 'select 1', maxRows: 5000 },
          }),
      ],
      ['UNAUTHORIZED', () => client('not-a-token').call('listSessions', {})],
      [
        'FORBIDDEN',
        () =>
          client(sandbox().tokens.viewer).call('runPostgresQuery', {
            params: { id: seed.databases.postgres[1]! },
            body: { sql: 'select 1' },
          }),
      ],
      [
        'NOT_FOUND',
        () =>
          client().call('runPostgresQuery', {
            params: { id: 'no-such-database' },
            body: { sql: 'select 1' },
          }),
      ],
      [
        'UNPROCESSABLE_ENTITY',
        () =>
          client().call('runPostgresQuery', {
            params: { id: seed.databases.postgres[1]! },
            body: { sql: 'selec 1' },
          }),
      ],
    ] as const
    // Thunks: each request is made when its turn comes, so no refusal goes unobserved.
    for (const [code, work] of cases) {
      const error = await serviceErrorOf(work())
      expect(error.code, error.message).toBe(code)
      expect(error.status).toBe(statuses[code])
    }
  }, 60_000)

  it(`an upload answers ${uploadStatus} and is read as a success; a second one is CONFLICT`, async () => {
    const material = await makeSelfSigned(temp, `statuses-${name}.test`)
    const body = { name: `statuses ${name}`, ...material }
    const uploaded = await client().call('uploadCertificate', { body })
    expect(uploaded.data).toMatchObject({ name: `statuses ${name}` })
    const raw = await fetch(`${sandbox().url}/api/ssl-certificates/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sandbox().tokens.admin}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ ...body, name: `statuses ${name} raw` }),
    })
    expect(raw.status).toBe(uploadStatus)
    const again = await serviceErrorOf(client().call('uploadCertificate', { body }))
    expect(again.code).toBe('CONFLICT')
    expect(again.status).toBe(statuses.CONFLICT)
  })
})
