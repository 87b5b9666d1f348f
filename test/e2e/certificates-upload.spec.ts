import { makeSelfSigned, makeTempDir } from '../support/tools'
import { certificateRow, openCertificates } from './support/certificates'
import { connectStagingToSandbox, expect, test } from './support/fixtures'

/*
 * Op 7 through the UI. Material made by openssl (not by the sandbox). The local checks run
 * before anything is sent: a mismatched key and garbage PEM are refused with their reasons and
 * the Upload button stays disabled; a valid pair shows its preview, uploads and is listed. The
 * service's own refusal (409 on a taken name) lands on the name field.
 */

test('upload: a valid certificate is listed; a mismatched key and garbage PEM are refused locally', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const temp = await makeTempDir('infradesk-e2e-upload')
  try {
    const first = await makeSelfSigned(temp, 'upload-e2e.example.test', {
      subjectAltName: 'DNS:upload-e2e.example.test,DNS:www.upload-e2e.example.test',
    })
    const other = await makeSelfSigned(temp, 'other.example.test')
    const sandbox = await startSandbox()
    const app = await startApp()
    await page.goto(app.url)
    await connectStagingToSandbox(page, sandbox)
    await openCertificates(page)

    await page.getByRole('button', { name: 'Upload…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upload a certificate' })
    const upload = dialog.getByRole('button', { name: 'Upload', exact: true })
    const certificateField = dialog.getByLabel('Certificate (PEM)', { exact: true })
    const keyField = dialog.getByLabel('Private key (PEM)', { exact: true })
    // The greyed Upload says, beside it, what it waits for.
    const waitsFor = dialog.getByRole('status').filter({ hasText: /^Upload needs|^Fix the/ })
    await expect(waitsFor).toHaveText('Upload needs a name, the certificate and its private key.')
    await dialog.getByLabel('Name', { exact: true }).fill('e2e-uploaded')
    await expect(waitsFor).toHaveText('Upload needs the certificate and its private key.')

    // Garbage: not PEM at all, then a PEM block whose content is not a certificate.
    await certificateField.fill('hello, this is not a certificate')
    await keyField.fill(first.privateKeyPem)
    await expect(dialog.getByText(/No PEM certificate found in the certificate/)).toBeVisible()
    await expect(upload).toBeDisabled()
    await expect(waitsFor).toHaveText('Fix the marked fields first.')
    await certificateField.fill('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')
    await expect(
      dialog.getByText(/The certificate is not a readable X\.509 certificate/),
    ).toBeVisible()
    await expect(upload).toBeDisabled()

    // More PEM text than main takes (1 MiB): the check ends in an error, and the note beside
    // Upload says so, not "Checking the PEM files…" (nor an earlier check's marks).
    await certificateField.fill('x'.repeat(1_048_577))
    await expect(dialog.getByText('The material could not be checked')).toBeVisible()
    await expect(dialog.locator('.dialog-footer-note')).toHaveText(
      'The PEM files could not be checked (the reason is above).',
    )
    await expect(upload).toBeDisabled()

    // Good material next: while its check runs (held here until looked at), the failed check's
    // error box is gone (it read as the good file's failure) and the note says "Checking".
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let asked: () => void = () => undefined
    const checkAsked = new Promise<void>((resolve) => {
      asked = resolve
    })
    const checkPath = '**/__bridge/invoke/certificates.checkUpload'
    await page.route(checkPath, async (route) => {
      asked()
      await held
      await route.continue()
    })
    await certificateField.fill(first.certificatePem)
    await checkAsked
    await expect(dialog.getByText('The material could not be checked')).toHaveCount(0)
    await expect(dialog.locator('.dialog-footer-note')).toHaveText('Checking the PEM files…')
    await expect(upload).toBeDisabled()
    release()
    // Its own answer: the preview, and the error box does not come back.
    await expect(dialog.getByRole('region', { name: 'Preview' })).toContainText(
      'CN=upload-e2e.example.test',
    )
    // Unrouted once the held check has gone through (unrouting a handler still running fails it).
    await page.unroute(checkPath)
    await expect(dialog.getByText('The material could not be checked')).toHaveCount(0)

    // A key that belongs to another certificate.
    await certificateField.fill(first.certificatePem)
    await keyField.fill(other.privateKeyPem)
    await expect(
      dialog.getByText(/This private key does not belong to the certificate/),
    ).toBeVisible()
    await expect(upload).toBeDisabled()

    // The right key, given as a file through the file input: the preview reads the certificate.
    await keyField.fill('')
    await dialog.getByLabel('Private key (PEM): file').setInputFiles({
      name: 'upload-e2e.key',
      mimeType: 'application/x-pem-file',
      buffer: Buffer.from(first.privateKeyPem),
    })
    await expect(keyField).toHaveValue(first.privateKeyPem)
    const preview = dialog.getByRole('region', { name: 'Preview' })
    await expect(preview).toContainText('CN=upload-e2e.example.test')
    await expect(preview).toContainText('www.upload-e2e.example.test')
    // 30 days from openssl: the "expiring soon" warning shows, and does not block.
    await expect(dialog.getByText(/The certificate expires on .+, in \d+ days/)).toBeVisible()
    await expect(upload).toBeEnabled()
    await upload.click()
    await expect(dialog).toBeHidden()
    await expect(page.getByText('Uploaded “e2e-uploaded”.')).toBeVisible()
    await expect(certificateRow(page, 'e2e-uploaded')).toHaveCount(1)

    // The same name again: the service's 409 lands on the name field.
    await page.getByRole('button', { name: 'Upload…' }).click()
    await dialog.getByLabel('Name', { exact: true }).fill('E2E-Uploaded')
    await certificateField.fill(first.certificatePem)
    await keyField.fill(first.privateKeyPem)
    await expect(upload).toBeEnabled()
    await upload.click()
    await expect(
      dialog.getByText('A certificate named "E2E-Uploaded" already exists'),
    ).toBeVisible()
    await expect(dialog.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  } finally {
    await temp.remove()
  }
})
