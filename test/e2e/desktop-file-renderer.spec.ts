import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from '@playwright/test'
import type { Desk } from '../../src/main/desk'
import { ROUTE_GROUPS, ROUTE_INFO, ROUTES } from '../../src/renderer/src/app/routes'
import { connectStagingToSandbox, expect, test } from './support/fixtures'
import { openScreen } from './support/screens'
import { sandboxSeed } from './support/seed'

/*
 * The desktop app's page is out/renderer/index.html read from file://, with the bridge
 * the preload exposes on window.infradesk; every other spec runs the same page over web mode's
 * HTTP. Here Chromium opens the built file from file://, and an init script stands where the
 * preload stands: window.infradesk's invoke and subscribe, backed by the real built desk (the
 * one out/main/index.js opens, in desktop mode) in this test's process, answers as JSON text
 * and events as JSON text parsed, as the preload does (src/preload/index.ts). The CSP is the
 * meta tag's alone (file:// has no response headers), and the automatic cspViolations fixture
 * fails the test on any violation.
 *
 * Chromium is started with --allow-file-access-from-files: the built page loads its scripts as
 * modules (crossorigin), which a browser refuses to a file:// page unless told, and Electron
 * allows for the app's own files.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..')
const indexHtml = path.join(repoRoot, 'out', 'renderer', 'index.html')
const pageUrl = pathToFileURL(indexHtml).href

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--allow-file-access-from-files',
    ],
  },
})

/** The built desk, as out/main/index.js loads it (its chunk's name carries a hash). */
async function openBuiltDesk(dataDir: string): Promise<Desk> {
  const chunks = path.join(repoRoot, 'out', 'main', 'chunks')
  const chunk = readdirSync(chunks).find((name) => /^desk-.*\.js$/.test(name))
  if (chunk === undefined) throw new Error('out/main/chunks has no desk chunk: build first')
  const built = (await import(pathToFileURL(path.join(chunks, chunk)).href)) as {
    createDesk(deps: Record<string, unknown>): Promise<Desk>
  }
  return built.createDesk({
    dataDir,
    mode: 'desktop',
    openExternal: async () => undefined,
    version: '0.0.0-file-renderer',
    restoreSandbox: false,
  })
}

/** What the preload does, in the page: two functions on window.infradesk, JSON text both ways. */
async function providePreloadBridge(page: Page, desk: Desk): Promise<void> {
  await page.exposeBinding(
    '__infradeskInvoke',
    async (_source, channel: unknown, input: unknown) => {
      const answer = await desk.dispatchJson(channel, input)
      return typeof answer === 'string' ? answer : Buffer.from(answer).toString('utf8')
    },
  )
  await page.addInitScript(() => {
    const listeners = new Set<(name: string, payload: unknown) => void>()
    const target = globalThis as unknown as Record<string, unknown>
    target['__infradeskDeliver'] = (name: string, payloadJson: string) => {
      for (const listener of listeners) listener(name, JSON.parse(payloadJson))
    }
    const invoke = target['__infradeskInvoke'] as (channel: string, input: unknown) => unknown
    target['infradesk'] = Object.freeze({
      invoke: (channel: string, input: unknown) => invoke(channel, input),
      subscribe(listener: (name: string, payload: unknown) => void) {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    })
  })
  desk.onEvent((event, payload) => {
    void deliverEvent(page, event, payload)
  })
}

/** An event as main sends it to the page (shell/ipc.ts sendBridgeEvent): name, JSON text. */
async function deliverEvent(page: Page, event: string, payload: unknown): Promise<void> {
  await page
    .evaluate(
      ([name, text]) =>
        (
          (globalThis as unknown as Record<string, unknown>)['__infradeskDeliver'] as (
            name: string,
            text: string,
          ) => void
        )(name, text),
      [event, JSON.stringify(payload)] as const,
    )
    .catch(() => undefined)
}

test('the built page from file:// works as it does in web mode', async ({
  page,
  dataDir,
  startSandbox,
}) => {
  const sandbox = await startSandbox()
  const desk = await openBuiltDesk(dataDir)
  try {
    await providePreloadBridge(page, desk)
    await page.goto(pageUrl)
    expect(page.url()).toBe(pageUrl)

    // The CSP is the meta tag's (no response headers on file://): scripts from the app only.
    const csp = await page
      .locator('meta[http-equiv="Content-Security-Policy"]')
      .getAttribute('content')
    const policy = new Map(
      (csp ?? '').split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/)
        return [name, values.join(' ')] as const
      }),
    )
    expect(policy.get('script-src') ?? policy.get('default-src')).toBe("'self'")
    expect(policy.get('object-src')).toBe("'none'")
    expect(policy.get('base-uri')).toBe("'none'")
    // No web mode here: no launch secret is asked for, the bridge is the "preload's".
    await expect(page.getByText(/secret/i)).toHaveCount(0)

    // First run: a profile added through the bridge, the Sessions screen read.
    await connectStagingToSandbox(page, sandbox)

    // Hash routes: the navigation changes the hash, and the hash the screen.
    await page
      .getByRole('link', { name: /^Certificates/ })
      .first()
      .click()
    await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible()
    expect(new URL(page.url()).hash).toBe('#/certificates')
    expect(new URL(page.url()).pathname).toBe(new URL(pageUrl).pathname)

    // One screen of every area.
    for (const group of ROUTE_GROUPS) {
      const route = ROUTES.find((candidate) => ROUTE_INFO[candidate].group === group)
      if (route === undefined) continue
      await openScreen(page, route)
    }

    // A deep link's route (what infradesk://migrations/<id>/resolve opens): the id prefilled.
    const id = (await sandboxSeed(sandbox)).migrations['needs_attention']?.[0]
    if (!id) throw new Error('no migration needs attention')
    await page.goto(`${pageUrl}#/migrations?id=${id}`)
    const dialog = page.getByRole('dialog', { name: 'Resolve a migration' })
    await expect(dialog.getByLabel('Migration id')).toHaveValue(id)
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await expect(dialog).toHaveCount(0)

    // A link while the window is open: main's event, as the preload hands it to the page.
    await deliverEvent(page, 'migrations.openResolve', { id })
    await expect(dialog.getByLabel('Migration id')).toHaveValue(id)
  } finally {
    await desk.close()
  }
})

test('the built page names its own files, all present', () => {
  // What Electron loads from the asar: the page and every file it names beside it.
  const html = readFileSync(indexHtml, 'utf8')
  const names = [...html.matchAll(/(?:src|href)="\.\/([^"#?]+)"/g)].map((match) => match[1])
  expect(names.length).toBeGreaterThan(0)
  for (const name of names) {
    expect(() => readFileSync(path.join(path.dirname(indexHtml), name as string))).not.toThrow()
  }
})
