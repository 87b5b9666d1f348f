import { mkdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { GATEWAY_ARGS, sandboxForThisFile } from '../support/sandbox-process'
import { openssl, sha256Hex, splitPemBlocks } from '../support/tools'
import { jsonOf, useCliHome } from './support'

/*
 * `infradesk certs` against a real deployment's rules (the gateway flavour), as a user's shell
 * runs it with an API token and no profile: the list whole (page size learned from the refusal
 * of 500), an internal certificate exported through its PKI id, an ACME certificate's full
 * chain written from the listed PEM, its key formats listed as unavailable with the reason and
 * refused with it. Run under scripts/with-keyring.mjs, as the other CLI tests.
 */

const sandbox = sandboxForThisFile({ resetBeforeEach: false, args: [...GATEWAY_ARGS] })
const PASSPHRASE_FILE = 'pass.txt'
const home = useCliHome('cli-gateway-certs', { secrets: () => [sandbox.tokens.admin] })
const { cli } = home
const withToken = () => ({ env: { INFRADESK_TOKEN: sandbox.tokens.admin } })

interface Listed {
  id: string
  name: string
  type: string
  internalCertId: string | null
}

async function listed(): Promise<Listed[]> {
  const run = await cli(['--url', sandbox.url, 'certs', 'list', '--system', '--json'], withToken())
  expect(run.code, run.stderr).toBe(0)
  return jsonOf<Listed[]>(run)
}

beforeAll(async () => {
  mkdirSync(path.join(home.temp.dir, 'out'))
  await home.temp.write(PASSPHRASE_FILE, 'correct horse\n')
})

describe('infradesk certs against a real deployment', () => {
  it('certs list: every certificate, though the service refuses the page size first asked', async () => {
    const all = await listed()
    expect(new Set(all.map((item) => item.id))).toEqual(new Set(sandbox.seed.certificates.all))
  })

  it('certs export: an internal certificate as PKCS#12 through its PKI id', async () => {
    const internal = (await listed()).find(
      (item) =>
        item.type === 'internal' &&
        sandbox.seed.certificates.withPrivateKey.includes(item.id) &&
        item.internalCertId !== null,
    )!
    const out = path.join(home.temp.dir, 'out', 'internal.p12')
    const run = await cli(
      [
        ...['--url', sandbox.url, 'certs', 'export', internal.id, '--format', 'pkcs12'],
        ...['--out', out, '--passphrase-file', path.join(home.temp.dir, PASSPHRASE_FILE), '--json'],
      ],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(0)
    const saved = jsonOf<{ path: string; sha256: string }>(run)
    expect(saved.sha256).toBe(sha256Hex(readFileSync(out)))
    expect(statSync(out).mode & 0o777).toBe(0o600)
    const contents = await openssl([
      ...['pkcs12', '-in', out, '-passin', `file:${path.join(home.temp.dir, PASSPHRASE_FILE)}`],
      '-nodes',
    ])
    expect(splitPemBlocks(contents).map((block) => block.label)).toContain('PRIVATE KEY')
  })

  it("certs formats: an ACME certificate's public parts available, its key formats not, with the reason", async () => {
    const acme = (await listed()).find((item) => item.type === 'acme')!
    const run = await cli(
      ['--url', sandbox.url, 'certs', 'formats', acme.id, '--json'],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(0)
    const formats = jsonOf<{ format: string; available: boolean; reason?: string }[]>(run)
    const available = formats.filter((entry) => entry.available).map((entry) => entry.format)
    expect(available.sort()).toEqual(['chain', 'der', 'fullchain', 'pem'])
    for (const entry of formats.filter((candidate) => !candidate.available)) {
      expect(entry.reason).toContain('does not export the private key of an ACME certificate')
    }
    const table = await cli(['--url', sandbox.url, 'certs', 'formats', acme.id], withToken())
    expect(table.stdout).toMatch(/private-key\s+unavailable: The service does not export/)
  })

  it("certs export: an ACME certificate's full chain from the listed PEM; its key refused with the reason", async () => {
    const acme = (await listed()).find((item) => item.type === 'acme')!
    const out = path.join(home.temp.dir, 'out', 'acme-fullchain.pem')
    const run = await cli(
      [
        ...['--url', sandbox.url, 'certs', 'export', acme.id, '--format', 'fullchain'],
        ...['--out', out],
      ],
      withToken(),
    )
    expect(run.code, run.stderr).toBe(0)
    expect(splitPemBlocks(readFileSync(out, 'utf8')).length).toBeGreaterThanOrEqual(2)

    const key = path.join(home.temp.dir, 'out', 'acme.key')
    const refused = await cli(
      [
        ...['--url', sandbox.url, 'certs', 'export', acme.id, '--format', 'private-key'],
        ...['--out', key],
      ],
      withToken(),
    )
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('does not export the private key of an ACME certificate')
    expect(() => statSync(key)).toThrow()
  })
})
