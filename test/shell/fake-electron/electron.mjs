// A recording stand-in for the `electron` module, for running the BUILT main process
// (out/main/index.js) in plain Node: the Electron binary cannot be downloaded on our machines.
// It is loaded in place of `electron` by register.mjs (a module resolve hook) in a child process
// of its own (drive.mjs). What it fakes is Electron's side only: the desk, SQLite, the keychain,
// the preload and the page's bridge calls are the real built code.
//
// Each BrowserWindow's page "loads" by running the window's real preload (its webPreferences
// path, out/preload/index.cjs) against a fake ipcRenderer wired to the handlers main registered
// on ipcMain, with the sender facts Electron would give (the window's main frame, the loaded URL):
// so a bridge call from the page goes preload -> IPC -> sender check -> real desk -> back.
import { EventEmitter } from 'node:events'
import { readFileSync } from 'node:fs'

/** Everything recorded, shared with drive.mjs. */
export const record = (globalThis.__fakeElectron ??= {
  /** Ordered calls: { what, args }. `ready` is logged when the driver emits it. */
  log: [],
  windows: [],
  handlers: new Map(),
  /** userData, downloads, ...: set by the driver. */
  paths: {},
  /** The answer index the next showMessageBox resolves with. */
  nextDialogResponse: 0,
})

function note(what, ...args) {
  record.log.push({ what, args })
}

class FakeApp extends EventEmitter {
  #ready = false
  #resolveReady = () => undefined
  #readyPromise = new Promise((resolve) => {
    this.#resolveReady = resolve
  })
  enableSandbox() {
    note('app.enableSandbox')
  }
  setAppUserModelId(id) {
    note('app.setAppUserModelId', id)
  }
  requestSingleInstanceLock() {
    note('app.requestSingleInstanceLock')
    return true
  }
  setAsDefaultProtocolClient(...args) {
    note('app.setAsDefaultProtocolClient', ...args)
    return true
  }
  isDefaultProtocolClient() {
    return false
  }
  whenReady() {
    return this.#readyPromise
  }
  isReady() {
    return this.#ready
  }
  /** The driver's: what Electron does when it is ready. */
  emitReady() {
    this.#ready = true
    note('ready')
    this.emit('ready')
    this.#resolveReady()
  }
  getPath(name) {
    const value = record.paths[name]
    if (value === undefined) throw new Error(`fake electron: no path for ${name}`)
    return value
  }
  setPath(name, value) {
    note('app.setPath', name, value)
    record.paths[name] = value
  }
  getVersion() {
    return '0.0.0-fake'
  }
  getName() {
    return 'Infradesk'
  }
  quit() {
    note('app.quit')
  }
  exit(code = 0) {
    note('app.exit', code)
  }
  relaunch(options) {
    note('app.relaunch', options)
  }
}

export const app = new FakeApp()

function fakeSession() {
  const session = new EventEmitter()
  session.setPermissionRequestHandler = () => undefined
  session.setPermissionCheckHandler = () => undefined
  session.setDevicePermissionHandler = () => undefined
  session.setDisplayMediaRequestHandler = () => undefined
  session.webRequest = { onHeadersReceived: () => undefined }
  session.resolveProxy = async () => 'DIRECT'
  return session
}

let nextProcessId = 100

class FakeWebContents extends EventEmitter {
  session = fakeSession()
  #url = ''
  #loading = false
  #destroyed = false
  /** The page's `window`: what the preload exposed on it. */
  page = {}
  /** The page's listeners on ipcRenderer, by channel. */
  #rendererListeners = new Map()

  constructor(window, preloadPath) {
    super()
    this.window = window
    this.preloadPath = preloadPath
    this.mainFrame = { processId: nextProcessId++, routingId: 1 }
  }
  get id() {
    return this.mainFrame.processId
  }
  loadURL(url) {
    note('webContents.loadURL', url)
    this.#url = url
    this.#loading = true
    this.page = {}
    this.#rendererListeners.clear()
    return new Promise((resolve) => {
      setImmediate(() => {
        this.#runPreload()
        this.#loading = false
        this.emit('did-finish-load')
        this.window.emit('ready-to-show')
        resolve()
      })
    })
  }
  getURL() {
    return this.#url
  }
  isLoading() {
    return this.#loading
  }
  isDestroyed() {
    return this.#destroyed
  }
  destroy() {
    this.#destroyed = true
  }
  reload() {
    note('webContents.reload')
  }
  setWindowOpenHandler() {}
  /** Electron sends with a structured clone: what cannot be cloned throws here as there. */
  send(channel, ...args) {
    note('webContents.send', channel, ...args)
    const cloned = structuredClone(args)
    for (const listener of this.#rendererListeners.get(channel) ?? []) {
      listener({ sender: null }, ...cloned)
    }
  }
  /** Runs in the page: the code sees the page's `window` (what the preload exposed). */
  async executeJavaScript(code) {
    note('webContents.executeJavaScript', code)
    return new Function('window', `return (${code})`)(this.page)
  }

  /** The real preload file, run as Electron runs a sandboxed preload: CommonJS, `electron` only. */
  #runPreload() {
    if (!this.preloadPath) return
    const ipcRenderer = {
      invoke: async (channel, ...args) => {
        const handler = record.handlers.get(channel)
        if (!handler) throw new Error(`No handler registered for '${channel}'`)
        const frame = {
          url: this.getURL(),
          processId: this.mainFrame.processId,
          routingId: this.mainFrame.routingId,
          parent: null,
        }
        // Electron clones both ways; an answer that cannot be cloned rejects the call.
        const answer = await handler({ sender: this, senderFrame: frame }, ...structuredClone(args))
        return structuredClone(answer)
      },
      on: (channel, listener) => {
        const listeners = this.#rendererListeners.get(channel) ?? []
        this.#rendererListeners.set(channel, [...listeners, listener])
      },
      removeListener: (channel, listener) => {
        const listeners = this.#rendererListeners.get(channel) ?? []
        this.#rendererListeners.set(
          channel,
          listeners.filter((it) => it !== listener),
        )
      },
    }
    const contextBridge = {
      exposeInMainWorld: (name, value) => {
        note('contextBridge.exposeInMainWorld', name)
        this.page[name] = value
      },
    }
    const source = readFileSync(this.preloadPath, 'utf8')
    const module = { exports: {} }
    const requireElectronOnly = (name) => {
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`)
      return { ipcRenderer, contextBridge }
    }
    new Function('require', 'module', 'exports', source)(
      requireElectronOnly,
      module,
      module.exports,
    )
  }
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return record.windows.filter((window) => !window.isDestroyed())
  }
  #destroyed = false
  #visible = false
  constructor(options) {
    super()
    this.options = options
    note('new BrowserWindow', options)
    this.webContents = new FakeWebContents(this, options?.webPreferences?.preload)
    record.windows.push(this)
  }
  loadURL(url) {
    return this.webContents.loadURL(url)
  }
  show() {
    this.#visible = true
    note('window.show')
  }
  isVisible() {
    return this.#visible
  }
  maximize() {}
  isMaximized() {
    return false
  }
  isMinimized() {
    return false
  }
  restore() {}
  focus() {
    note('window.focus')
  }
  getBounds() {
    return { x: 0, y: 0, width: 1280, height: 820 }
  }
  getNormalBounds() {
    return this.getBounds()
  }
  isDestroyed() {
    return this.#destroyed
  }
  /** What Electron does when the user closes the window. */
  close() {
    this.emit('close', { preventDefault() {} })
    this.#destroyed = true
    this.webContents.destroy()
    this.emit('closed')
  }
}

export const ipcMain = {
  handle(channel, handler) {
    note('ipcMain.handle', channel)
    record.handlers.set(channel, handler)
  },
  removeHandler(channel) {
    record.handlers.delete(channel)
  },
}

export const dialog = {
  showErrorBox(title, content) {
    note('dialog.showErrorBox', title, content)
  },
  async showMessageBox(...args) {
    const options = args.length > 1 ? args[1] : args[0]
    note('dialog.showMessageBox', options)
    return { response: record.nextDialogResponse, checkboxChecked: false }
  },
  async showSaveDialog() {
    return { canceled: true }
  },
  async showOpenDialog() {
    return { canceled: true, filePaths: [] }
  },
}

export const screen = {
  getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
}

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  setApplicationMenu: () => note('Menu.setApplicationMenu'),
}

export const nativeTheme = { themeSource: 'system' }

export const shell = {
  openExternal: async (url) => note('shell.openExternal', url),
  showItemInFolder: (file) => note('shell.showItemInFolder', file),
  openPath: async () => '',
}

export class Notification extends EventEmitter {
  static isSupported() {
    return true
  }
  constructor(options) {
    super()
    this.options = options
  }
  show() {
    note('Notification.show', this.options)
  }
}

export const powerMonitor = new EventEmitter()

export const session = { defaultSession: fakeSession() }

export const protocol = {
  handle: (scheme) => note('protocol.handle', scheme),
  registerSchemesAsPrivileged: () => undefined,
}

export const utilityProcess = {
  fork(modulePath) {
    note('utilityProcess.fork', modulePath)
    throw new Error('fake electron: the embedded sandbox is not started in this test')
  },
}

export default {
  app,
  BrowserWindow,
  ipcMain,
  dialog,
  screen,
  Menu,
  nativeTheme,
  shell,
  Notification,
  powerMonitor,
  session,
  protocol,
  utilityProcess,
}
