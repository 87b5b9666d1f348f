import { app, BrowserWindow, dialog, nativeTheme, shell } from 'electron'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { deferredEndpoint } from './bridge/deferred-endpoint'
import type { Desk } from './desk'
import type { AppLocation } from './shell/app-url'
import { externalHttpsHref, isAppUrl } from './shell/app-url'
import type { DeepLink } from './shell/deep-link'
import { DEEP_LINK_SCHEME, deepLinkFromArgv, deepLinkHash, parseDeepLink } from './shell/deep-link'
import { APP_ID, SMOKE_SWITCH } from './shell/app-identity'
import { createDesktopIntegration } from './shell/desktop'
import { registerBridgeIpc, sendBridgeEvent } from './shell/ipc'
import { installMenu } from './shell/menu'
import { closeWithin, QUIT_LIMIT_MS } from './shell/quit'
import { installSandboxLauncher } from './shell/sandbox-launcher'
import { SMOKE_FAILED, SMOKE_LIMIT_MS, SMOKE_OK, smokeCheck } from './shell/smoke'
import { createSystemProxyResolver } from './shell/system-proxy'
import { describeSystemTrust, readSystemTrust } from './shell/trust-report'
import { createMainWindow, loadAppPage } from './shell/window'
import type { WindowFailure } from './shell/window-failures'
import { failureDialog } from './shell/window-failures'
import { windowStateFile } from './shell/window-state'

/*
 * The Electron entry, kept thin: the desk (plain Node, shared with web mode) does the work; this
 * file opens one window, wires the IPC transport and shuts both down in order.
 */

const devServerUrl = process.env['ELECTRON_RENDERER_URL']
const location: AppLocation = devServerUrl
  ? { kind: 'dev-server', url: devServerUrl }
  : { kind: 'file', indexHtml: fileURLToPath(new URL('../renderer/index.html', import.meta.url)) }
const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url))
const iconPath = fileURLToPath(new URL('../../resources/icon.png', import.meta.url))

let mainWindow: BrowserWindow | null = null
/** The core: it opens behind the window (calls made meanwhile wait for it). */
let deskOpening: Promise<Desk> | null = null
let shuttingDown = false
/** A deep link that arrived before the window was there (cold start, early macOS open-url). */
let pendingLink: DeepLink | null = deepLinkFromArgv(process.argv)
/** `--smoke` (shell/smoke.ts): a scripted first start on a throwaway data folder. */
const smoke = process.argv.includes(SMOKE_SWITCH)
const smokeDataDir = smoke ? mkdtempSync(path.join(os.tmpdir(), 'infradesk-smoke-')) : null

// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox()
// Windows attributes toasts and taskbar pins by this id: the one the installer's shortcuts carry.
if (process.platform === 'win32') app.setAppUserModelId(APP_ID)
// Before the single-instance lock, which lives in the data folder: a smoke run is its own instance.
if (smokeDataDir !== null) app.setPath('userData', smokeDataDir)

if (!app.requestSingleInstanceLock()) {
  // Another Infradesk owns the profile store and the cache: hand over to it and leave.
  app.quit()
} else {
  app.on('second-instance', (_event, argv) => {
    // A second launch (a link clicked while we run, on Windows and Linux) comes here instead.
    if (shuttingDown) {
      // This process is on its way out and has no window to show; the new launch has already
      // left. Started again once this one is gone, with what that launch was given (its link).
      app.relaunch({ args: argv.slice(1) })
      return
    }
    const link = deepLinkFromArgv(argv)
    if (link) openDeepLink(link)
    else showWindow()
  })
  // macOS delivers links as open-url, possibly before the app is ready.
  app.on('open-url', (event, url) => {
    event.preventDefault()
    const link = parseDeepLink(url)
    if (link) openDeepLink(link)
  })
  app.on('web-contents-created', (_event, contents) => {
    // A second line of defence for any web contents, including ones we did not create.
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(() => ({ action: 'deny' }))
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(location, url)) event.preventDefault()
    })
  })
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => fatal(error))
}

async function openExternal(url: string): Promise<void> {
  const href = externalHttpsHref(url)
  if (href === null) throw new Error('Only https links are opened')
  // electronegativity: OPEN_EXTERNAL_JS_CHECK — the one call to shell.openExternal: the line
  // above lets only a parsed https: URL through (no file:, smb:, custom schemes, javascript:),
  // and it is the parsed form that is opened, never the string given.
  await shell.openExternal(href)
}

async function start() {
  installMenu({ isDev: Boolean(devServerUrl) })
  installSandboxLauncher()
  registerDevelopmentDeepLinkScheme()
  // The window loads its page while the core opens (deferredEndpoint): the first bridge calls
  // wait for it instead of the window waiting for the whole core before it is even created.
  deskOpening = openDesk()
  registerBridgeIpc({ desk: deferredEndpoint(deskOpening), location, window: () => mainWindow })
  openWindow()
  if (smoke) runSmokeCheck()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
  const desk = await deskOpening
  // After the core, off the window's path: reading the OS store parses hundreds of certificates.
  setImmediate(() => console.info(describeSystemTrust(readSystemTrust())))
  await followThemeSetting(desk)
}

/** The main-process core, loaded on demand so that loading it does not delay the window. */
async function openDesk(): Promise<Desk> {
  const { createDesk } = await import('./desk')
  return createDesk({
    dataDir: app.getPath('userData'),
    mode: 'desktop',
    openExternal,
    desktop: createDesktopIntegration({ window: () => mainWindow }),
    systemProxy: createSystemProxyResolver(),
    version: app.getVersion(),
  })
}

function openWindow() {
  const link = pendingLink
  pendingLink = null
  mainWindow = createMainWindow({
    location,
    preloadPath,
    stateFile: windowStateFile(app.getPath('userData')),
    iconPath: existsSync(iconPath) ? iconPath : undefined,
    ...(link ? { initialHash: deepLinkHash(link) } : {}),
    openExternal,
    onFailure: smoke ? (failure) => smokeFailed(describeFailure(failure)) : showFailure,
  })
  mainWindow.on('closed', () => {
    mainWindow = null
  })
}

/**
 * The window's frame, menus and native dialogs follow Settings → Theme too ("system" leaves
 * them to the OS); the page itself follows through `color-scheme` (renderer app/theme.ts).
 */
async function followThemeSetting(endpoint: Desk) {
  const apply = (theme: unknown) => {
    if (theme === 'system' || theme === 'light' || theme === 'dark') nativeTheme.themeSource = theme
  }
  const current = await endpoint.dispatch('settings.get', {})
  if (current.ok) apply((current.value as { theme?: unknown }).theme)
  endpoint.onEvent((event, payload) => {
    if (event === 'settings.changed') apply((payload as { theme?: unknown }).theme)
  })
}

/** The window's failures, shown to the user with a way out (shell/window-failures.ts). */
const showFailure = failureDialog(
  () => mainWindow,
  () => {
    if (mainWindow && !mainWindow.isDestroyed()) loadAppPage(mainWindow, location)
  },
)

function describeFailure(failure: WindowFailure): string {
  return `${failure.message} ${failure.detail}`
}

/**
 * infradesk:// in development (`electron .`) only. The packaged app's installers declare the
 * scheme (electron-builder.yml: the deb's desktop entry, the dmg's Info.plist, the NSIS include),
 * so a packaged launch registers nothing: on Linux registering runs xdg-settings, a process, at
 * every start, and it would name a desktop entry the installed app may not have.
 */
function registerDevelopmentDeepLinkScheme() {
  if (!process.defaultApp || process.argv[1] === undefined || smoke) return
  // `electron .`: the OS must start Electron with our entry script.
  // electronegativity: PROTOCOL_HANDLER_JS_CHECK — registers infradesk:// for this app only; a
  // link is parsed strictly (shell/deep-link.ts) and only opens a dialog prefilled, never sends.
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [
    path.resolve(process.argv[1]),
  ])
}

/** Brings the window forward, opening one when there is none (all closed on macOS, say). */
function showWindow() {
  if (!mainWindow || mainWindow.isDestroyed()) {
    if (app.isReady() && deskOpening) openWindow()
    return
  }
  if (mainWindow.isMinimized()) mainWindow.restore()
  mainWindow.focus()
}

/**
 * Shows what a link asks for: in the open window through the bridge's event (the renderer
 * navigates, keeping its state), or as the first route of a window still to be opened.
 */
function openDeepLink(link: DeepLink) {
  const window = mainWindow
  if (!window || window.isDestroyed()) {
    // Not ready yet: the window opens on the link's route (see openWindow).
    pendingLink = link
    if (app.isReady() && deskOpening) openWindow()
    return
  }
  if (window.webContents.isLoading() || !isAppUrl(location, window.webContents.getURL())) {
    // The page is not listening yet: load it again straight at the link's route.
    loadAppPage(window, location, deepLinkHash(link))
  } else {
    // The same framing as every bridge event (shell/ipc.ts): event name, payload as JSON.
    sendBridgeEvent(window, 'migrations.openResolve', { id: link.id })
  }
  showWindow()
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

// Close the desk (SQLite, the embedded sandbox) before the process goes away, in bounded time
// (shell/quit.ts): a request that hangs must not keep a windowless process alive.
app.on('will-quit', (event) => {
  if (shuttingDown || !deskOpening) return
  event.preventDefault()
  shuttingDown = true
  // A desk still opening is waited for, then closed like an open one.
  const closing = deskOpening
  deskOpening = null
  void closeWithin(() => closing.then((opened) => opened.close())).then((outcome) => {
    if (outcome !== 'timed-out') {
      app.quit()
      return
    }
    console.error(`Infradesk: the core did not close within ${QUIT_LIMIT_MS} ms; leaving anyway`)
    app.exit(0)
  })
})

app.on('quit', () => {
  if (smokeDataDir !== null) rmSync(smokeDataDir, { recursive: true, force: true })
})

/** `--smoke`: app.info through the preload, one line printed, then the normal quit. */
function runSmokeCheck() {
  const window = mainWindow
  if (!window) return smokeFailed('no window was opened')
  const limit = setTimeout(
    () => smokeFailed(`no answer within ${SMOKE_LIMIT_MS} ms`),
    SMOKE_LIMIT_MS,
  )
  smokeCheck(window.webContents).then(
    (facts) => {
      clearTimeout(limit)
      const trust = readSystemTrust()
      const report = { ...facts, systemCas: trust.count, systemCaProblem: trust.problem }
      console.log(`${SMOKE_OK} ${JSON.stringify(report)}`)
      app.quit()
    },
    (error: unknown) => smokeFailed(error instanceof Error ? error.message : String(error)),
  )
}

function smokeFailed(reason: string) {
  console.error(`${SMOKE_FAILED} ${reason}`)
  app.exit(1)
}

/**
 * A start that failed (the cache would not open, the data folder is not writable, ...) is said
 * in a dialog: a packaged app has no terminal to read a log line from. showErrorBox is safe before
 * ready (on Linux it then writes to stderr) and returns when the user has read it.
 */
function fatal(error: unknown) {
  // No token is ever part of a startup error; the message says what failed to open.
  const reason = error instanceof Error ? error.message : String(error)
  console.error('Infradesk could not start:', reason)
  if (smoke) return smokeFailed(`could not start: ${reason}`)
  dialog.showErrorBox(
    'Infradesk could not start',
    `${reason}\n\nData folder: ${app.getPath('userData')}`,
  )
  app.exit(1)
}
