import { BrowserWindow, screen } from 'electron'
import type { Session, WebContents } from 'electron'
import { appEntryUrl, externalHttpsHref, isAppUrl } from './app-url'
import type { AppLocation } from './app-url'
import { lockDownSession } from './session-policy'
import { watchWindowFailures } from './window-failures'
import type { WindowFailure } from './window-failures'
import { loadWindowState, placeOnScreen, saveWindowState } from './window-state'

export interface MainWindowOptions {
  location: AppLocation
  preloadPath: string
  stateFile: string
  iconPath?: string
  /** A route to open at (`#/migrations?id=…`, from a deep link the app was started with). */
  initialHash?: string
  openExternal(url: string): Promise<void>
  /** What the user is shown when the page fails to load, its preload fails or it crashes. */
  onFailure(failure: WindowFailure): void
}

/** How long after the last move or resize the window's place is written down. */
const SAVE_DELAY_MS = 500

/** The production policy; the dev server also needs inline scripts and a websocket for HMR. */
const PRODUCTION_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')
const DEV_SERVER_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "connect-src 'self' ws: wss:",
  "img-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ')

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const remembered = loadWindowState(options.stateFile)
  const state = placeOnScreen(
    remembered,
    screen.getAllDisplays().map((display) => display.workArea),
  )
  const window = new BrowserWindow({
    x: state.x,
    y: state.y,
    width: state.width,
    height: state.height,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'Infradesk',
    icon: options.iconPath,
    backgroundColor: '#0f172a',
    webPreferences: {
      // electronegativity: PRELOAD_JS_CHECK — our own preload (src/preload/index.ts), bundled,
      // run sandboxed and context-isolated; it exposes two functions (invoke, subscribe) and
      // never ipcRenderer itself; main validates the channel and the input of every call.
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      // A middle click on a link would ask for a new window; the window-open handler already
      // denies every one, and without the auxclick event a page cannot even try.
      disableBlinkFeatures: 'Auxclick',
    },
  })
  if (state.maximized) window.maximize()
  window.once('ready-to-show', () => window.show())

  lockDownSession(window.webContents.session, options.location)
  installContentSecurityPolicy(window.webContents.session, options.location)
  guardNavigation(window.webContents, options)
  rememberPlace(window, options.stateFile)
  watchWindowFailures(window, options.onFailure)

  loadAppPage(window, options.location, options.initialHash)
  return window
}

/**
 * Loads the app's page (at a route, for a deep link). A failed load is reported by the window's
 * did-fail-load (shell/window-failures.ts); the promise's rejection is only logged here, so that
 * it is never an unhandled one. ERR_ABORTED, a load replaced by the next, is no failure.
 */
export function loadAppPage(window: BrowserWindow, location: AppLocation, hash = ''): void {
  window.loadURL(`${appEntryUrl(location)}${hash}`).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    if (!message.includes('ERR_ABORTED')) console.error(`Infradesk window: ${message}`)
  })
}

/**
 * Sent as a response header so it covers every response the window's session gets (the dev
 * server's pages and scripts). Pages read from file:// have no response headers to amend:
 * there the CSP meta tag of index.html carries the same policy.
 */
function installContentSecurityPolicy(session: Session, location: AppLocation) {
  const policy = location.kind === 'dev-server' ? DEV_SERVER_CSP : PRODUCTION_CSP
  // The window's session loads nothing but the app, so every response gets the policy.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [policy],
        'X-Content-Type-Options': ['nosniff'],
      },
    })
  })
}

/**
 * The window only ever shows the app: navigation elsewhere is stopped, new windows are denied,
 * and an https link a user clicks goes to the system browser instead.
 */
function guardNavigation(contents: WebContents, options: MainWindowOptions) {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(options.location, url)) event.preventDefault()
  })
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(options.location, url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    // electronegativity: OPEN_EXTERNAL_JS_CHECK — https only, the parsed URL passed on, and
    // options.openExternal (src/main/index.ts) checks again before the system browser.
    const href = externalHttpsHref(url)
    if (href !== null) void options.openExternal(href).catch(() => undefined)
    return { action: 'deny' }
  })
}

function rememberPlace(window: BrowserWindow, stateFile: string) {
  let timer: NodeJS.Timeout | undefined
  const save = () => {
    if (window.isDestroyed() || window.isMinimized()) return
    const maximized = window.isMaximized()
    // A maximised window keeps the size it will return to, not the size of the screen.
    const bounds = maximized ? window.getNormalBounds() : window.getBounds()
    try {
      saveWindowState(stateFile, { ...bounds, maximized })
    } catch {
      // A read-only profile folder only costs the remembered place.
    }
  }
  const saveSoon = () => {
    clearTimeout(timer)
    timer = setTimeout(save, SAVE_DELAY_MS)
  }
  window.on('resize', saveSoon)
  window.on('move', saveSoon)
  window.on('close', () => {
    clearTimeout(timer)
    save()
  })
}
