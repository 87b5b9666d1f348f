/*
 * The names the Electron transport uses, in a module without zod: the sandboxed preload is
 * bundled whole, and importing the contract (with all its schemas) would put zod into it.
 */

/** The name under which the preload exposes the transport on `window`. */
export const BRIDGE_GLOBAL = 'infradesk'
/** The single IPC channel for calls, and the one for events. */
export const IPC_INVOKE_CHANNEL = 'infradesk:invoke'
export const IPC_EVENT_CHANNEL = 'infradesk:event'
