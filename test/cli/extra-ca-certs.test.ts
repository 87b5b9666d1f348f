import path from 'node:path'
import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type RunningSandbox } from '../../src/sandbox'
import { makePrivateCa, type PrivateCa } from '../support/private-ca'
import { jsonOf, useCliHome } from './support'

/*
 * NODE_EXTRA_CA_CERTS, as a corporate machine sets it for every Node tool: the CLI runs on Node,
 * which reads the variable at start, so its certificates join the trust of our HTTP client
 * (src/main/net/trust.ts) beside the system's and the bundled roots. Before, the client gave
 * TLS its own CA list, which replaces Node's defaults, extras included: a service behind the
 * company's CA failed with a TLS error that `curl` and `npm` on the same machine did not have.
 * Real parts: a private CA made by openssl now, an HTTPS sandbox with a certificate it issued.
 */

let ca: PrivateCa
let sandbox: RunningSandbox
let caFile: string
const home = useCliHome('cli-extra-ca', { secrets: () => [sandbox.tokens.admin] })
const { cli } = home

beforeAll(async () => {
  ca = await makePrivateCa(home.temp, 'Corporate')
  const leaf = await ca.issue('ims.corp.test')
  // The chain without the root, as most servers send it: only a trusted root completes it.
  sandbox = await startSandbox({ tls: { cert: leaf.certPem, key: leaf.keyPem } })
  caFile = path.join(home.temp.dir, 'corporate-ca.pem')
  await writeFile(caFile, ca.pem)
})

afterAll(async () => {
  await sandbox?.close()
})

/** `certs list --json` against the HTTPS sandbox, the token in the environment. */
const listCertificates = (extraCaCerts: string | undefined) =>
  cli(['--url', sandbox.url, 'certs', 'list', '--json'], {
    env: { INFRADESK_TOKEN: sandbox.tokens.admin, NODE_EXTRA_CA_CERTS: extraCaCerts },
  })

describe('NODE_EXTRA_CA_CERTS in the CLI', () => {
  it('without it, the private CA is unknown: a TLS error naming the certificate', async () => {
    // The machine running the tests may set the variable to its own bundle: unset here.
    const refused = await listCertificates(undefined)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/TLS_ERROR/)
    expect(refused.stderr).toContain('CN=ims.corp.test')
  })

  it('with the private CA in it, the service is reached and its certificates listed', async () => {
    const listed = await listCertificates(caFile)
    expect(listed.code, listed.stderr).toBe(0)
    const rows = jsonOf<unknown[]>(listed)
    expect(Array.isArray(rows)).toBe(true)
    expect(rows.length).toBeGreaterThan(0)
  })
})
