import { z } from 'zod'
import { APP_ERROR_CODES, bridgeErrorSchema } from './result'

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

/**
 * What the last call to a profile's service found, and when: the one account of a profile's
 * connectivity (main's tracker, src/main/profiles/connectivity.ts). The sidebar, the Overview and
 * the offline marks all show this, so they cannot disagree. A profile absent from the map had
 * no call yet in this run: "not checked", never "online".
 */
export const reachSchema = z.lazy(() =>
  z.object({
    /** The last call got an answer from the service (any answer but "out of reach"). */
    online: z.boolean(),
    /** When that call ended (epoch ms, main's clock). */
    checkedAt: z.number(),
    /** Since when the state holds (the first call that found it so). */
    since: z.number(),
    /** Offline: what the call ran into (OFFLINE, TIMEOUT). */
    error: bridgeErrorSchema.nullable(),
  }),
)
export type Reach = z.infer<typeof reachSchema>

/** Every profile's reach that main knows, by profile id. */
export const reachMapSchema = z.lazy(() => z.record(z.string(), reachSchema))
