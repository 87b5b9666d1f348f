import { contextBridge, ipcRenderer } from 'electron'
import type { IpcRendererEvent } from 'electron'
import { BRIDGE_GLOBAL, IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/bridge/ipc-names'
import type { BridgeTransport } from '../shared/bridge/contract'

/*
 * The whole preload: two functions on window.infradesk (electron-trpc's narrow shape). The page
 * gets no ipcRenderer, no channel of its choosing and no process.env; the channel name it passes
 * to invoke is data that the main process validates against the contract.
 */
const textDecoder = new TextDecoder()

const transport: BridgeTransport = {
  async invoke(channel, input) {
    // Main answers with the Result as JSON bytes (shell/ipc.ts): handed to the page as text,
    // which crosses the context bridge as one string; the bridge client parses it.
    const answer: unknown = await ipcRenderer.invoke(IPC_INVOKE_CHANNEL, channel, input)
    return answer instanceof Uint8Array ? textDecoder.decode(answer) : answer
  },
  subscribe(listener) {
    // Main sends each payload as JSON text (shell/ipc.ts sendBridgeEvent), as web mode does: the
    // page gets the same value on both transports. Anything else is not one of our events.
    const forward = (_event: IpcRendererEvent, name: unknown, payloadJson: unknown) => {
      if (typeof name !== 'string' || typeof payloadJson !== 'string') return
      let payload: unknown
      try {
        payload = JSON.parse(payloadJson)
      } catch {
        console.warn(`[bridge] ignored a malformed ${name} event`)
        return
      }
      listener(name, payload)
    }
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward)
    }
  },
}

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, transport)
