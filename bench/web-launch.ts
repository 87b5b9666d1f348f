/*
 * What the launch benches (startup.ts, overview.ts) share: web mode started as `npm run web`
 * runs it (the built out/main/web.js), a paint marker
 * installed in the page before its scripts, and Chromium's CPU time and idleness read over CDP.
 * Also the floor of any such measure on the machine: a Node process that serves a page of plain
 * HTML, launched and painted the same way (staticPageLaunch).
 */
import { spawn } from 'node:child_process'
import type { Browser, CDPSession, Page } from 'playwright-core'
import { z } from 'zod'
import { startTsxChild } from '../test/e2e/support/child'

/** The page's report of its paint mark, called through a binding the bench exposes. */
export const PAINT_BINDING = '__infradeskBenchPainted'

/** Web mode on `dataDir`, as `npm run web` runs it (needs `npm run build`, as the page does). */
export function startWeb(dataDir: string) {
  return startTsxChild({
    script: 'out/main/web.js',
    args: ['--port', '0', '--data-dir', dataDir],
    readyPrefix: 'WEB_READY',
    readySchema: z.looseObject({ url: z.url() }),
  })
}

/**
 * Installed in the page before any of its scripts (addInitScript), or called in it later:
 * notes (on the page's clock, in `__painted`) when `selector` first matches, and when the
 * second animation frame after it begins, by which time the frame holding it has been painted,
 * and reports that through `binding`. No polling from outside, so no Playwright round trip is
 * counted; and nothing is injected while the page loads (waitForFunction evaluates Playwright's
 * selector engine in the page when first called: 15-20 ms of its main thread).
 */
export function markPainted({ selector, binding }: { selector: string; binding: string }) {
  const page = globalThis as unknown as {
    __painted?: { inserted: number; painted?: number }
    [report: string]: unknown
    document: { querySelector(selector: string): unknown }
    requestAnimationFrame(next: () => void): void
    performance: { now(): number }
    MutationObserver: new (callback: () => void) => {
      observe(target: unknown, options: object): void
      disconnect(): void
    }
  }
  const observer = new page.MutationObserver(() => {
    if (page.__painted || !page.document.querySelector(selector)) return
    observer.disconnect()
    const mark = { inserted: page.performance.now() } as { inserted: number; painted?: number }
    page.__painted = mark
    page.requestAnimationFrame(() =>
      page.requestAnimationFrame(() => {
        mark.painted = page.performance.now()
        ;(page[binding] as () => void)()
      }),
    )
  })
  observer.observe(page.document, { childList: true, subtree: true })
}

/** The page's paint mark on the system clock (its time origin plus the mark). */
export async function paintedAt(page: Page): Promise<{ at: number; onPageClock: number }> {
  const mark = await page.evaluate(() => {
    const page = globalThis as unknown as {
      __painted: { painted: number }
      performance: { timeOrigin: number }
    }
    return { origin: page.performance.timeOrigin, painted: page.__painted.painted }
  })
  return { at: mark.origin + mark.painted, onPageClock: mark.painted }
}

/** CPU time used so far by all of Chromium's processes (CDP SystemInfo: 10 ms granularity). */
export async function browserCpuMs(cdp: CDPSession): Promise<number> {
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: { cpuTime: number }[]
  }
  return processInfo.reduce((sum, process) => sum + process.cpuTime * 1000, 0)
}

/**
 * Waits until Chromium has been idle for two 100 ms intervals in a row (at most 10 ms of CPU
 * in each, all processes), and returns its CPU time then. Opening the window (context and
 * page) sets Chromium working for a while after newPage() returns: a renderer process keeps
 * starting up for 300-900 ms of CPU. Measured from newPage(), that work falls inside the launch,
 * on a 2-core machine, taking a core from the app. The window is meant to be already there
 * when the app launches, so the clock starts once it has settled.
 */
export async function waitForIdleBrowser(cdp: CDPSession): Promise<number> {
  const deadline = Date.now() + 10_000
  let previous = await browserCpuMs(cdp)
  let quietIntervals = 0
  while (quietIntervals < 2 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    const now = await browserCpuMs(cdp)
    quietIntervals = now - previous <= 10 ? quietIntervals + 1 : 0
    previous = now
  }
  return previous
}

/** Rejects after 60 s: a paint that never comes fails the bench instead of hanging it. */
export function withinAMinute(painted: Promise<void>, what: string): Promise<void> {
  return Promise.race([
    painted,
    new Promise<void>((_, reject) =>
      setTimeout(() => reject(new Error(`${what} was not painted within 60 s`)), 60_000).unref(),
    ),
  ])
}

/**
 * The floor under any "launch to painted" figure on this machine: a Node process that does
 * nothing but serve `html` (no script, no bridge) started, its page opened in a settled
 * context, and the first match of `selector` painted, the clock as the launch benches run it
 * (from just before the process is spawned). What is left is Node's start, the navigation,
 * Chromium starting the page's renderer, parsing and painting. `headers` go with the page: the
 * app's security headers (web/host.ts) cost a navigation from about:blank ~100 ms on the 2-core
 * machine, as Cross-Origin-Opener-Policy puts the page in a new browsing context group (a
 * renderer of its own, the old frame torn down).
 */
export async function staticPageLaunch(
  browser: Browser,
  html: string,
  selector: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
  let reportPainted: () => void = () => undefined
  const painted = new Promise<void>((resolve) => (reportPainted = resolve))
  await context.exposeBinding(PAINT_BINDING, () => reportPainted())
  await context.addInitScript(markPainted, { selector, binding: PAINT_BINDING })
  const page = await context.newPage()
  const cdp = await browser.newBrowserCDPSession()
  await waitForIdleBrowser(cdp)
  await cdp.detach()
  const script = `
    const page = Buffer.from(${JSON.stringify(html)})
    const headers = ${JSON.stringify(headers)}
    const server = require('node:http').createServer((request, response) => {
      response.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' })
      response.end(page)
    })
    server.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port))`
  const launchedAt = Date.now()
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        const match = /PORT (\d+)/.exec(text)
        if (match) resolve(Number(match[1]))
      })
      child.once('exit', () => reject(new Error('the static page server exited')))
    })
    await page.goto(`http://127.0.0.1:${port}/`)
    await withinAMinute(painted, 'the static page')
    return (await paintedAt(page)).at - launchedAt
  } finally {
    child.kill()
    await context.close()
  }
}
