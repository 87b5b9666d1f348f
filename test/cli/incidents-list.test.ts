import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import { CACHE_FILE_NAME, openCache } from '../../src/main/cache'
import { jsonOf, readCsv, useCliHome } from './support'

/*
 * `infradesk incidents list`: the status page's incidents, as the app's Status page refreshes
 * them (its cache written), against each of the sandbox's shapes of the preview (the names of an
 * incident's fields are the service's to choose). A service that cannot be reached fails it
 * (exit 6) with nothing on stdout, the cached list notwithstanding, as `certs list` and
 * `sessions list` fail.
 */

const home = useCliHome('incidents-list')
const { cli } = home

describe.each(['default', 'variant', 'gateway'] as const)('against the %s sandbox', (flavor) => {
  let sandbox: RunningSandbox
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, flavor })
  })
  afterAll(async () => {
    await sandbox?.close()
  })
  const withToken = () => ({ env: { INFRADESK_TOKEN: sandbox.tokens.admin } })

  it('prints the open incidents and the resolved ones it shows, as JSON, a table and CSV', async () => {
    const { open, resolved } = sandbox.seed().incidents
    const json = await cli(['--url', sandbox.url, 'incidents', 'list', '--json'], withToken())
    expect(json.code, json.stderr).toBe(0)
    const items = jsonOf<Array<{ id: string }>>(json)
    const ids = items.map((item) => item.id)
    expect(ids).toEqual(expect.arrayContaining(open))
    for (const id of ids) expect([...open, ...resolved]).toContain(id)

    const table = await cli(['--url', sandbox.url, 'incidents', 'list'], withToken())
    expect(table.code, table.stderr).toBe(0)
    const [header, ...lines] = table.stdout.trimEnd().split('\n')
    expect(header?.split(/\s{2,}/)).toEqual([
      'ID',
      'TITLE',
      'STATUS',
      'IMPACT',
      'STARTED',
      'RESOLVED',
    ])
    expect(lines).toHaveLength(items.length)
    for (const id of open) expect(table.stdout).toContain(id)

    const csv = await cli(['--url', sandbox.url, 'incidents', 'list', '--csv'], withToken())
    expect(csv.code, csv.stderr).toBe(0)
    const [csvHeader, ...rows] = readCsv(csv.stdout)
    expect(csvHeader).toEqual(['ID', 'TITLE', 'STATUS', 'IMPACT', 'STARTED', 'RESOLVED'])
    const byId = new Map(rows.map((row) => [row[0], row]))
    for (const id of open) {
      const [, title, status, impact, started, resolvedAt] = byId.get(id) ?? []
      expect(title).not.toBe('')
      expect(status).not.toBe('')
      expect(status).not.toBe('resolved')
      expect(impact).not.toBe('')
      expect(Number.isNaN(Date.parse(started ?? ''))).toBe(false)
      expect(resolvedAt).toBe('')
    }
    for (const id of resolved.filter((id) => byId.has(id))) {
      const resolvedAt = byId.get(id)?.[5] ?? ''
      expect(Number.isNaN(Date.parse(resolvedAt))).toBe(false)
    }
  })
})

describe('on a stored profile', () => {
  let sandbox: RunningSandbox | null = null
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 })
  })
  afterAll(async () => {
    await sandbox?.close()
  })

  it("writes the app's cached list, and fails offline without printing the cached one", async () => {
    const service = sandbox as RunningSandbox
    const dataDir = path.join(home.temp.dir, 'profile-data')
    const inDataDir = ['--data-dir', dataDir]
    const added = await cli([...inDataDir, 'profiles', 'add', 'Status', '--url', service.url], {
      input: `${service.tokens.admin}\n`,
    })
    expect(added.code, added.stderr).toBe(0)
    const listed = await cli([...inDataDir, '--profile', 'Status', 'incidents', 'list', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const ids = jsonOf<Array<{ id: string }>>(listed).map((item) => item.id)
    expect(ids.length).toBeGreaterThan(0)

    // What the app's Status page reads first: the list the command refreshed.
    const profiles = await cli([...inDataDir, 'profiles', 'list', '--json'])
    const [profile] = jsonOf<Array<{ id: string }>>(profiles)
    const { cache } = openCache(path.join(dataDir, CACHE_FILE_NAME))
    try {
      const cached = cache.getList(profile?.id ?? '', 'incidents')
      expect(cached?.items.map((item) => (item as { id: string }).id)).toEqual(ids)
    } finally {
      cache.close()
    }

    await service.close()
    sandbox = null
    const offline = await cli([...inDataDir, '--profile', 'Status', 'incidents', 'list', '--json'])
    expect(offline.code, offline.stderr).toBe(6)
    expect(offline.stdout).toBe('')
    expect(offline.stderr.trim().split('\n')).toHaveLength(1)
    await cli([...inDataDir, 'profiles', 'remove', 'Status'])
  })
})
