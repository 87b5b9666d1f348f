import type { Page } from '@playwright/test'
import { expect } from './fixtures'
import type { ExternalSandbox } from './processes'
import { sandboxSeed } from './seed'

/*
 * Steps the SQL console specs share: the seeded database ids of an external sandbox, opening
 * the console on a database, and typing into the CodeMirror editor.
 */

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

export function resultGrid(page: Page) {
  return page.getByRole('grid', { name: 'Result rows' })
}

export function resultMeta(page: Page) {
  return page.getByTestId('sql-meta')
}
