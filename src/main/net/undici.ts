import type * as Undici from 'undici'

let loading: Promise<typeof Undici> | null = null

/**
 * undici (fetch's transport with proxies and our trust) takes ~130 ms to load: it is loaded on
 * the first connection, not with the main process (the window must not wait for it).
 */
export function loadUndici(): Promise<typeof Undici> {
  loading ??= import('undici')
  return loading
}
