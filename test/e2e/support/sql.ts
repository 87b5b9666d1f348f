import type { Locator, Page } from '@playwright/test'
import { expect, test as base, type Started } from './fixtures'
import type { ExternalSandbox } from './processes'
import { sandboxSeed } from './seed'

/*
 * Steps the SQL console specs share: the seeded database ids of an external sandbox, opening
 * the console on a database, typing into the CodeMirror editor and running what it holds; and
 * the `sqlConsole` fixture, the opening most of those specs share.
 */

/** `staging` with the SQL console open on the sandbox's small database, and its steps. */
export interface SqlConsole extends Started {
  /** The small database's id (the one the console is on). */
  databaseId: string
  /** Replaces the editor's text and runs the statement the cursor is in (Ctrl+Enter). */
  run(text: string): Promise<void>
  /** Replaces the editor's text and runs every statement in it; the result tabs. */
  runAll(text: string): Promise<Locator>
  /**
   * Stops web mode and starts it again on the same data folder, then opens the SQL console
   * from the navigation (what a tab, history and the library must survive).
   */
  restartApp(): Promise<void>
}

export const test = base.extend<{ sqlConsole: SqlConsole }>({
  sqlConsole: async ({ page, staging, startApp, dataDir }, use) => {
    const { small } = await sandboxDatabases(staging.sandbox)
    await openSqlConsole(page, small)
    await use({
      ...staging,
      databaseId: small,
      run: (text) => runStatement(page, text),
      runAll: (text) => runAllStatements(page, text),
      restartApp: async () => {
        await page.goto('about:blank')
        await staging.app.stop()
        const second = await startApp(dataDir)
        await page.goto(second.url)
        await page.getByRole('link', { name: /SQL console/ }).click()
        await expect(page.getByRole('heading', { name: 'SQL console' })).toBeVisible()
      },
    })
  },
})

export async function sandboxDatabases(
  sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>,
): Promise<{ large: string; small: string }> {
  const [large, small] = (await sandboxSeed(sandbox)).databases['postgres'] ?? []
  if (!large || !small) throw new Error('The sandbox seed has no PostgreSQL databases')
  return { large, small }
}

/** Opens the SQL console from the navigation and points the current tab at `databaseId`. */
export async function openSqlConsole(page: Page, databaseId: string): Promise<void> {
  await page.getByRole('link', { name: /SQL console/ }).click()
  await expect(page.getByRole('heading', { name: 'SQL console' })).toBeVisible()
  const database = page.getByLabel('Database id')
  await database.fill(databaseId)
  await expect(database).toHaveValue(databaseId)
}

export function sqlEditor(page: Page) {
  return page.getByTestId('sql-editor').locator('.cm-content')
}

/**
 * Replaces the editor's text (inserted as a whole, so completion and brackets stay out).
 * Focus, not a click: the completion list the last insert opened may lie over the editor, and
 * a click would land on it.
 */
export async function setEditorText(page: Page, text: string): Promise<void> {
  const editor = sqlEditor(page)
  await editor.focus()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('Delete')
  await page.keyboard.insertText(text)
}

/** Replaces the editor's text and runs the statement the cursor is in (Ctrl+Enter). */
export async function runStatement(page: Page, text: string): Promise<void> {
  await setEditorText(page, text)
  await page.keyboard.press('ControlOrMeta+Enter')
}

/** Replaces the editor's text and presses Run all; the result tabs. */
export async function runAllStatements(page: Page, text: string): Promise<Locator> {
  await setEditorText(page, text)
  await page.getByRole('button', { name: 'Run all' }).click()
  return resultTabs(page)
}

/** The tabs of the last run's results, one a statement. */
export function resultTabs(page: Page) {
  return page.getByRole('tablist', { name: 'Results' })
}

export function resultGrid(page: Page) {
  return page.getByRole('grid', { name: 'Result rows' })
}

export function resultMeta(page: Page) {
  return page.getByTestId('sql-meta')
}
