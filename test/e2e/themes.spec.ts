import { ROUTES } from '../../src/renderer/src/app/routes'
import { connectStagingToSandbox, expect, test } from './support/fixtures'
import { openScreen } from './support/screens'

/*
 * Both themes: the app follows the OS by default (theme "system"), and the suite keeps a
 * screenshot of every screen in each, under test-results/ (not committed), for a person to look
 * at. Legibility itself is checked by axe's colour-contrast rule in a11y.spec.ts.
 */

const BACKGROUND = { light: 'rgb(244, 245, 247)', dark: 'rgb(15, 20, 28)' }
/** A disabled button's flat fill (styles.css --disabled-fill), and the accent of an enabled one. */
const DISABLED_FILL = { light: 'rgb(229, 231, 235)', dark: 'rgb(38, 45, 58)' }
const ACCENT_FILL = 'rgb(37, 99, 235)'

test('every screen in the light and the dark theme, following the OS', async ({
  page,
  startApp,
  startSandbox,
}, testInfo) => {
  test.setTimeout(180_000)
  const [sandbox, app] = await Promise.all([startSandbox(), startApp()])
  await page.goto(app.url)
  await connectStagingToSandbox(page, sandbox)

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    // "system" is the default: no pinned theme, the OS's scheme decides.
    await expect(page.locator('html')).not.toHaveAttribute('data-theme')
    await expect(page.locator('html')).toHaveCSS('background-color', BACKGROUND[theme])
    for (const route of ROUTES) {
      await openScreen(page, route)
      await expect(page.getByRole('main')).toHaveCSS(
        'color',
        theme === 'dark' ? 'rgb(229, 231, 235)' : 'rgb(17, 24, 39)',
      )
      await page.screenshot({
        path: testInfo.outputPath(`${theme}`, `${route}.png`),
        fullPage: true,
      })
    }
    await page.keyboard.press('Control+K')
    const search = page.getByRole('combobox', { name: 'Search screens and operations' })
    await expect(search).toBeVisible()
    await page.screenshot({ path: testInfo.outputPath(`${theme}`, 'palette.png') })
    await page.keyboard.press('Escape')
    await expect(search).toBeHidden()
    await openScreen(page, 'migrations')
    const open = page.getByRole('button', { name: 'Resolve a migration…' })
    // The pointer off the button: the first pass's click left it there, and hover darkens it.
    await page.mouse.move(0, 0)
    await expect(open).toHaveCSS('background-color', ACCENT_FILL)
    await open.click()
    // A disabled primary button is flat grey in both themes, not a half-transparent accent
    // (which still read as "press me" on the dark background).
    const resolve = page
      .getByRole('dialog', { name: 'Resolve a migration' })
      .getByRole('button', { name: 'Resolve migration' })
    await expect(resolve).toBeDisabled()
    await expect(resolve).toHaveCSS('background-color', DISABLED_FILL[theme])
    await expect(resolve).toHaveCSS('opacity', '1')
    await page.screenshot({ path: testInfo.outputPath(`${theme}`, 'migrations-dialog.png') })
    await page.keyboard.press('Escape')
  }
})
