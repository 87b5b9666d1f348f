import { test as base, expect, type Page } from '@playwright/test'
import {
  makeDataDir,
  startSandbox,
  startWebApp,
  type ExternalSandbox,
  type WebApp,
} from './processes'

/*
 * Every test gets its own data folder (profiles, SQLite cache), and starts the app and any
 * external sandbox it needs through these fixtures, which stop them all when the test ends,
 * pass or fail. Output of the children is attached to failing tests.
 *
 * The one exception is the plain sandbox behind `welcome` (and so `staging`, `ops`,
 * `sqlConsole`): one process per worker, restored to its seed (`POST /__sandbox/reset`: state,
 * tokens, databases, download faults, rate limit) before each test that takes it. Its start (the
 * PKI, the seed, PGlite's initdb and WebAssembly compile on the first statement) cost 10-30 s a
 * test; after a reset a database starts again from its dumped seed in under a second.
 */
export interface Options {
  /**
   * Which personality every external sandbox answers as (`--flavor`, docs/SERVICE.md): the
   * `variant` and `gateway` projects of playwright.config.ts set it; `default` otherwise.
   */
  sandboxFlavor: 'default' | 'variant' | 'gateway'
}

export interface Fixtures {
  /** `sandboxFlavor === 'variant'`: the second personality's other choice at every open point. */
  sandboxVariant: boolean
  dataDir: string
  /** Starts web mode on `dataDir` (the test's own by default), with extra environment. */
  startApp: (dataDir?: string, env?: NodeJS.ProcessEnv) => Promise<WebApp>
  /** Starts a sandbox process; `args` adds to its command line (`--wide-sql-limits`, say). */
  startSandbox: (args?: string[]) => Promise<ExternalSandbox>
  /** A sandbox and the app on `dataDir` started, the page on the app's first-run screen. */
  welcome: Started
  /**
   * The opening most specs share: `welcome`, then connected to the sandbox as profile
   * "Staging" with the admin token, its sessions listed with the current one marked (under the
   * gateway flavour: the sessions screen's notice that an API token cannot list them).
   */
  staging: Started
  /**
   * Content Security Policy violations the page reported (Chromium's issues), checked empty
   * after every test: the CSP forbids eval and inline script, so one means code tried either.
   */
  cspViolations: string[]
  /** Exceptions nothing in the page caught (rejected promises too), checked empty likewise. */
  pageErrors: string[]
}

/** Worker-scoped: the plain sandbox `welcome` hands out, restarted if a test stopped it. */
export interface WorkerFixtures {
  sharedSandbox: SharedSandbox
}

interface SharedSandbox {
  /** The worker's plain sandbox, running and restored to its seed. */
  fresh(): Promise<ExternalSandbox>
}

export interface Started {
  sandbox: ExternalSandbox
  app: WebApp
}

export const test = base.extend<Fixtures, Options & WorkerFixtures>({
  // Worker-scoped, since the worker's shared sandbox answers in this flavour.
  sandboxFlavor: ['default', { option: true, scope: 'worker' }],
  sharedSandbox: [
    async ({ sandboxFlavor }, use) => {
      let current: ExternalSandbox | undefined
      await use({
        async fresh() {
          if (current === undefined) {
            const started = await startSandbox(flavorArgs(sandboxFlavor))
            // A test that stops it (to see the app offline, say) stops it for good: the next
            // test starts another.
            const shared: ExternalSandbox = {
              ...started,
              stop: async () => {
                if (current === shared) current = undefined
                await started.stop()
              },
            }
            current = shared
            return shared
          }
          await resetSandbox(current)
          return current
        },
      })
      await current?.stop()
    },
    { scope: 'worker' },
  ],
  sandboxVariant: async ({ sandboxFlavor }, use) => {
    await use(sandboxFlavor === 'variant')
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright requires the destructuring form
  dataDir: async ({}, use) => {
    const data = await makeDataDir()
    await use(data.dir)
    await data.remove()
  },
  startApp: async ({ dataDir }, use, testInfo) => {
    const apps: WebApp[] = []
    await use(async (dir = dataDir, env?: NodeJS.ProcessEnv) => {
      const app = await startWebApp(dir, env)
      apps.push(app)
      return app
    })
    for (const app of apps) await app.stop()
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [index, app] of apps.entries()) {
        await testInfo.attach(`app-${index}.log`, { body: app.output(), contentType: 'text/plain' })
      }
    }
  },
  startSandbox: async ({ sandboxFlavor }, use, testInfo) => {
    const sandboxes: ExternalSandbox[] = []
    await use(async (args: string[] = []) => {
      const sandbox = await startSandbox([...flavorArgs(sandboxFlavor), ...args])
      sandboxes.push(sandbox)
      return sandbox
    })
    for (const sandbox of sandboxes) await sandbox.stop()
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const [index, sandbox] of sandboxes.entries()) {
        await testInfo.attach(`sandbox-${index}.log`, {
          body: sandbox.output(),
          contentType: 'text/plain',
        })
      }
    }
  },
  welcome: async ({ page, startApp, sharedSandbox }, use, testInfo) => {
    const [sandbox, app] = await Promise.all([sharedSandbox.fresh(), startApp()])
    await page.goto(app.url)
    await use({ sandbox, app })
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('shared-sandbox.log', {
        body: sandbox.output(),
        contentType: 'text/plain',
      })
    }
  },
  staging: async ({ page, welcome }, use) => {
    await connectStagingToSandbox(page, welcome.sandbox)
    await use(welcome)
  },
  // Automatic: zod's eval probe broke the CSP at every start for a while (the module that turns
  // it off ran after the schemas were built, once the shared code had a chunk of its own), and
  // only the browser's console said so.
  cspViolations: [
    async ({ page }, use) => {
      const violations: string[] = []
      const cdp = await page.context().newCDPSession(page)
      cdp.on('Audits.issueAdded', ({ issue }) => {
        const details = issue.details.contentSecurityPolicyIssueDetails
        if (details === undefined) return
        const where = details.sourceCodeLocation
        violations.push(
          `${details.contentSecurityPolicyViolationType} (${details.violatedDirective})` +
            (where ? ` at ${where.url}:${where.lineNumber + 1}:${where.columnNumber + 1}` : ''),
        )
      })
      await cdp.send('Audits.enable')
      await use(violations)
      await cdp.detach().catch(() => undefined)
      expect(violations, 'Content Security Policy violations in the page').toEqual([])
    },
    { auto: true },
  ],
  // Automatic: a screen can look right while something behind it threw and nobody caught it.
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = []
      const record = (error: Error) => errors.push(error.stack ?? String(error))
      page.on('pageerror', record)
      await use(errors)
      page.off('pageerror', record)
      expect(errors, 'uncaught errors in the page').toEqual([])
    },
    { auto: true },
  ],
})

export { expect }

function flavorArgs(flavor: Options['sandboxFlavor']): string[] {
  return flavor === 'default' ? [] : ['--flavor', flavor]
}

/** `POST /__sandbox/reset`: the sandbox's state, tokens and databases back to its seed. */
async function resetSandbox(sandbox: ExternalSandbox): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/reset`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.tokens.admin}` },
  })
  if (!response.ok) {
    throw new Error(`The shared sandbox did not reset: HTTP ${response.status}`)
  }
}

/**
 * The first-run choice "Connect to your service", filled in, the form's checkboxes named in
 * `ticked` checked ("Protected environment (production)", say), and submitted.
 */
export async function connectFromWelcome(
  page: Page,
  profile: { name: string; baseUrl: string; token: string },
  ticked: readonly string[] = [],
): Promise<void> {
  await page.getByRole('button', { name: 'Connect to your service' }).click()
  await fillProfileForm(page, profile)
  for (const name of ticked) await page.getByRole('checkbox', { name }).check()
  await page.getByRole('button', { name: 'Connect', exact: true }).click()
}

/** The first-run choice "Explore the local sandbox", until its sessions are listed. */
export async function exploreLocalSandbox(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Explore the local sandbox' }).click()
  // Starting the embedded sandbox (PGlite included) is the slow part of a first run.
  await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1, {
    timeout: 45_000,
  })
}

/** The app started and its first-run choice "Explore the local sandbox" taken: sessions listed. */
export async function openLocalSandbox(
  page: Page,
  startApp: Fixtures['startApp'],
): Promise<WebApp> {
  const app = await startApp()
  await page.goto(app.url)
  await exploreLocalSandbox(page)
  return app
}

/**
 * The opening most tests share: the first-run screen connected to `sandbox` as profile
 * "Staging" with the admin token, then its sessions listed with the current one marked.
 */
export async function connectStagingToSandbox(
  page: Page,
  sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>,
): Promise<void> {
  await connectToSandbox(page, sandbox, { name: 'Staging', token: 'admin' })
}

/** The same opening as profile "Viewer" with the viewer token: what a viewer may not do. */
export async function connectViewerToSandbox(
  page: Page,
  sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>,
): Promise<void> {
  await connectToSandbox(page, sandbox, { name: 'Viewer', token: 'viewer' })
}

/** The same opening as profile `as.name` with the sandbox's token `as.token`. */
export async function connectToSandbox(
  page: Page,
  sandbox: Pick<ExternalSandbox, 'url' | 'tokens'>,
  as: { name: string; token: keyof ExternalSandbox['tokens'] },
): Promise<void> {
  const token = sandbox.tokens[as.token]
  await connectFromWelcome(page, { name: as.name, baseUrl: sandbox.url, token })
  // A gateway's API token (`gw_…`) may not list browser sessions: the screen says so instead.
  if (isGatewayApiToken(token)) await expect(sessionsBrowserOnlyNotice(page)).toBeVisible()
  else await expect(sessionsTable(page).getByText('This session', { exact: true })).toHaveCount(1)
}

/** The gateway flavour's API tokens (docs/SERVICE.md): `gw_…`, never a browser session. */
export function isGatewayApiToken(token: string): boolean {
  return token.startsWith('gw_')
}

/**
 * The sessions screen's plain notice when the service keeps sessions for browser sessions only
 * (the gateway answers an API token 403 there): a status, not an error.
 */
export function sessionsBrowserOnlyNotice(page: Page) {
  return page.getByRole('status').filter({ hasText: 'an API token cannot list or end them' })
}

export async function fillProfileForm(
  page: Page,
  profile: { name: string; baseUrl: string; token: string },
): Promise<void> {
  await page.getByLabel('Name', { exact: true }).fill(profile.name)
  await page.getByLabel('Base URL').fill(profile.baseUrl)
  await page.getByLabel('Access token').fill(profile.token)
}

/** The profile switcher's "Add profile…": the dialog filled in and its Add profile pressed. */
export async function addProfileFromSwitcher(
  page: Page,
  profile: { name: string; baseUrl: string; token: string },
): Promise<void> {
  await profileSwitcher(page).click()
  await page.getByRole('menuitem', { name: 'Add profile…' }).click()
  await fillProfileForm(page, profile)
  await page
    .getByRole('dialog', { name: 'Add a profile' })
    .getByRole('button', { name: 'Add profile' })
    .click()
}

/** The sessions table, once it has rows. */
export function sessionsTable(page: Page) {
  return page.getByRole('table', { name: 'Sessions' })
}

/** The always-visible profile switcher button (its name says profile, state and action). */
export function profileSwitcher(page: Page) {
  return page.getByRole('button', { name: /^(Profile: |No profile selected)/ })
}
