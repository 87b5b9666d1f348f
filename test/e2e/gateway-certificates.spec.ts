import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { Page } from '@playwright/test'
import type { ExportFormat } from '../../src/shared/api'
import { readPkcs12 } from '../support/pkcs12'
import { makeTempDir, openssl, run, splitPemBlocks } from '../support/tools'
import type { TempDir } from '../support/tools'
import { bridgeCall } from './support/bridge'
import {
  exportFormatRadio,
  exportThroughDialog,
  openCertificates,
  selectCertificate,
} from './support/certificates'
import { expect, test } from './support/fixtures'
import { sandboxSeed } from './support/seed'

/*
 * Certificates as a real deployment serves them (the `gateway` project: the sandbox's gateway
 * flavour), through the UI in web mode: the list shows every certificate though the service
 * refuses the app's first page size; an internal certificate exports as PKCS#12 and as a
 * pem-bundle ZIP (through its PKI certificate); an ACME one's full chain is written from the
 * listed PEM, and its key formats are shown unavailable with the reason. Files are judged by
 * openssl and unzip.
 */

const PASSPHRASE = 'correct horse battery staple'
const INTERNAL = 'grafana-internal'
/** Its PKI certificate's common name, which names its exported files. */
const INTERNAL_COMMON_NAME = 'grafana.internal.northwind'
const ACME = 'www-northwind'

/** Exports the selected certificate `name` in `format` into `downloads`; the file's path. */
function exportInto(page: Page, name: string, format: ExportFormat, downloads: TempDir) {
  return exportThroughDialog(page, {
    name,
    format,
    passphrase: PASSPHRASE,
    downloadsDir: downloads.dir,
  })
}

test('every certificate listed; internal ones export as PKCS#12 and a ZIP bundle, ACME ones their public parts', async ({
  page,
  staging: { sandbox },
}) => {
  test.setTimeout(120_000)
  const downloads = await makeTempDir('infradesk-e2e-gateway-certificates')
  try {
    await bridgeCall(page, 'settings.update', { downloadsDir: downloads.dir })
    const seed = await sandboxSeed(sandbox)
    const system = (seed.certificates as { system?: string[] }).system ?? []
    await openCertificates(page)
    // The list is whole: every certificate but the system ones (hidden by default).
    await expect(page.getByLabel('Counts')).toContainText(
      `${seed.certificates.all.length - system.length} certificates`,
    )
    await expect(page.getByRole('alert')).toHaveCount(0)

    // An internal certificate: PKCS#12 through its PKI certificate, opened by openssl.
    await selectCertificate(page, INTERNAL)
    const p12 = await exportInto(page, INTERNAL, 'pkcs12', downloads)
    // Named as the service's Content-Disposition names it: the PKI certificate's common name.
    expect(path.basename(p12)).toBe(`${INTERNAL_COMMON_NAME}.p12`)
    const contents = await readPkcs12(p12, PASSPHRASE, '-nodes')
    const labels = splitPemBlocks(contents).map((block) => block.label)
    expect(labels).toContain('PRIVATE KEY')
    expect(labels).toContain('CERTIFICATE')

    // Its pem-bundle is the service's ZIP, saved as .zip: a real ZIP listing the PEM files.
    const zip = await exportInto(page, INTERNAL, 'pem-bundle', downloads)
    expect(path.basename(zip)).toBe(`${INTERNAL_COMMON_NAME}.zip`)
    expect((await readFile(zip)).subarray(0, 4).toString('hex')).toBe('504b0304')
    const tested = await run('unzip', ['-t', zip])
    expect(tested.code, tested.stdout + tested.stderr).toBe(0)
    const names = (await run('unzip', ['-Z1', zip])).stdout.trim().split('\n')
    expect(names.some((entry) => entry.endsWith('-fullchain.pem'))).toBe(true)
    expect(names.some((entry) => entry.endsWith('.key'))).toBe(true)

    // An ACME certificate: its key formats shown unavailable, with the reason.
    await selectCertificate(page, ACME)
    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: `Export “${ACME}”` })
    for (const format of ['private-key', 'pkcs12', 'jks', 'pem-bundle'] as const) {
      const radio = exportFormatRadio(dialog, format)
      await expect(radio).toBeDisabled()
      await expect(radio).toHaveAccessibleDescription(
        /does not export the private key of an ACME certificate/,
      )
    }
    await expect(dialog.getByRole('radio', { name: /^Full chain / })).toBeEnabled()
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toBeHidden()

    // Its full chain, written from the listed PEM, verifies up to its root.
    const fullchain = await exportInto(page, ACME, 'fullchain', downloads)
    expect(path.basename(fullchain)).toBe(`${ACME}-fullchain.pem`)
    const blocks = splitPemBlocks(await readFile(fullchain, 'utf8'))
    expect(blocks.length).toBeGreaterThanOrEqual(2)
    const root = await downloads.write('root.pem', blocks.at(-1)?.pem ?? '')
    const leaf = await downloads.write('leaf.pem', blocks[0]?.pem ?? '')
    const verified = await run('openssl', [
      'verify',
      '-CAfile',
      root,
      '-untrusted',
      fullchain,
      leaf,
    ])
    expect(verified.stdout).toMatch(/: OK\s*$/)
    expect((await openssl(['x509', '-in', leaf, '-noout', '-subject'])).trim()).toContain(
      'www.northwind.example',
    )
  } finally {
    await downloads.remove()
  }
})
