import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../src/sandbox'
import type { RunningSandbox, SeedIds } from '../../src/sandbox'

/*
 * Smoke test of the embedded sandbox (startSandbox): it starts on any port, refuses calls
 * without a token, answers one operation of every handler module, resets, and releases its
 * port on close. The per-operation contract lives in test/sandbox/contract/.
 */

interface Answer {
  status: number
  body: unknown
}

async function call(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown } = {},
): Promise<Answer> {
  const token = options.token === undefined ? sandbox.tokens.admin : options.token
  const headers: Record<string, string> = {}
  if (token !== null) headers.authorization = `Bearer ${token}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
}

function dataOf(answer: Answer): Record<string, unknown> {
  expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300)
  return (answer.body as { data: Record<string, unknown> }).data
}

/** Whether something can listen on the port right now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

function first<T>(list: T[]): T {
  const item = list[0]
  if (item === undefined) throw new Error('the seed has no such resource')
  return item
}

describe('startSandbox', () => {
  let sandbox: RunningSandbox
  let seed: SeedIds

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
    seed = sandbox.seed()
  })

  afterAll(async () => {
    await sandbox?.close()
  })

  it('listens on the real port it was given by the OS, with random tokens', () => {
    const url = new URL(sandbox.url)
    expect(url.hostname).toBe('127.0.0.1')
    expect(Number(url.port)).toBeGreaterThan(0)
    expect(sandbox.tokens.admin).toMatch(/^[A-Za-z0-9_-]{20,}$/)
    expect(sandbox.tokens.viewer).not.toBe(sandbox.tokens.admin)
  })

  it('refuses a call without a token, and serves the seed ids over HTTP', async () => {
    const refused = await call(sandbox, 'GET', '/auth/me/sessions', { token: null })
    expect(refused).toEqual({
      status: 401,
      body: { code: 'UNAUTHORIZED', message: 'Authentication required' },
    })
    const overHttp = await call(sandbox, 'GET', '/__sandbox/seed')
    expect(overHttp.status).toBe(200)
    expect(overHttp.body).toEqual(seed)
    const asViewer = await call(sandbox, 'GET', '/__sandbox/seed', { token: sandbox.tokens.viewer })
    expect(asViewer.status).toBe(403)
  })

  it('answers one operation of every handler module', async () => {
    const sessions = await call(sandbox, 'GET', '/auth/me/sessions')
    expect((sessions.body as { isCurrent: boolean }[]).filter((s) => s.isCurrent)).toHaveLength(1)

    const folder = dataOf(
      await call(sandbox, 'PUT', `/api/admin/user-folders/${first(seed.userFolders)}/move`, {
        body: { parentId: null },
      }),
    )
    expect(folder.parentId).toBeNull()

    const certificates = await call(sandbox, 'GET', '/api/ssl-certificates?limit=5')
    expect((certificates.body as { meta: { limit: number } }).meta.limit).toBe(5)

    const query = dataOf(
      await call(
        sandbox,
        'POST',
        `/api/databases/${first(seed.databases.postgres)}/postgres/query`,
        {
          body: { sql: 'SELECT 40 + 2 AS answer' },
        },
      ),
    )
    expect(query.rows).toEqual([[42]])

    const catalog = await call(sandbox, 'GET', '/api/inference/catalog', {
      token: sandbox.tokens.viewer,
    })
    expect((catalog.body as { object: string }).object).toBe('list')

    const schema = dataOf(
      await call(sandbox, 'GET', `/api/logging/schemas/by-slug/${first(seed.loggingSchemas)}`),
    )
    expect(schema.slug).toBe(first(seed.loggingSchemas))

    const migration = dataOf(
      await call(
        sandbox,
        'POST',
        `/api/docker/migrations/${first(seed.migrations.needs_attention)}/resolve`,
        {
          body: { authoritativeSide: 'target' },
        },
      ),
    )
    expect(migration.status).toBe('completed')

    const host = first(seed.proxyHosts.filter((h) => h.routes.some((r) => r.status === 'failed')))
    const route = first(host.routes.filter((r) => r.status === 'failed'))
    const retried = dataOf(
      await call(
        sandbox,
        'POST',
        `/api/proxy-hosts/${host.id}/additional-routes/${route.id}/retry`,
      ),
    )
    expect(retried.status).not.toBe('failed')

    const volume = first(seed.volumes)
    const exported = dataOf(
      await call(
        sandbox,
        'GET',
        `/api/docker/nodes/${volume.nodeId}/volumes/${volume.name}/export`,
      ),
    )
    const head = await fetch(String(exported.downloadUrl), { method: 'HEAD' })
    expect(Number(head.headers.get('content-length'))).toBe(exported.sizeBytes)

    const job = dataOf(
      await call(sandbox, 'POST', `/api/storage/copy-jobs/${first(seed.copyJobs.queued)}/cancel`),
    )
    expect(job.status).toBe('cancelled')

    const incident = dataOf(
      await call(
        sandbox,
        'POST',
        `/api/status-page/incidents/${first(seed.incidents.open)}/resolve`,
      ),
    )
    expect(incident.status).toBe('resolved')

    const deployment = first(seed.deployments)
    const resolved = dataOf(
      await call(
        sandbox,
        'POST',
        `/api/docker/nodes/${deployment.nodeId}/deployments/${deployment.deploymentId}/source/resolve`,
      ),
    )
    expect(resolved.desiredCommit).toBe((resolved.source as { branchHead: string }).branchHead)

    const members = await call(sandbox, 'GET', `/api/apps/${first(seed.apps).id}/members`)
    expect((members.body as { data: unknown[] }).data.length).toBeGreaterThan(0)
  })

  it('reset restores the seed, logged-out tokens included', async () => {
    const incidentId = first(seed.incidents.open)
    await call(sandbox, 'POST', `/api/status-page/incidents/${incidentId}/resolve`)
    const logout = await call(sandbox, 'POST', '/auth/logout', { token: sandbox.tokens.viewer })
    expect(logout.status).toBe(200)
    const afterLogout = await call(sandbox, 'GET', '/auth/me/sessions', {
      token: sandbox.tokens.viewer,
    })
    expect(afterLogout.status).toBe(401)

    // The admin logs out too: its token still opens /__sandbox, so a reset can revive it.
    expect((await call(sandbox, 'POST', '/auth/logout')).status).toBe(200)
    expect((await call(sandbox, 'GET', '/auth/me/sessions')).status).toBe(401)

    const reset = await call(sandbox, 'POST', '/__sandbox/reset')
    expect(reset.status).toBe(200)
    expect((await call(sandbox, 'GET', '/auth/me/sessions')).status).toBe(200)

    const again = await call(sandbox, 'GET', '/auth/me/sessions', { token: sandbox.tokens.viewer })
    expect(again.status).toBe(200)
    expect(sandbox.seed()).toEqual(seed)
    const resolvedAgain = await call(
      sandbox,
      'POST',
      `/api/status-page/incidents/${incidentId}/resolve`,
    )
    expect(resolvedAgain.status).toBe(200)
  })
})

describe('several sandboxes', () => {
  it('run side by side with their own ports and tokens, and close releases the port', async () => {
    const [one, two] = await Promise.all([
      startSandbox({ port: 0, adminToken: 'admin-one', viewerToken: 'viewer-one' }),
      startSandbox({ port: 0 }),
    ])
    try {
      expect(one.url).not.toBe(two.url)
      expect(one.tokens.admin).toBe('admin-one')
      expect((await call(one, 'GET', '/auth/me/sessions')).status).toBe(200)
      expect((await call(two, 'GET', '/auth/me/sessions')).status).toBe(200)
      // A token belongs to its own sandbox only.
      expect((await call(two, 'GET', '/auth/me/sessions', { token: 'admin-one' })).status).toBe(401)
      expect(one.seed().certificates.all).not.toEqual(two.seed().certificates.all)
    } finally {
      await Promise.all([one.close(), two.close()])
    }
    const port = Number(new URL(one.url).port)
    expect(await portIsFree(port)).toBe(true)
    await expect(fetch(`${one.url}/auth/me/sessions`)).rejects.toThrow()
  })

  it('turns an unexpected failure into 500 INTERNAL_ERROR without internals', async () => {
    // A PostgreSQL URL nobody listens on: the query fails below the SQL level.
    const reported: unknown[] = []
    const broken = await startSandbox({
      port: 0,
      databaseUrl: 'postgres://nobody@127.0.0.1:1/nothing',
      onUnexpectedError: (error) => reported.push(error),
    })
    try {
      const databaseId = first(broken.seed().databases.postgres)
      const answer = await call(broken, 'POST', `/api/databases/${databaseId}/postgres/query`, {
        body: { sql: 'SELECT 1' },
      })
      expect(answer).toEqual({
        status: 500,
        body: { code: 'INTERNAL_ERROR', message: 'Internal server error' },
      })
      expect(reported).toHaveLength(1)
    } finally {
      await broken.close()
    }
  })

  it('refuses a port that is taken with a one-line error', async () => {
    const taken = await startSandbox({ port: 0 })
    try {
      const port = Number(new URL(taken.url).port)
      await expect(startSandbox({ port })).rejects.toThrow(/already in use/)
    } finally {
      await taken.close()
    }
  })
})
