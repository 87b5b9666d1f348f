import type { Result } from '../../shared/bridge'
import type { BridgeEndpoint } from '../web/host'
import type { BridgeEventListener } from './events'

/*
 * A bridge endpoint usable before the desk behind it exists. The transport (web mode's host)
 * starts first and the page loads its script while the core opens the cache, the profile store
 * and the handlers; a call that arrives before then waits for the desk instead of failing.
 * Loading the core takes about as long as the page takes to load its script, so the two now
 * overlap instead of following one another.
 */
export function deferredEndpoint(
  ready: Promise<BridgeEndpoint>,
  /** Told at every call: a desk that opens on demand starts opening now (see web/cli.ts). */
  wanted: () => void = () => undefined,
): BridgeEndpoint {
  // A desk that fails to open is the caller's to report (web mode exits with the reason); here
  // it only fails the calls that waited for it, and is no unhandled rejection.
  ready.catch(() => undefined)
  const endpoint = async () => {
    wanted()
    return ready
  }
  return {
    async dispatch(channel, input): Promise<Result<unknown>> {
      return (await endpoint()).dispatch(channel, input)
    },
    async dispatchJson(channel, input): Promise<Buffer> {
      return (await endpoint()).dispatchJson(channel, input)
    },
    async openDownload(ticket) {
      const desk = await endpoint()
      return desk.openDownload ? desk.openDownload(ticket) : { kind: 'unknown' }
    },
    onEvent(listener: BridgeEventListener) {
      let unsubscribe: (() => void) | null = null
      let removed = false
      // What the desk emits while it opens reaches no one, as before this wrapper: no page
      // could have subscribed to a desk that was not there.
      ready.then(
        (endpoint) => {
          if (!removed) unsubscribe = endpoint.onEvent(listener)
        },
        () => undefined,
      )
      return () => {
        removed = true
        unsubscribe?.()
      }
    },
  }
}
