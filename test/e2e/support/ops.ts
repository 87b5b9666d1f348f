import type { Page } from '@playwright/test'
import { z } from 'zod'
import { connectStagingToSandbox, expect } from './fixtures'
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

const seedSchema = z.looseObject({
  incidents: z.object({ open: z.array(z.string()), resolved: z.array(z.string()) }),
  copyJobs: z.record(z.string(), z.array(z.string())),
  databases: z.record(z.string(), z.array(z.string())),
  proxyHosts: z.array(
    z.object({ id: z.string(), routes: z.array(z.object({ id: z.string(), status: z.string() })) }),
  ),
  deployments: z.array(z.object({ nodeId: z.string(), deploymentId: z.string() })),
  apps: z.array(z.object({ id: z.string(), environmentIds: z.array(z.string()) })),
  appEnvironments: z.array(
    z.object({ id: z.string(), name: z.string(), viewerMayView: z.boolean() }),
  ),
  loggingEnvironmentFolders: z.array(
    z.object({ id: z.string(), environmentIds: z.array(z.string()) }),
  ),
  loggingSchemas: z.array(z.string()),
  nginxTemplateFolders: z.array(z.string()),
  userFolderTree: z.array(
    z.object({ id: z.string(), name: z.string(), parentId: z.string().nullable() }),
  ),
})
export type Seed = z.infer<typeof seedSchema>

export async function openOps(
  page: Page,
  startApp: () => Promise<WebApp>,
  startSandbox: () => Promise<ExternalSandbox>,
): Promise<OpsSetup> {
  const sandbox = await startSandbox()
  const app = await startApp()
  await page.goto(app.url)
  await connectStagingToSandbox(page, sandbox)
  return { sandbox, app, seed: await seedOf(sandbox) }
}

export async function seedOf(sandbox: ExternalSandbox): Promise<Seed> {
  const response = await fetch(`${sandbox.url}/__sandbox/seed`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  if (!response.ok) throw new Error(`seed: ${response.status}`)
  return seedSchema.parse(await response.json())
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

/** Opens a screen from the navigation. */
export async function openScreen(page: Page, label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label }).click()
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
