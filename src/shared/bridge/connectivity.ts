import { APP_ERROR_CODES } from './result'

/**
 * Errors that mean "the service is out of reach", as opposed to "the service said no": main's
 * ServiceError and the renderer's BridgeError alike (both carry the code). Offline answers come
 * from the cache; other errors are shown.
 */
export function isConnectivityError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code: unknown = (error as { code?: unknown }).code
  return code === APP_ERROR_CODES.OFFLINE || code === APP_ERROR_CODES.TIMEOUT
}
