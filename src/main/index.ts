import { app, BrowserWindow, nativeTheme, shell } from 'electron'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { deferredEndpoint } from './bridge/deferred-endpoint'
import type { Desk } from './desk'
import type { AppLocation } from './shell/app-url'
import { appEntryUrl, externalHttpsHref, isAppUrl } from './shell/app-url'
import type { DeepLink } from './shell/deep-link'
import { DEEP_LINK_SCHEME, deepLinkFromArgv, deepLinkHash, parseDeepLink } from './shell/deep-link'
import { IPC_EVENT_CHANNEL } from '../shared/bridge/ipc-names'
import { createDesktopIntegration } from './shell/desktop'
import { registerBridgeIpc } from './shell/ipc'
import { installMenu } from './shell/menu'
import { installSandboxLauncher } from './shell/sandbox-launcher'
import { createSystemProxyResolver } from './shell/system-proxy'
import { createMainWindow } from './shell/window'
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

// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox()

if (!app.requestSingleInstanceLock()) {
  // Another Infradesk owns the profile store and the cache: hand over to it and leave.
  app.quit()
} else {
  registerDeepLinkScheme()
  app.on('second-instance', (_event, argv) => {
    // A second launch (a link clicked while we run, on Windows and Linux) comes here instead.
    const link = deepLinkFromArgv(argv)
    if (link) openDeepLink(link)
    else focusWindow()
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
  // The window loads its page while the core opens (deferredEndpoint): the first bridge calls
  // wait for it instead of the window waiting for the whole core before it is even created.
  deskOpening = openDesk()
  registerBridgeIpc({ desk: deferredEndpoint(deskOpening), location, window: () => mainWindow })
  openWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
  await followThemeSetting(await deskOpening)
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

/** infradesk:// opens this app (the packaged app also declares it: electron-builder.yml). */
function registerDeepLinkScheme() {
  if (process.defaultApp && process.argv[1] !== undefined) {
    // `electron .` in development: the OS must start Electron with our entry script.
    // electronegativity: PROTOCOL_HANDLER_JS_CHECK — registers infradesk:// for this app only; a
    // link is parsed strictly (shell/deep-link.ts) and only opens a dialog prefilled, never sends.
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [
      path.resolve(process.argv[1]),
    ])
  } else {
    // electronegativity: PROTOCOL_HANDLER_JS_CHECK — as above: strict parse, prefill only.
    app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME)
  }
}

function focusWindow() {
  if (!mainWindow) return
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
    void window.loadURL(`${appEntryUrl(location)}${deepLinkHash(link)}`)
  } else {
    // The same framing as every bridge event (shell/ipc.ts): event name, payload.
    window.webContents.send(IPC_EVENT_CHANNEL, 'migrations.openResolve', { id: link.id })
  }
  focusWindow()
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

// Close the desk (SQLite, the embedded sandbox) before the process goes away.
app.on('will-quit', (event) => {
  if (shuttingDown || !deskOpening) return
  event.preventDefault()
  shuttingDown = true
  // A desk still opening is waited for, then closed like an open one.
  const closing = deskOpening
  deskOpening = null
  closing
    .then((opened) => opened.close())
    .catch(() => undefined)
    .finally(() => app.quit())
})

function fatal(error: unknown) {
  // No token is ever part of a startup error; the message says what failed to open.
  console.error('Infradesk could not start:', error instanceof Error ? error.message : error)
  app.exit(1)
}
