import { BRIDGE_GLOBAL, type BridgeTransport } from '../../shared/bridge'
import { createBridge, type Bridge } from './bridge-client'
import { createWebTransport } from './web-transport'

/*
 * The renderer's only way to the main process. The desktop app's preload exposes the IPC
 * transport on `window`; without it we are in web mode and talk to the loopback host. Nothing
 * else in the renderer knows which one it got.
 */

export { asBridgeError, BridgeCallError, type Bridge, type EventHandler } from './bridge-client'

function isTransport(value: unknown): value is BridgeTransport {
  if (typeof value !== 'object' || value === null) return false
  const candidate = value as Partial<BridgeTransport>
  return typeof candidate.invoke === 'function' && typeof candidate.subscribe === 'function'
}

function pickTransport(): BridgeTransport {
  const exposed: unknown = Reflect.get(window, BRIDGE_GLOBAL)
  return isTransport(exposed) ? exposed : createWebTransport()
}

export const bridge: Bridge = createBridge(pickTransport())
