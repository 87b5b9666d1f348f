import path from 'node:path'
import { makePrivateCa } from '../support/private-ca'
import { makeTempDir } from '../support/tools'
import { connectFromWelcome, expect, sessionsTable, test } from './support/fixtures'

/*
 * A service behind a company's internal CA (a private CA made with openssl now): the first
 * connection fails on the unknown issuer, the error names the server's certificate by its
 * SHA-256 fingerprint, and the profile form offers to trust the CA the server sent, showing the
 * CA's own fingerprint before the user says yes. Never a switch that turns verification off.
 */

test('an internal CA: the error names the certificate; the CA is trusted for the profile', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const temp = await makeTempDir('infradesk-e2e-ca')
  try {
    const ca = await makePrivateCa(temp, 'Northwind')
    const leaf = await ca.issue('sandbox')
    // The server sends its chain: leaf, then the CA (as many internal services do).
    await temp.write('chain.pem', leaf.certPem + ca.pem)
    await temp.write('key.pem', leaf.keyPem)
    const sandbox = await startSandbox([
      '--tls-cert',
      path.join(temp.dir, 'chain.pem'),
      '--tls-key',
      path.join(temp.dir, 'key.pem'),
    ])
    expect(sandbox.url).toMatch(/^https:\/\//)
    const app = await startApp()
    await page.goto(app.url)

    await connectFromWelcome(page, {
      name: 'Northwind',
      baseUrl: sandbox.url,
      token: sandbox.tokens.admin,
    })
    const offer = page.getByRole('group', { name: 'Untrusted certificate' })
    await expect(offer).toContainText(`SHA-256 ${leaf.fingerprint}`)
    await offer.getByRole('button', { name: 'Trust this CA for this profile…' }).click()
    // The CA itself, named and fingerprinted, before anything is trusted.
    await expect(offer).toContainText('Northwind Root CA')
    await expect(offer).toContainText(ca.fingerprint)
    await offer.getByRole('button', { name: 'Yes, trust this CA' }).click()

    // The profile is saved with the CA and signed in: its sessions are listed over TLS.
    await expect(sessionsTable(page).getByRole('row').nth(1)).toBeVisible()
  } finally {
    await temp.remove()
  }
})
