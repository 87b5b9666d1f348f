import type { BridgeTransport } from '../../shared/bridge'
import { decodeEventFrame } from '../../shared/bridge/web-event-frame'
import { invokePath, WEB_EVENTS_PATH } from '../../shared/bridge/web-protocol'

/*
 * The bridge over the web-mode loopback host. The host has already exchanged the launch secret
 * for an HttpOnly cookie, so calls and the event stream are plain same-origin requests: this
 * code never sees a secret, and `credentials: 'same-origin'` is all it needs.
 */

/** Raised when the host itself (not the service behind it) cannot be reached or answers junk. */
export class TransportError extends Error {
  override name = 'TransportError'
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message)
  }
}

type Listener = (event: string, payload: unknown) => void

export function createWebTransport(): BridgeTransport {
  const listeners = new Set<Listener>()
  let source: EventSource | null = null

  function openEvents() {
    // EventSource reconnects by itself after a dropped connection; one stream serves all listeners.
    source = new EventSource(WEB_EVENTS_PATH, { withCredentials: true })
    source.onmessage = (message: MessageEvent<string>) => {
      const frame = decodeEventFrame(message.data)
      if (!frame) {
        console.warn('[bridge] ignored a malformed event frame')
        return
      }
      for (const listener of [...listeners]) listener(frame.event, frame.payload)
    }
  }

  return {
    async invoke(channel, input) {
      let response: Response
      try {
        response = await fetch(invokePath(channel), {
          method: 'POST',
          credentials: 'same-origin',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(input ?? {}),
        })
      } catch {
        throw new TransportError('The Infradesk host did not answer (is the app still running?)')
      }
      const text = await response.text()
      try {
        return JSON.parse(text) as unknown
      } catch {
        throw new TransportError(
          `The Infradesk host answered HTTP ${response.status} without a bridge result`,
          response.status,
        )
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      if (!source) openEvents()
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && source) {
          source.close()
          source = null
        }
      }
    },
  }
}
