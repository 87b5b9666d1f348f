import { ipcMain } from 'electron'
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron'
import { fail, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/bridge'
import type { Result } from '../../shared/bridge'
import type { BridgeEndpoint } from '../web/host'
import { isAppUrl } from './app-url'
import type { AppLocation } from './app-url'
import { senderIsOurs } from './sender-check'
import type { SenderFacts, SenderFrame } from './sender-check'

export interface BridgeIpcOptions {
  desk: BridgeEndpoint
  location: AppLocation
  /** The app's window, or null while none is open. */
  window(): BrowserWindow | null
}

/**
 * The Electron transport of the bridge: one invoke channel for every call (the channel name is
 * data, validated by the dispatcher; the answer is the Result as JSON bytes) and one event channel. Each call is checked to come from
 * the main frame of our own window showing our own page (VS Code's validatedIpcMain idea):
 * an iframe, a navigated-away page or another window gets a refusal, not a dispatch. The check
 * itself is shell/sender-check.ts, a pure function of the facts read here.
 */
export function registerBridgeIpc(options: BridgeIpcOptions): () => void {
  ipcMain.handle(
    IPC_INVOKE_CHANNEL,
    async (event, channel: unknown, input: unknown): Promise<Result<unknown> | Uint8Array> => {
      if (!senderIsOurs(options.location, senderFacts(event, options.window()))) {
        return fail({ code: 'FORBIDDEN', message: 'This page may not use the Infradesk bridge' })
      }
      // The Result as JSON bytes, as web mode sends it: a cached list's rows go out as the
      // bytes SQLite joined, never parsed into objects and cloned on main's loop (the preload
      // decodes them to text, the page parses it).
      return options.desk.dispatchJson(channel, input)
    },
  )
  const unsubscribe = options.desk.onEvent((event, payload) => {
    const window = options.window()
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return
    // Events go to our page only: not while the window shows anything else.
    if (!isAppUrl(options.location, window.webContents.getURL())) return
    sendBridgeEvent(window, event, payload)
  })
  return () => {
    unsubscribe()
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL)
  }
}

/**
 * The facts the sender check needs, read off Electron's objects in the order that keeps each read
 * safe (no window: nothing of it is touched).
 */
function senderFacts(event: IpcMainInvokeEvent, window: BrowserWindow | null): SenderFacts {
  const open = window !== null && !window.isDestroyed()
  const mainFrame = open ? window.webContents.mainFrame : null
  return {
    frame: senderFrame(event),
    fromOurWindow: open && event.sender === window.webContents,
    mainFrame: mainFrame && { processId: mainFrame.processId, routingId: mainFrame.routingId },
  }
}

/** The sending frame; null when it is gone, or throws when read (disposed mid-call): refused. */
function senderFrame(event: IpcMainInvokeEvent): SenderFrame | null {
  try {
    const frame = event.senderFrame
    if (!frame) return null
    return {
      url: frame.url,
      processId: frame.processId,
      routingId: frame.routingId,
      isTopFrame: frame.parent === null,
    }
  } catch {
    return null
  }
}

/**
 * Pushes one bridge event to the window's page. The payload crosses as JSON text, as web mode's
 * event stream carries it (web/host.ts), not as a structured clone: the two transports then
 * deliver the same value (a Date, a Map or an undefined in an array would otherwise arrive
 * differently on each), and a payload JSON cannot carry fails here, named in the log, instead of
 * being dropped without a word inside webContents.send. The preload parses it back.
 */
export function sendBridgeEvent(window: BrowserWindow, event: string, payload: unknown): void {
  let text: string | undefined
  try {
    text = JSON.stringify(payload)
  } catch (error) {
    // The event's name only: a payload may hold what a log must not.
    console.error(
      `[bridge] the ${event} event could not be sent:`,
      error instanceof Error ? error.message : error,
    )
    return
  }
  window.webContents.send(IPC_EVENT_CHANNEL, event, text ?? 'null')
}
