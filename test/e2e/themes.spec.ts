import { ROUTES } from '../../src/renderer/src/app/routes'
import { connectStagingToSandbox, expect, test } from './support/fixtures'
import { openScreen } from './support/screens'

/*
 * Both themes: the app follows the OS by default (theme "system"), and the suite keeps a
 * screenshot of every screen in each, under test-results/ (not committed), for a person to look
 * at. Legibility itself is checked by axe's colour-contrast rule in a11y.spec.ts.
 */

const BACKGROUND = { light: 'rgb(244, 245, 247)', dark: 'rgb(15, 20, 28)' }

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
    await page.getByRole('button', { name: 'Resolve a migration…' }).click()
    await page.screenshot({ path: testInfo.outputPath(`${theme}`, 'migrations-dialog.png') })
    await page.keyboard.press('Escape')
  }
})
