import type { Page } from '@playwright/test'
import { expect, type Started } from './fixtures'
import { openScreen } from './screens'
import { sandboxSeed, type Seed } from './seed'
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
