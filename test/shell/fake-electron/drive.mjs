// Runs the BUILT main process (out/main/index.js) under the recording stand-in for `electron`
// (electron.mjs, mapped by register.mjs) through one scenario, as Electron would drive it, and
// prints one line `RESULT <json>` with what happened. test/build/fake-electron.test.ts starts it:
//   node --import ./register.mjs ./drive.mjs <desktop|fatal|smoke> <dataFolder>
// Run under scripts/with-keyring.mjs: the desk it starts is the real one (SQLite, keychain).
import { mkdirSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, record } from 'electron'

const [scenario, dataFolder] = process.argv.slice(2)
const repoRoot = path.resolve(import.meta.dirname, '../../..')
const mainEntry = pathToFileURL(path.join(repoRoot, 'out/main/index.js')).href
const IPC_INVOKE_CHANNEL = 'infradesk:invoke'
const MIGRATION = '7d1c1b0e-4f7b-4d84-9d43-2f1f3c6f9a10'
const OTHER_MIGRATION = '0b7e4a52-7a57-46a2-b5a8-9a5d1b6c2e31'
const link = (id) => `infradesk://migrations/${id}/resolve`

const result = { scenario }
mkdirSync(dataFolder, { recursive: true })

/** Waits for a condition the app reaches on its own; fails the scenario with `what` if it never does. */
async function until(what, condition, limitMs = 30_000) {
  const deadline = Date.now() + limitMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/**
 * One step of a scenario: a step that fails is noted (result.failedSteps) and the next one still
 * runs, so that each finding fails its own test, not every test after the first failure.
 */
async function step(name, run) {
  try {
    await run()
  } catch (error) {
    result.failedSteps ??= {}
    result.failedSteps[name] = error instanceof Error ? error.message : String(error)
  }
}

const calls = (what) => record.log.filter((entry) => entry.what === what)
const pageReady = (window) =>
  window !== undefined && !window.webContents.isLoading() && window.webContents.page.infradesk

/** Imports the built entry; `platform` is what process.platform says while its top level runs. */
async function startMain(platform = process.platform) {
  const real = process.platform
  Object.defineProperty(process, 'platform', { value: platform, configurable: true })
  try {
    await import(mainEntry)
  } finally {
    Object.defineProperty(process, 'platform', { value: real, configurable: true })
  }
}

function setPaths(userData) {
  record.paths.userData = userData
  record.paths.downloads = path.join(dataFolder, 'downloads')
  record.paths.temp = os.tmpdir()
  record.paths.home = dataFolder
}

async function desktop() {
  setPaths(path.join(dataFolder, 'userData'))
  await startMain('win32')
  app.emitReady()
  await until('the first window loads with the preload', () => pageReady(record.windows[0]))
  const window = record.windows[0]
  const page = window.webContents.page
  result.order = record.log.map((entry) => entry.what)
  result.appUserModelIds = calls('app.setAppUserModelId').map((entry) => entry.args[0])
  result.protocolRegistrations = calls('app.setAsDefaultProtocolClient').length
  result.webPreferences = window.options.webPreferences
  result.firstUrl = window.webContents.getURL()
  result.exposed = calls('contextBridge.exposeInMainWorld').map((entry) => entry.args[0])

  await step('bridge', async () => {
    // A bridge call as the page makes it: preload -> IPC -> sender check -> the real desk.
    result.appInfo = JSON.parse(await page.infradesk.invoke('app.info', {}))
    // The same channel from a frame that is not our page.
    const handler = record.handlers.get(IPC_INVOKE_CHANNEL)
    const foreign = await handler(
      {
        sender: window.webContents,
        senderFrame: { url: 'https://evil.test/', ...window.webContents.mainFrame, parent: null },
      },
      'app.info',
      {},
    )
    result.foreign = foreign instanceof Uint8Array ? JSON.parse(Buffer.from(foreign)) : foreign
  })

  await step('deep link', async () => {
    // A link clicked while the window is open: delivered to the page as a bridge event.
    const received = []
    page.infradesk.subscribe((name, payload) => received.push({ name, payload }))
    app.emit('second-instance', {}, [process.execPath, link(MIGRATION)], repoRoot)
    await until('the deep link reaches the page', () => received.length > 0)
    result.deepLinkEvent = received[0]
  })

  await step('failures', async () => {
    // Failures of the page are shown: a failed load (the dialog's first button reloads), a crash,
    // a preload that failed (its only button quits).
    const loadsBefore = calls('webContents.loadURL').length
    record.nextDialogResponse = 0
    window.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', result.firstUrl, true)
    await until('the page is loaded again', () => calls('webContents.loadURL').length > loadsBefore)
    await until('the reloaded page is ready', () => pageReady(window))
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 11 })
    await until('the crash is shown', () => calls('dialog.showMessageBox').length === 2)
    await new Promise((resolve) => setImmediate(resolve))
    const quitsBefore = calls('app.quit').length
    window.webContents.emit(
      'preload-error',
      {},
      '/broken/preload.cjs',
      new Error('Unexpected token'),
    )
    await until('the preload failure is shown', () => calls('dialog.showMessageBox').length === 3)
    await until('its Quit is followed', () => calls('app.quit').length > quitsBefore)
    result.dialogs = calls('dialog.showMessageBox').map((entry) => entry.args[0])
    result.shownAfterFailure = calls('window.show').length > 0
    // Aborted loads (a load replaced by the next) are no failure.
    window.webContents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', result.firstUrl, true)
  })

  await step('second launch', async () => {
    // The window closed (macOS keeps the app running): a second launch opens one.
    window.close()
    app.emit('second-instance', {}, [process.execPath], repoRoot)
    await until('a window opens for a second launch', () => pageReady(record.windows[1]))
    // Closed again, and a link arrives: the new window opens at the link's route.
    record.windows[1].close()
    app.emit('second-instance', {}, [process.execPath, link(OTHER_MIGRATION)], repoRoot)
    await until('a window opens for a link', () => pageReady(record.windows[2]))
    result.windowsOpened = record.windows.length
    result.linkWindowUrl = record.windows[2].webContents.getURL()
  })

  await step('quit', async () => {
    // Quitting while a request hangs on a server that stopped answering.
    let requestOpen = false
    const server = net.createServer((socket) => {
      requestOpen = true
      socket.on('close', () => {
        requestOpen = false
      })
    })
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address()
    // A window to call from (macOS's activate opens one if the steps before left none).
    if (BrowserWindow.getAllWindows().length === 0) app.emit('activate')
    await until('a window is open', () => pageReady(BrowserWindow.getAllWindows().at(-1)))
    const page = BrowserWindow.getAllWindows().at(-1).webContents.page
    const hanging = page.infradesk.invoke('profiles.add', {
      name: 'Stalled',
      baseUrl: `http://127.0.0.1:${port}`,
      color: '#16a34a',
      protected: false,
      token: 't'.repeat(40),
      sessionOnly: true,
    })
    let requestSettled = false
    void hanging.finally(() => {
      requestSettled = true
    })
    await until('the request reaches the stalled server', () => requestOpen)
    const logBefore = record.log.length
    let prevented = false
    app.emit('will-quit', {
      preventDefault() {
        prevented = true
      },
    })
    // A relaunch with a link while this process is on its way out.
    app.emit('second-instance', {}, [process.execPath, link(MIGRATION)], repoRoot)
    await until(
      'the app leaves',
      () =>
        record.log
          .slice(logBefore)
          .some((entry) => entry.what === 'app.exit' || entry.what === 'app.quit'),
      60_000,
    )
    const after = record.log.slice(logBefore)
    result.quit = {
      prevented,
      // The call ends only by the client's own timeout (30 s): still pending means the quit did
      // not wait for it.
      callStillPendingWhenLeaving: !requestSettled,
      leftBy: after.find((entry) => entry.what === 'app.exit' || entry.what === 'app.quit'),
      relaunch: after.find((entry) => entry.what === 'app.relaunch')?.args[0] ?? null,
    }
    server.close()
  })
}

async function fatal() {
  // The data folder cannot be made: its parent is a file.
  const blocker = path.join(dataFolder, 'not-a-folder')
  writeFileSync(blocker, 'a file where the data folder should be')
  setPaths(path.join(blocker, 'userData'))
  await startMain()
  app.emitReady()
  await until('the app leaves', () => calls('app.exit').length > 0)
  result.errorBoxes = calls('dialog.showErrorBox').map((entry) => entry.args)
  result.exitCodes = calls('app.exit').map((entry) => entry.args[0])
}

async function smoke() {
  setPaths(path.join(dataFolder, 'userData'))
  process.argv.push('--smoke')
  await startMain()
  app.emitReady()
  await until(
    'the smoke check ends',
    () => calls('app.quit').length + calls('app.exit').length > 0,
    60_000,
  )
  result.userData = record.paths.userData
  result.ended = record.log.find((entry) => entry.what === 'app.quit' || entry.what === 'app.exit')
  result.ranInPage = calls('webContents.executeJavaScript').length
}

const scenarios = { desktop, fatal, smoke }
try {
  await scenarios[scenario]()
} catch (error) {
  result.error = error instanceof Error ? error.message : String(error)
}
process.stdout.write(`\nRESULT ${JSON.stringify(result)}\n`)
process.exit(0)
