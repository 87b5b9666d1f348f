import { createBridge, type Bridge } from './bridge-client'
import { chooseTransport } from './transport-choice'
import { createWebTransport } from './web-transport'

/*
 * The renderer's only way to the main process. The desktop app's preload exposes the IPC
 * transport on `window`; without it we are in web mode and talk to the loopback host (or, on a
 * `file:` page, the preload failed: transport-choice.ts). Nothing
 * else in the renderer knows which one it got.
 */

export { asBridgeError, BridgeCallError, type Bridge, type EventHandler } from './bridge-client'

export const bridge: Bridge = createBridge(chooseTransport(window, createWebTransport))
