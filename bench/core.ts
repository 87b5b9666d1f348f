/*
 * The sandbox and the service client: cold start, typical operations, a big query, exports.
 * (The first benchmark, before the registry; its figures keep their names for the history.)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServiceClient } from '../src/main/api'
import { openCache } from '../src/main/cache'
import { startSandbox } from '../src/sandbox'
import type { Bench, Figure } from './support'
import { measure } from './support'

async function run() {
  const figures: Figure[] = []
  let sandbox = await startSandbox({ port: 0 })
  await sandbox.close()
  figures.push(
    await measure('sandbox cold start (PKI, 45 certificates, seed)', 3, async () => {
      sandbox = await startSandbox({ port: 0 })
      await sandbox.close()
    }),
  )
  sandbox = await startSandbox({ port: 0 })
  try {
    // A bench measures, it does not give up: the first query starts PGlite, which on a busy
    // 2-core machine can take longer than the app's 30 s call timeout.
    const client = createServiceClient({
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
      timeoutMs: 300_000,
    })
    const seed = sandbox.seed()
    const postgresId = seed.databases.postgres[0] as string

    figures.push(await measure('op 1 list sessions', 50, () => client.call('listSessions')))
    figures.push(
      await measure('op 16 list certificates (limit 500)', 50, () =>
        client.call('listCertificates', { query: { limit: 500, showSystem: true } }),
      ),
    )
    figures.push(
      await measure('op 5 first query (PGlite start + seed)', 1, () =>
        client.call('runPostgresQuery', { params: { id: postgresId }, body: { sql: 'select 1' } }),
      ),
    )
    figures.push(
      await measure('op 5 select 100k-row table, maxRows 1000', 10, () =>
        client.call('runPostgresQuery', {
          params: { id: postgresId },
          body: { sql: 'select * from events', maxRows: 1000 },
        }),
      ),
    )
    figures.push(
      await measure('op 12 export pkcs12', 20, () =>
        client.exportCertificateFile(seed.certificates.withPrivateKey[0] as string, {
          format: 'pkcs12',
          passphrase: 'bench',
        }),
      ),
    )
    const largeVolume = [...seed.volumes].sort((a, b) => b.sizeBytes - a.sizeBytes)[0]
    if (largeVolume) {
      figures.push(
        await measure('op 15 large volume export (first: sha256 of the archive)', 1, () =>
          client.call('exportVolume', {
            params: { nodeId: largeVolume.nodeId, name: largeVolume.name },
          }),
        ),
      )
    }
  } finally {
    await sandbox.close()
  }

  const dir = mkdtempSync(join(tmpdir(), 'infradesk-bench-'))
  try {
    const { cache } = openCache(join(dir, 'cache.sqlite'))
    const sessions = Array.from({ length: 1000 }, (_, index) => ({
      id: `session-${index}`,
      authMethod: 'oidc',
      createdAt: Date.now(),
      lastSeenAt: Date.now(),
      expiresAt: Date.now() + 3_600_000,
      ipAddress: '127.0.0.1',
      userAgent: 'bench',
      mfaSatisfiedAt: null,
      isCurrent: index === 0,
    }))
    figures.push(
      await measure('cache: write 1000 sessions', 20, () =>
        cache.putList('bench', 'sessions', sessions, Date.now()),
      ),
    )
    figures.push(
      await measure('cache: read 1000 sessions', 50, () => cache.getList('bench', 'sessions')),
    )
    cache.close()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { figures }
}

export default {
  title: 'sandbox start, service client operations, exports, small cache lists',
  run,
} satisfies Bench
