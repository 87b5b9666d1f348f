/*
 * The SQLite cache with a certificate list of 10,000 rows (the size the startup target is set
 * for): write it in one transaction, read it back whole, look one row up, and the file's size.
 * The rows are the sandbox's own certificates (as the service returns them), repeated with
 * distinct ids, so their size and shape are the real ones.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServiceClient } from '../src/main/api'
import { openCache } from '../src/main/cache'
import { startSandbox } from '../src/sandbox'
import type { Bench, Figure } from './support'
import { measure, round } from './support'

const ROWS = 10_000

async function realCertificates(): Promise<Record<string, unknown>[]> {
  const sandbox = await startSandbox({ port: 0 })
  try {
    const client = createServiceClient({ baseUrl: sandbox.url, token: sandbox.tokens.admin })
    const page = await client.call('listCertificates', { query: { limit: 500, showSystem: true } })
    return page.data as Record<string, unknown>[]
  } finally {
    await sandbox.close()
  }
}

async function run() {
  const seed = await realCertificates()
  const certificates = Array.from({ length: ROWS }, (_, index) => ({
    ...seed[index % seed.length],
    id: `bench-certificate-${index}`,
  }))
  const bytes = Buffer.byteLength(JSON.stringify(certificates))
  const dir = mkdtempSync(join(tmpdir(), 'infradesk-bench-cache-'))
  const figures: Figure[] = []
  try {
    const file = join(dir, 'cache.sqlite')
    const { cache } = openCache(file)
    figures.push(
      await measure(
        `write ${ROWS.toLocaleString('en-US')} certificates (one transaction)`,
        10,
        () => cache.putList('bench', 'certificates', certificates, Date.now()),
        { warmup: 1, target: '< 500 ms' },
      ),
    )
    figures.push(
      await measure(
        `read ${ROWS.toLocaleString('en-US')} certificates`,
        20,
        () => {
          const list = cache.getList('bench', 'certificates')
          if (list?.items.length !== ROWS) throw new Error('the cache lost rows')
        },
        { warmup: 2, target: '< 200 ms' },
      ),
    )
    figures.push(
      await measure(
        'look up one certificate by id (x1000)',
        5,
        () => {
          for (let index = 0; index < 1000; index++) {
            cache.getItem('bench', 'certificates', `bench-certificate-${(index * 7919) % ROWS}`)
          }
        },
        { target: '< 50 ms' },
      ),
    )
    cache.close()
    figures.push({
      name: 'list as JSON / cache file after close',
      unit: 'MB',
      value: round(statSync(file).size / 1024 / 1024),
      runs: 1,
      target: `~ ${round(bytes / 1024 / 1024)} MB of JSON`,
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return { figures }
}

export default {
  title: 'SQLite cache: write and read 10,000 certificates',
  run,
} satisfies Bench
