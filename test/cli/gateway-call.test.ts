import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { GATEWAY_ARGS, sandboxForThisFile } from '../support/sandbox-process'
import { useCliHome, volumeExportArgs } from './support'

/*
 * `infradesk call` against the gateway flavour: an answer of 200 whose data says the work failed
 * (op 8's `status: "error"`, op 14's `status: "failed"`) exits non-zero with the service's
 * lastError on stderr; a reorder answered `{"success": true}` exits 0 and prints the answer;
 * a volume export answered with the `.tar.gz` itself is written whole.
 * Run under scripts/with-keyring.mjs, as the other CLI tests.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: true, args: [...GATEWAY_ARGS] })
const home = useCliHome('cli-gateway', { secrets: () => [sandbox.tokens.admin] })
const { cli } = home
const withToken = () => ({ env: { INFRADESK_TOKEN: sandbox.tokens.admin } })

describe('infradesk call: a 200 that says the work failed', () => {
  it('retryProxyRoute on a route that fails again exits 1 with lastError on stderr', async () => {
    const host = sandbox.seed.proxyHosts.find((candidate) =>
      candidate.routes.some((route) => route['retryFailsAgain'] === true),
    )!
    const route = host.routes.find((candidate) => candidate['retryFailsAgain'] === true)!
    const run = await cli(
      [
        ...['--url', sandbox.url, 'call', 'retryProxyRoute'],
        ...['--param', `id=${host.id}`, '--param', `routeId=${route.id}`],
      ],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toMatch(/WORK_FAILED: .*reports the work failed: .*DNS/)
  })

  it('rotateDatabaseCertificate answered status error exits 1 with lastError on stderr', async () => {
    const databaseId = sandbox.seed.databases.daemonCannotReload?.[0]
    expect(databaseId).toBeDefined()
    const run = await cli(
      ['--url', sandbox.url, 'call', 'rotateDatabaseCertificate', '--param', `id=${databaseId}`],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(1)
    expect(run.stderr).toMatch(
      /WORK_FAILED: .*reports the work error: Managed database update failed/,
    )
  })
})

describe('infradesk call: a bare {"success": true}', () => {
  it('reorderNginxTemplateFolders exits 0 and prints the answer', async () => {
    const [first, second] = sandbox.seed.nginxTemplateFolders
    const body = JSON.stringify({
      items: [
        { id: first, sortOrder: 1 },
        { id: second, sortOrder: 0 },
      ],
    })
    const run = await cli(
      ['--url', sandbox.url, 'call', 'reorderNginxTemplateFolders', '--body', body],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ success: true })
  })
})

describe('infradesk volumes export: op 15 answered with the raw .tar.gz', () => {
  it('writes the archive the service sent and prints its size and SHA-256', async () => {
    const volume = sandbox.seed.volumes.find((candidate) => candidate.name === 'grafana-data')!
    const direct = await fetch(
      `${sandbox.url}/api/docker/nodes/${volume.nodeId}/volumes/${volume.name}/export`,
      { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } },
    )
    const sent = Buffer.from(await direct.arrayBuffer())
    const out = path.join(home.temp.dir, 'grafana.tar.gz')
    const run = await cli(volumeExportArgs(sandbox.url, volume, out), withToken())
    expect(run.code, run.stderr).toBe(0)
    const printed = JSON.parse(run.stdout) as { path: string; size: number; sha256: string }
    expect(printed.size).toBe(sent.length)
    expect(printed.sha256).toBe(createHash('sha256').update(sent).digest('hex'))
    expect((await readFile(printed.path)).equals(sent)).toBe(true)
  })
})
