import { app, BrowserWindow, shell } from 'electron'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createDesk } from './desk'
import type { Desk } from './desk'
import type { AppLocation } from './shell/app-url'
import { createDesktopIntegration } from './shell/desktop'
import { isExternalHttps } from './shell/app-url'
import { registerBridgeIpc } from './shell/ipc'
import { installMenu } from './shell/menu'
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
let desk: Desk | null = null
let shuttingDown = false

// Every renderer sandboxed, whatever a window's options say.
app.enableSandbox()

if (!app.requestSingleInstanceLock()) {
  // Another Infradesk owns the profile store and the cache: hand over to it and leave.
  app.quit()
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  app.on('web-contents-created', (_event, contents) => {
    // A second line of defence for any web contents, including ones we did not create.
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  })
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => fatal(error))
}

async function openExternal(url: string): Promise<void> {
  if (!isExternalHttps(url)) throw new Error('Only https links are opened')
  await shell.openExternal(url)
}

async function start() {
  desk = await createDesk({
    dataDir: app.getPath('userData'),
    mode: 'desktop',
    openExternal,
    desktop: createDesktopIntegration({ window: () => mainWindow }),
    version: app.getVersion(),
  })
  installMenu({ isDev: Boolean(devServerUrl) })
  registerBridgeIpc({ desk, location, window: () => mainWindow })
  openWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
}

function openWindow() {
  mainWindow = createMainWindow({
    location,
    preloadPath,
    stateFile: windowStateFile(app.getPath('userData')),
    iconPath: existsSync(iconPath) ? iconPath : undefined,
    openExternal,
  })
  mainWindow.on('closed', () => {
    mainWindow = null
  })
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

// Close the desk (SQLite, the embedded sandbox) before the process goes away.
app.on('will-quit', (event) => {
  if (shuttingDown || !desk) return
  event.preventDefault()
  shuttingDown = true
  const closing = desk
  desk = null
  closing
    .close()
    .catch(() => undefined)
    .finally(() => app.quit())
})

function fatal(error: unknown) {
  // No token is ever part of a startup error; the message says what failed to open.
  console.error('Infradesk could not start:', error instanceof Error ? error.message : error)
  app.exit(1)
}
