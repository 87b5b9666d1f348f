import { readFile } from 'node:fs/promises'
import type { Page } from '@playwright/test'
import { EXPORT_FORMAT_INFO } from '../../src/shared/bridge'
import { makeTempDir } from '../support/tools'
import { bridgeCall } from './support/bridge'
import { openCertificates, selectCertificate } from './support/certificates'
import {
  connectFromWelcome,
  expect,
  profileSwitcher,
  sessionsTable,
  test,
} from './support/fixtures'
import { openScreen } from './support/screens'

/*
 * Issue 20, "Bugs that mislead": what the screens say is true. A passphrase typed for one
 * export format never reaches another, offline is said as such, a logged-out session is no
 * longer "This session", and the palette's highlighted entry is its top one. (A refusal's
 * headline per operation: ops-proxy-routes.spec.ts; relative times and SQL sorting: unit tests.)
 */

const PASSPHRASE = 'correct horse battery staple'
const NAME = 'www-northwind'

/** The export dialog's format radio, by the format's label. */
function formatRadio(page: Page, label: string) {
  const dialog = page.getByRole('dialog', { name: `Export “${NAME}”` })
  return dialog.getByRole('radio', { name: new RegExp(`^${label} `) })
}

test('changing the export format clears the passphrase; the saved report fits the dialog', async ({
  page,
  staging,
}) => {
  const downloads = await makeTempDir('infradesk-e2e-downloads')
  try {
    // `staging` has connected the profile; files go to this test's own downloads folder.
    void staging
    await bridgeCall(page, 'settings.update', { downloadsDir: downloads.dir })
    await openCertificates(page)
    await selectCertificate(page, NAME)
    await page.getByRole('button', { name: 'Export…' }).click()
    const dialog = page.getByRole('dialog', { name: `Export “${NAME}”` })

    await formatRadio(page, EXPORT_FORMAT_INFO.jks.label).check()
    await dialog.getByLabel(/^Passphrase$/).fill(PASSPHRASE)
    await dialog.getByLabel('Passphrase again').fill(PASSPHRASE)
    // PKCS#12, then the PEM bundle: nothing typed for the Java keystore carries over.
    await formatRadio(page, EXPORT_FORMAT_INFO.pkcs12.label).check()
    await expect(dialog.getByLabel(/^Passphrase( \(optional\))?$/)).toHaveValue('')
    await expect(dialog.getByLabel('Passphrase again')).toHaveValue('')
    await dialog.getByLabel(/^Passphrase( \(optional\))?$/).fill(PASSPHRASE)
    await formatRadio(page, EXPORT_FORMAT_INFO['pem-bundle'].label).check()
    await expect(dialog.getByLabel('Passphrase (optional)')).toHaveValue('')
    await expect(dialog.getByLabel('Passphrase again')).toHaveValue('')

    await dialog.getByRole('button', { name: 'Save to downloads' }).click()
    const status = dialog.getByRole('status', { name: 'Saved' })
    await expect(status).toBeVisible()
    // The bundle's key is as the user asked for it: not encrypted.
    const file = (await status.locator('code').textContent()) ?? ''
    const bundle = await readFile(file, 'utf8')
    expect(bundle).toContain('PRIVATE KEY-----')
    expect(bundle).not.toContain('ENCRYPTED')
    // The 64-digit hash wraps: nothing in the dialog is wider than its box.
    const overflowing = await dialog.evaluate((root) =>
      [root, ...root.querySelectorAll('*')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        // Clipped on purpose (ellipsis, visually hidden text) is not overflowing sideways.
        .filter(
          (element) =>
            element.ownerDocument.defaultView?.getComputedStyle(element).overflowX !== 'hidden',
        )
        .map((element) => element.className || element.tagName),
    )
    expect(overflowing).toEqual([])
  } finally {
    await downloads.remove()
  }
})

test('a session-only profile: the logout dialog says where its token was; the logged-out session loses its badge', async ({
  page,
  welcome: { sandbox },
}) => {
  await connectFromWelcome(
    page,
    { name: 'Staging', baseUrl: sandbox.url, token: sandbox.tokens.admin },
    ['Keep the token for this session only'],
  )
  const table = sessionsTable(page)
  await expect(table.getByText('This session', { exact: true })).toHaveCount(1)

  await page.getByRole('button', { name: 'Log out' }).click()
  const confirm = page.getByRole('dialog', { name: 'Log out of Staging?' })
  await expect(confirm).toContainText('kept for this session only')
  await expect(confirm).not.toContainText('from the system keychain')
  await confirm.getByRole('button', { name: 'Log out' }).click()
  await expect(page.getByText('Signed out of Staging')).toBeVisible()

  // The saved list is still shown; the session just ended is no longer "This session".
  await expect(table.getByText('Was this session', { exact: true })).toHaveCount(1)
  await expect(table.getByText('This session', { exact: true })).toHaveCount(0)
})

test('offline: the profile menu and the header say so and how old the data is', async ({
  page,
  staging: { sandbox },
}) => {
  await expect(profileSwitcher(page)).toContainText('Signed in')
  await sandbox.stop()
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(page.getByRole('status', { name: 'Offline' })).toBeVisible({ timeout: 30_000 })
  await expect(profileSwitcher(page)).toContainText('Offline')
  await expect(profileSwitcher(page)).not.toContainText('Signed in')
  await expect(page.getByText(/^Offline · data from less than a minute ago$/)).toBeVisible()
  await expect(page.getByText(/^Updated /)).toHaveCount(0)
})

test('the palette highlights its top entry, and Enter opens that one', async ({
  page,
  staging,
}) => {
  // `staging` has connected the profile the palette's screens show.
  void staging
  await page.keyboard.press('Control+K')
  const palette = page.getByRole('dialog', { name: 'Command palette' })
  const list = palette.getByRole('listbox', { name: 'Screens and operations' })
  await palette.getByRole('combobox', { name: 'Search screens and operations' }).fill('exp')
  const top = list.getByRole('option').first()
  await expect(top).toHaveAttribute('aria-selected', 'true')
  await expect(list.getByRole('option', { selected: true })).toHaveCount(1)
  const title = (await top.locator('.palette-option-title').textContent()) ?? ''
  expect(title).toBe('Export a certificate, PEM chain, private key, or PEM bundle')
  await page.keyboard.press('Enter')
  await expect(palette).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Certificates', level: 1 })).toBeVisible()
})

test('words, not the contract’s field names, where an operator reads', async ({
  page,
  staging,
}) => {
  void staging
  const main = page.getByRole('main')

  await openScreen(page, 'settings')
  await expect(page.getByLabel('Row limit of a new SQL tab')).toHaveValue(/^\d+$/)
  await expect(main).not.toContainText('maxRows')

  await openScreen(page, 'Database certificates')
  await expect(
    page.getByRole('checkbox', { name: /^Allow a restart of the database engine/ }),
  ).not.toBeChecked()
  await expect(main).not.toContainText('allowRestart')

  await openScreen(page, 'Nginx templates')
  await expect(main).toContainText(
    /Add the folders in the order|Saves (this folder|the \d+ folders)/,
  )
  await expect(main).not.toContainText('sortOrder')

  // Days as YYYY-MM-DD, like the ISO times of the log; a locale's date is pointed out.
  await openScreen(page, 'activity')
  const from = page.getByLabel('From day')
  await expect(from).toHaveAttribute('type', 'text')
  await expect(from).toHaveAttribute('placeholder', 'YYYY-MM-DD')
  await from.fill('12/01/2026')
  await expect(page.getByRole('alert').filter({ hasText: 'is not a day' })).toContainText(
    'write it as YYYY-MM-DD',
  )
  await expect(from).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Until day')).not.toHaveAttribute('aria-invalid', 'true')
  await from.fill('2026-12-01')
  await expect(from).not.toHaveAttribute('aria-invalid', 'true')

  // A migration's status in words, its value as sent beside them in code.
  await openScreen(page, 'migrations')
  await expect(page.locator('.migrations-intro')).toContainText('needs attention')
  await expect(page.locator('.migrations-intro')).not.toContainText('needs_attention')
})
