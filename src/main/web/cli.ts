import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { visibleControls } from '../../shared/terminal-text'
import { deferredEndpoint } from '../bridge/deferred-endpoint'
import type { Desk } from '../desk'
import { startWebHost } from './host'
import type { WebHost } from './host'
import { openInSystemBrowser } from './open-browser'
import { parseWebArgs, UsageError } from './options'
import type { WebOptions } from './options'

/*
 * `npm run web`: the main-process core and a loopback host that serves the built renderer and
 * carries the bridge. Prints the URL (with this launch's secret) on one line for people, and
 * `WEB_READY {"url":...}` for scripts and tests.
 */

/** The app's folder (with package.json and out/renderer), from src/main/web or from out/main. */
function findAppRoot(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder
    if (path.dirname(folder) === folder) return path.resolve(start, '../../..')
  }
}

const root = findAppRoot(path.dirname(fileURLToPath(import.meta.url)))

function appVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      version?: unknown
    }
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0'
  } catch {
    return '0.0.0'
  }
}

async function main(argv: string[]): Promise<void> {
  let options
  try {
    options = parseWebArgs(argv)
  } catch (error) {
    if (error instanceof UsageError) {
      // The usage is lines; other controls (an option typed with one) still show escaped.
      console.error(visibleControls(error.message, { keepNewlines: true }))
      process.exit(2)
    }
    throw error
  }

  let host: WebHost | null = null
  let opening: Promise<Desk> | null = null
  let stopping = false
  const stop = async (code: number) => {
    // A second signal does not wait for the first one's clean close (a core still opening, a
    // close stuck on the disk): SQLite's WAL keeps the cache whole through an exit anyway.
    if (stopping) process.exit(code)
    stopping = true
    await host?.close().catch(() => undefined)
    const desk = await opening?.catch(() => null)
    await desk?.close().catch(() => undefined)
    process.exit(code)
  }
  process.on('SIGINT', () => void stop(0))
  process.on('SIGTERM', () => void stop(0))

  // The host listens first and the core loads behind it (see deferredEndpoint): the URL is out,
  // and the page loads its script, while the cache, the keychain and the handlers open. Loading
  // the core holds this loop: its modules evaluate (~200 ms on two cores), then the desk opens
  // (~40 ms). A page asked for meanwhile waits that long for its first byte, its scripts as long
  // again. So the modules load once the page has its HTML, while the browser starts the page's
  // renderer and parses it (~150 ms, nothing asked of us), in stages with turns of the loop
  // between them; once the page has asked for its first file, no stage starts until it has them
  // all (sent from memory, host.ts), or each request would wait out a stage of its own. The
  // desk opens when the stages are done, at the first bridge call (a client without a page), or
  // after a grace period at the latest, so a core that cannot open still ends the process with
  // its reason.
  // Pending from the page's first file asked for to its last one sent: what a stage waits on.
  let pageFilesOut: Promise<void> | null = null
  let pageFilesSent: () => void = () => undefined
  const beforeStage = () =>
    pageFilesOut === null
      ? Promise.resolve()
      : Promise.race([pageFilesOut, delay(PAGE_FILES_WAIT_MS)])
  let wanted: () => void = () => undefined
  const loadDeskModules = once(
    () => void loadInStages(DESK_MODULE_STAGES, beforeStage).then(beforeStage).then(wanted),
  )
  const deskReady = new Promise<void>((resolve) => (wanted = resolve)).then(() => {
    opening = openDesk(options)
    return opening
  })
  host = await startWebHost({
    desk: deferredEndpoint(deskReady, wanted),
    rendererDir: path.join(root, 'out', 'renderer'),
    port: options.port,
    host: options.host,
    onPageServed: loadDeskModules,
    onPageFilesAsked: () => {
      pageFilesOut = new Promise((resolve) => (pageFilesSent = resolve))
    },
    onPageFilesServed: () => {
      pageFilesOut = null
      pageFilesSent()
    },
  })
  process.stdout.write(`Infradesk web mode: ${host.url}\n`)
  process.stdout.write(`WEB_READY ${JSON.stringify({ url: host.url })}\n`)
  setTimeout(wanted, DESK_GRACE_MS)
  // A desk that cannot open (an unusable data folder) still ends the process with its reason,
  // after the URL is out: the page then finds the host gone, not a half-working app.
  await deskReady
}

/** `run` once, whoever asks first. */
function once(run: () => void): () => void {
  let ran = false
  return () => {
    if (ran) return
    ran = true
    run()
  }
}

/**
 * The core's modules, in stages of 10-60 ms of this loop each (zod, the bridge contract, the
 * cache with SQLite, the network stack, the service client, the certificate lists, then the
 * rest), so that the page's requests that came in the meantime are answered between two stages
 * instead of after all of them. The SQL console and volume exports load at their first call
 * (desk.ts), off this path.
 */
const DESK_MODULE_STAGES: (() => Promise<unknown>)[] = [
  () => import('zod'),
  () => import('../../shared/bridge'),
  () => import('../cache'),
  () => import('../net'),
  () => import('../api'),
  () => import('../features/certificates'),
  () => import('../desk'),
]

/**
 * Runs each stage after the last, with a turn of the event loop between them (its I/O
 * first: requests that arrived are answered). A stage that fails is left to the one that
 * needs it (openDesk's own import reports it).
 */
async function loadInStages(
  stages: (() => Promise<unknown>)[],
  beforeStage: () => Promise<void>,
): Promise<void> {
  for (const stage of stages) {
    await beforeStage()
    await stage().catch(() => undefined)
    // A request on a new connection takes turns of its own: accepted, read, answered.
    for (let turn = 0; turn < 3; turn += 1) await nextTurn()
  }
}

/** How long a stage waits for the rest of the page's files once it asked for the first. */
const PAGE_FILES_WAIT_MS = 200

/** How long the core waits for the page (or a call) before it opens anyway. */
const DESK_GRACE_MS = 500

/**
 * The main-process core, loaded on demand: importing it (SQLite, zod, the handlers) is most of
 * the start's cost, and the host does not need it to listen.
 */
async function openDesk(options: WebOptions): Promise<Desk> {
  const { createDesk } = await import('../desk')
  const desk = await createDesk({
    dataDir: options.dataDir,
    mode: 'web',
    openExternal: openInSystemBrowser,
    version: appVersion(),
    restoreSandbox: options.restoreSandbox,
    ...(options.sandboxPort === undefined ? {} : { sandboxPort: options.sandboxPort }),
    ...(options.sandboxFlavor === 'default' ? {} : { sandboxFlavor: options.sandboxFlavor }),
  })
  if (options.sandbox) {
    const listed = await desk.dispatch('profiles.list', {})
    const hasProfiles = listed.ok && (listed.value as { profiles: unknown[] }).profiles.length > 0
    if (!hasProfiles) {
      // First run with --sandbox: the app opens signed in to the embedded sandbox.
      const explored = await desk.dispatch('sandbox.explore', {})
      if (!explored.ok) {
        console.error(
          visibleControls(`Could not start the local sandbox: ${explored.error.message}`),
        )
      }
    }
  }
  return desk
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Startup errors name what failed to open (a port, the data folder); none holds a token.
  console.error(
    visibleControls(
      `Infradesk web mode could not start: ${error instanceof Error ? error.message : String(error)}`,
    ),
  )
  process.exit(1)
})
