import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect } from './support/fixtures'
import { setEditorText, sqlEditor, test } from './support/sql'

/*
 * The SQL editor is themed from the app's variables: in both themes every piece of
 * it a person reads (keywords, numbers, strings, comments, the gutter, the completion popup)
 * passes axe's colour-contrast rule. Running a statement closes the popup.
 */

test.setTimeout(120_000)

/** A statement with every kind of token the highlighter colours. */
const STATEMENT =
  "-- the first customers\nselect id, 42 as answer, 3.5, 'text' as word, true, null\nfrom customers\nwhere id > 1 and "

function completionPopup(page: Page) {
  return page.locator('.cm-tooltip-autocomplete')
}

async function contrastViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .include('[data-testid="sql-editor"]')
    .withRules(['color-contrast'])
    .analyze()
  return results.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${where}: ${node.target.join(' ')} — ${node.failureSummary}`),
  )
}

test('the SQL editor is legible in both themes, its completion popup too', async ({
  page,
  sqlConsole: _onTheSmallDatabase,
}) => {
  await setEditorText(page, STATEMENT)
  const found: string[] = []
  const gutters: string[] = []

  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme })
    gutters.push(
      await page.locator('.cm-gutters').evaluate((element) => {
        const style = element.ownerDocument.defaultView?.getComputedStyle(element)
        return style?.backgroundColor ?? ''
      }),
    )
    found.push(...(await contrastViolations(page, `editor (${theme})`)))

    // Typing a word opens the completion popup (keywords at least).
    await sqlEditor(page).press('End')
    await page.keyboard.type('no')
    await expect(completionPopup(page)).toBeVisible()
    found.push(...(await contrastViolations(page, `completion popup (${theme})`)))
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Escape')
    await expect(completionPopup(page)).toBeHidden()
  }

  expect(found, found.join('\n')).toEqual([])
  // The gutter is the editor's surface-2 in each theme, not CodeMirror's light grey.
  expect(gutters).toEqual(['rgb(248, 249, 251)', 'rgb(29, 35, 48)'])
})

test('Ctrl+Enter runs the statement and closes the completion popup', async ({
  page,
  sqlConsole: _onTheSmallDatabase,
}) => {
  // "true" typed out still lists itself in the popup, and the statement is valid as it stands.
  await setEditorText(page, 'select 1 as one where tru')
  await page.keyboard.type('e')
  await expect(completionPopup(page)).toBeVisible()

  await page.keyboard.press('ControlOrMeta+Enter')
  await expect(completionPopup(page)).toBeHidden()
  await expect(page.getByTestId('sql-meta')).toContainText(/1 row/, { timeout: 60_000 })
})
