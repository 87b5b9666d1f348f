import type { Locator, Page } from '@playwright/test'
import { z } from 'zod'
import { expect, test as base, type Started } from './fixtures'
import { openScreen } from './screens'
import { sandboxSeed, type Seed } from './seed'
import { orderOf } from './sortable'
import type { ExternalSandbox, WebApp } from './processes'

/*
 * What the operation specs (test/e2e/ops-*.spec.ts) share: an app connected to its own sandbox
 * as profile "Staging" (admin token), the sandbox's seed ids, a direct look at the sandbox for
 * the later call that proves a change, and the Activity log line each write must leave.
 */

export interface OpsSetup {
  sandbox: ExternalSandbox
  app: WebApp
  seed: Seed
}

/** The `staging` fixture's sandbox and app, with the sandbox's seed ids. */
export async function openOps(staging: Started): Promise<OpsSetup> {
  return { ...staging, seed: await sandboxSeed(staging.sandbox) }
}

/** `ops`: what openOps gives, as a fixture (the opening of most operation specs). */
export const test = base.extend<{ ops: OpsSetup }>({
  ops: async ({ staging }, use) => {
    await use(await openOps(staging))
  },
})

/** A list answer of the service read straight from the sandbox: `data`, each item named. */
export const namedItemsSchema = z.object({
  data: z.array(z.looseObject({ id: z.string(), name: z.string() })),
})

/** The Status page preview (op 17) as the default flavour answers it: open and resolved lists. */
export const statusPagePreviewSchema = z.object({
  data: z.looseObject({
    openIncidents: z.array(z.looseObject({ id: z.string(), title: z.string() })),
    recentlyResolved: z.array(z.looseObject({ id: z.string() })),
  }),
})

/** One call straight to the sandbox (not through the app): the later call that proves a change. */
export async function sandboxCall(
  sandbox: ExternalSandbox,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
  token: 'admin' | 'viewer' = 'admin',
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${sandbox.tokens[token]}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, json: (await response.json()) as unknown }
}

// The one openScreen, here too for the specs that import it with the other operation steps.
export { openScreen }

/**
 * Presses an operation's button ("Cancel copy job…"), then, in the dialog named `dialog` it
 * opens, the confirming button of the same words without the ellipsis ("Cancel copy job").
 */
export async function pressAndConfirm(page: Page, button: string, dialog: string): Promise<void> {
  await page.getByRole('button', { name: button }).click()
  await page
    .getByRole('dialog', { name: dialog })
    .getByRole('button', { name: button.replace(/…$/, '') })
    .click()
}

/**
 * On Nginx templates: each folder id typed into the add field and Enter pressed; the list of the
 * new order, once it holds them as typed.
 */
export async function addTemplateFolders(page: Page, ids: readonly string[]): Promise<Locator> {
  const adding = page.getByLabel('Add a template folder ID')
  for (const id of ids) {
    await adding.fill(id)
    await adding.press('Enter')
  }
  const list = page.getByRole('list', { name: 'Template folders in their new order' })
  await expect.poll(() => orderOf(list, ids)).toEqual(ids)
  return list
}

/** The Activity screen has the operation's line for the target, with the outcome given. */
export async function expectActivityLine(
  page: Page,
  line: { operation: string; target?: string; outcome?: 'Success' | 'Error'; text?: RegExp },
): Promise<void> {
  await openScreen(page, 'Activity')
  let rows = page
    .getByRole('table', { name: 'Activity' })
    .getByRole('row')
    .filter({ hasText: line.operation })
  if (line.target !== undefined) rows = rows.filter({ hasText: line.target })
  if (line.text !== undefined) rows = rows.filter({ hasText: line.text })
  await expect(rows.first()).toContainText(line.outcome ?? 'Success')
}
