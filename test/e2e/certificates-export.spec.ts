import { readFile, readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import type { ExportFormat } from '../../src/shared/api'
import { EXPORT_FORMATS } from '../../src/shared/api'
import { EXPORT_FORMAT_INFO } from '../../src/shared/bridge'
import {
  certificatePublicKey,
  keytoolList,
  makeTempDir,
  privateKeyPublicKey,
  readX509,
  run,
  splitPemBlocks,
} from '../support/tools'
import { readPkcs12 } from '../support/pkcs12'
import { bridgeCall } from './support/bridge'
import { exportThroughDialog, openCertificates, selectCertificate } from './support/certificates'
import { expect, test } from './support/fixtures'

/*
 * Op 12 through the UI, in all 8 formats, into the downloads folder (web mode); then openssl
 * and keytool judge each file, as the sandbox's own contract tests do. The dialog reports only
 * path, size and SHA-256; the bytes on disk must hash to what it reported.
 */

const PASSPHRASE = 'correct horse battery staple'
const NAME = 'www-northwind'

test.setTimeout(120_000)

test('every export format through the UI is a file openssl and keytool accept', async ({
  page,
  staging: _connected,
}) => {
  const downloads = await makeTempDir('infradesk-e2e-downloads')
  try {
    await bridgeCall(page, 'settings.update', { downloadsDir: downloads.dir })
    await openCertificates(page)
    await selectCertificate(page, NAME)

    const saved = new Map<ExportFormat, string>()
    for (const format of EXPORT_FORMATS) {
      const file = await exportThroughDialog(page, {
        name: NAME,
        format,
        passphrase: PASSPHRASE,
        downloadsDir: downloads.dir,
      })
      expect(path.basename(file)).toBe(`${NAME}${EXPORT_FORMAT_INFO[format].extension}`)
      // The file is private (0600).
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      saved.set(format, file)
    }

    const file = (format: ExportFormat) => saved.get(format) as string
    const leaf = await readX509(file('pem'))
    expect(leaf.subject).toContain('CN=www.northwind.example')
    // der: the same certificate, binary (never through a text decoder).
    expect((await readFile(file('der')))[0]).toBe(0x30)
    expect((await readX509(file('der'), 'DER')).fingerprint).toBe(leaf.fingerprint)
    // chain + fullchain: the fullchain verifies the leaf up to its own root.
    const chain = splitPemBlocks(await readFile(file('chain'), 'utf8'))
    const full = splitPemBlocks(await readFile(file('fullchain'), 'utf8'))
    expect(chain.length).toBeGreaterThanOrEqual(1)
    expect(full.length).toBe(chain.length + 1)
    const root = await downloads.write('root.pem', full.at(-1)?.pem ?? '')
    const intermediates = await downloads.write(
      'intermediates.pem',
      full
        .slice(1, -1)
        .map((block) => block.pem)
        .join(''),
    )
    const verified = await run('openssl', [
      'verify',
      '-CAfile',
      root,
      '-untrusted',
      intermediates,
      file('pem'),
    ])
    expect(verified.stdout).toMatch(/: OK\s*$/)
    // pkcs12: opens with the passphrase, holds the key of the certificate.
    const p12Key = await downloads.write(
      'p12-key.pem',
      await readPkcs12(file('pkcs12'), PASSPHRASE, '-nocerts', '-nodes'),
    )
    expect(await privateKeyPublicKey(p12Key)).toBe(await certificatePublicKey(file('pem')))
    // jks: keytool lists a PrivateKeyEntry.
    expect(await keytoolList(file('jks'), PASSPHRASE)).toMatch(/PrivateKeyEntry/)
    // private-key: encrypted PKCS#8 that opens with the passphrase and matches the certificate.
    expect(await readFile(file('private-key'), 'utf8')).toContain('BEGIN ENCRYPTED PRIVATE KEY')
    expect(await privateKeyPublicKey(file('private-key'), PASSPHRASE)).toBe(
      await certificatePublicKey(file('pem')),
    )
    // pem-bundle: key, certificate and chain in one file.
    const bundle = splitPemBlocks(await readFile(file('pem-bundle'), 'utf8')).map((b) => b.label)
    expect(bundle).toContain('ENCRYPTED PRIVATE KEY')
    expect(bundle.filter((label) => label === 'CERTIFICATE').length).toBe(full.length)

    // A second export of the same name gets a numbered name: nothing is overwritten.
    await page.getByRole('button', { name: 'Export…' }).click()
    const again = page.getByRole('dialog', { name: `Export “${NAME}”` })
    await again.getByRole('button', { name: 'Save to downloads' }).click()
    await expect(again.getByRole('status', { name: 'Saved' })).toContainText(`${NAME} (2).pem`)
    expect(await readFile(path.join(downloads.dir, `${NAME}.pem`))).toEqual(
      await readFile(file('pem')),
    )
    // No temp file is left behind.
    expect((await readdir(downloads.dir)).filter((name) => name.endsWith('.part'))).toEqual([])
  } finally {
    await downloads.remove()
  }
})
