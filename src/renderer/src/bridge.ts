import { createBridge, type Bridge } from './bridge-client'
import { firstCalls } from './page-start'

/*
 * The renderer's only way to the main process. The desktop app's preload exposes the IPC
 * transport on `window`; without it we are in web mode and talk to the loopback host (or, on a
 * `file:` page, the preload failed: transport-choice.ts). page-start.ts picks
 * it, and sends the app's first calls through it ahead of the rest of the page's script. Nothing
 * else in the renderer knows which one it got.
 */

export { asBridgeError, BridgeCallError, type Bridge, type EventHandler } from './bridge-client'

export const bridge: Bridge = createBridge(firstCalls.transport)
