import { ipcMain } from 'electron'
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron'
import { fail, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/bridge'
import type { Result } from '../../shared/bridge'
import type { BridgeEndpoint } from '../web/host'
import { isAppUrl } from './app-url'
import type { AppLocation } from './app-url'

export interface BridgeIpcOptions {
  desk: BridgeEndpoint
  location: AppLocation
  /** The app's window, or null while none is open. */
  window(): BrowserWindow | null
}

/**
 * The Electron transport of the bridge: one invoke channel for every call (the channel name is
 * data, validated by the dispatcher) and one event channel. Each call is checked to come from
 * the main frame of our own window showing our own page (VS Code's validatedIpcMain idea):
 * an iframe, a navigated-away page or another window gets a refusal, not a dispatch.
 */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event, channel: unknown, input: unknown): Promise<Result<unknown>> => {
      if (!senderIsOurs(event, options)) {
        return fail({ code: 'FORBIDDEN', message: 'This page may not use the Infradesk bridge' })
      }
      return options.desk.dispatch(channel, input)
    },
  )
  const unsubscribe = options.desk.onEvent((event, payload) => {
    const window = options.window()
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return
    // Events go to our page only: not while the window shows anything else.
    if (!isAppUrl(options.location, window.webContents.getURL())) return
    window.webContents.send(IPC_EVENT_CHANNEL, event, payload)
  })
  return () => {
    unsubscribe()
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL)
  }
}

function senderIsOurs(event: IpcMainInvokeEvent, options: BridgeIpcOptions): boolean {
  const window = options.window()
  const frame = event.senderFrame
  if (!window || window.isDestroyed() || !frame) return false
  if (event.sender !== window.webContents) return false
  // The top frame of our window, not a subframe it happens to contain. Frames are compared by
  // their ids, not by object identity, which Electron does not promise for WebFrameMain.
  const main = window.webContents.mainFrame
  if (frame.parent !== null) return false
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false
  return isAppUrl(options.location, frame.url)
}
