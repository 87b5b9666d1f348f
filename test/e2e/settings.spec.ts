import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { bridgeCall } from './support/bridge'
import { connectStagingToSandbox, expect, test } from './support/fixtures'
import { openScreen } from './support/screens'

test('settings: checked as typed, main’s refusal on its field, saved and kept; the theme pins over the OS', async ({
  page,
  startApp,
  startSandbox,
}) => {
  const downloads = await mkdtemp(path.join(tmpdir(), 'infradesk-downloads-'))
  try {
    const [sandbox, app] = await Promise.all([startSandbox(), startApp()])
    await page.goto(app.url)
    await connectStagingToSandbox(page, sandbox)
    await openScreen(page, 'settings')

    const folder = page.getByLabel('Downloads folder')
    const timeout = page.getByLabel('Request timeout (seconds)')
    const maxRows = page.getByLabel('Row limit of a new SQL tab')
    const save = page.getByRole('button', { name: 'Save changes' })
    await expect(timeout).toHaveValue('30')
    await expect(maxRows).toHaveValue('1000')
    await expect(save).toBeDisabled()

    // Checked as the user types, with the contract's bounds in the user's unit.
    await timeout.fill('0.5')
    await expect(page.getByText('At least 1 second')).toBeVisible()
    await timeout.fill('abc')
    await expect(page.getByText('Enter a number')).toBeVisible()
    await maxRows.fill('100001')
    await expect(page.getByText('At most 100000')).toBeVisible()
    await expect(save).toBeDisabled()
    await timeout.fill('45')
    await maxRows.fill('250')

    // Main refuses a folder that does not exist: its 400 lands on the field.
    await folder.fill(path.join(downloads, 'missing'))
    await save.click()
    await expect(page.getByText('No such folder')).toBeVisible()
    await expect(folder).toHaveAttribute('aria-invalid', 'true')
    await folder.fill(downloads)
    await expect(page.getByText('No such folder')).toHaveCount(0)
    // The saved queries' folder: empty is the data folder's; another must exist (main says so).
    const library = page.getByLabel('Saved queries folder')
    await expect(library).toHaveValue('')
    await library.fill(path.join(downloads, 'no-such-queries'))
    await save.click()
    await expect(page.getByText('No such folder')).toBeVisible()
    await expect(library).toHaveAttribute('aria-invalid', 'true')
    await library.fill(downloads)
    await save.click()
    await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible()
    expect(await bridgeCall(page, 'settings.get')).toMatchObject({
      sqlLibraryDir: downloads,
      downloadsDir: downloads,
      requestTimeoutMs: 45_000,
      defaultMaxRows: 250,
      theme: 'system',
    })

    // The theme pins over the OS at once, and stays after a reload.
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByRole('radio', { name: /Dark/ }).check()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(15, 20, 28)')
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
    await expect(page.getByLabel('Request timeout (seconds)')).toHaveValue('45')
    await page.getByRole('radio', { name: /System/ }).check()
    await expect(page.locator('html')).not.toHaveAttribute('data-theme')
    await expect(page.locator('html')).toHaveCSS('background-color', 'rgb(244, 245, 247)')
    expect((await bridgeCall(page, 'settings.get')).theme).toBe('system')
  } finally {
    await rm(downloads, { recursive: true, force: true })
  }
})
