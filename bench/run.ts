/*
 * `npm run bench`: performance figures, printed and written to bench/results/<name>.json.
 * Not a test: nothing here asserts a time. Each figure is the median of repeated runs on this
 * machine, with the run count beside it, so results from two machines are not compared blindly.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createServiceClient } from '../src/main/api'
import { openCache } from '../src/main/cache'
import { startSandbox } from '../src/sandbox'

interface Figure {
  name: string
  runs: number
  medianMs: number
  minMs: number
  maxMs: number
}

async function measure(name: string, runs: number, work: () => Promise<unknown> | unknown) {
  const times: number[] = []
  for (let run = 0; run < runs; run++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const figure: Figure = {
    name,
    runs,
    medianMs: round(times[Math.floor(times.length / 2)] ?? 0),
    minMs: round(times[0] ?? 0),
    maxMs: round(times[times.length - 1] ?? 0),
  }
  console.log(
    `${name.padEnd(52)} median ${String(figure.medianMs).padStart(9)} ms  (min ${figure.minMs}, max ${figure.maxMs}, n=${runs})`,
  )
  return figure
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100
}

async function main() {
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
  const client = createServiceClient({ baseUrl: sandbox.url, token: sandbox.tokens.admin })
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
  await sandbox.close()

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

  const resultsDir = join(import.meta.dirname, 'results')
  mkdirSync(resultsDir, { recursive: true })
  const file = join(resultsDir, 'core.json')
  writeFileSync(
    file,
    JSON.stringify(
      { recordedAt: new Date().toISOString(), node: process.version, figures },
      null,
      2,
    ) + '\n',
  )
  console.log(`\nwritten to ${file}`)
}

/** `npm run bench -- <name>` runs one area's bench (bench/<name>.ts); none: the core figures. */
const AREA_BENCHES: Record<string, () => Promise<{ main(): Promise<void> }>> = {
  sql: () => import('./sql'),
}

const requested = process.argv.slice(2).filter((arg) => !arg.startsWith('-'))
const selected = requested.length === 0 ? [main] : requested.map((name) => areaBench(name))

function areaBench(name: string): () => Promise<void> {
  const load = AREA_BENCHES[name]
  if (!load) {
    console.error(`No bench named "${name}"; known: ${Object.keys(AREA_BENCHES).join(', ')}`)
    process.exit(2)
  }
  return async () => (await load()).main()
}

;(async () => {
  for (const bench of selected) await bench()
})().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
