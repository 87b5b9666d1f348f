import type { BridgeTransport } from '../../shared/bridge'
import type { decodeEventFrame } from '../../shared/bridge/web-event-frame'
import {
  invokePath,
  MISSING_SECRET_MESSAGE,
  readSecretFragment,
  SECRET_HEADER,
  SECRET_STORAGE_KEY,
  takeEventData,
  WEB_EVENTS_PATH,
} from '../../shared/bridge/web-protocol'

/*
 * The bridge over the web-mode loopback host. Every request carries the launch secret in a
 * header (never a cookie: cookies reach every port of 127.0.0.1). The page gets the secret from
 * the fragment of the address `npm run web` printed and keeps it in sessionStorage, so a reload
 * of the tab keeps working while other origins, other ports included, cannot read it.
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
type EventFrameDecoder = typeof decodeEventFrame

/** After a dropped event stream, as the SSE `retry:` the host sends says. */
const RECONNECT_MS = 2_000

/** The launch secret as the page's address or its tab holds it (readLaunchSecret). */
export interface LaunchSecret {
  secret: string | null
  /** The address's fragment without the secret: what the app's routes are read from. */
  hash: string
  /**
   * Takes the secret out of the address, into sessionStorage, before anything else reads the
   * address (the app's routes live in the fragment too): it must not stay in the address bar,
   * history or a bookmark. Each is a synchronous round trip to the browser (tens of ms on a
   * loaded machine), so the page starts its first calls before (page-start.ts).
   */
  keep(): void
}

/**
 * The secret from the address's fragment; without one there, the tab's stored secret (from
 * before a reload).
 */
export function readLaunchSecret(): LaunchSecret {
  const found = readSecretFragment(window.location.hash)
  if (!found) {
    return {
      secret: sessionStorage.getItem(SECRET_STORAGE_KEY),
      hash: window.location.hash,
      keep: () => undefined,
    }
  }
  return {
    secret: found.secret,
    hash: found.rest,
    keep() {
      sessionStorage.setItem(SECRET_STORAGE_KEY, found.secret)
      const { pathname, search } = window.location
      history.replaceState(history.state, '', `${pathname}${search}${found.rest}`)
    },
  }
}

export function createWebTransport(secret: string | null): BridgeTransport {
  const listeners = new Set<Listener>()
  let events: AbortController | null = null

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    return secret === null ? extra : { ...extra, [SECRET_HEADER]: secret }
  }

  function dispatch(decodeEventFrame: EventFrameDecoder, data: string) {
    const frame = decodeEventFrame(data)
    if (!frame) {
      console.warn('[bridge] ignored a malformed event frame')
      return
    }
    for (const listener of [...listeners]) listener(frame.event, frame.payload)
  }

  /*
   * The event stream is read with fetch(), not EventSource: EventSource cannot send a header,
   * and the alternatives (the secret or a ticket in the URL) would put a credential where
   * addresses end up, such as the history, resource timings and logs. fetch() also lets a
   * refusal be told apart from a dropped connection: only the second one is worth retrying.
   */
  async function readEvents(signal: AbortSignal) {
    // Loaded with the first subscription, not with this module: it builds a zod schema, and this
    // module evaluates before zod does, to send the page's first calls (page-start.ts).
    const { decodeEventFrame } = await import('../../shared/bridge/web-event-frame')
    const onData = (data: string) => dispatch(decodeEventFrame, data)
    while (!signal.aborted) {
      try {
        const response = await fetch(WEB_EVENTS_PATH, {
          headers: headers({ accept: 'text/event-stream' }),
          cache: 'no-store',
          signal,
        })
        // A missing or stale secret (or a foreign Host) stays so: retrying would only spin.
        if (response.status === 401 || response.status === 403 || response.status === 421) {
          console.warn(`[bridge] the event stream was refused (HTTP ${response.status})`)
          return
        }
        if (response.ok && response.body) await readStream(response.body, onData)
      } catch {
        // The host went away or the stream broke: try again below, unless we were stopped.
      }
      if (!signal.aborted) await delay(RECONNECT_MS, signal)
    }
  }

  return {
    async invoke(channel, input) {
      let response: Response
      try {
        response = await fetch(invokePath(channel), {
          method: 'POST',
          headers: headers({ 'content-type': 'application/json', accept: 'application/json' }),
          body: JSON.stringify(input ?? {}),
        })
      } catch {
        throw new TransportError('The Infradesk host did not answer (is the app still running?)')
      }
      if (response.status === 401) throw new TransportError(MISSING_SECRET_MESSAGE, 401)
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
      // One stream serves all listeners.
      if (!events) {
        events = new AbortController()
        void readEvents(events.signal)
      }
      return () => {
        listeners.delete(listener)
        if (listeners.size === 0 && events) {
          events.abort()
          events = null
        }
      }
    },
  }
}

/** Hands every complete SSE message's data to `onData` until the stream ends. */
async function readStream(body: ReadableStream<Uint8Array>, onData: (data: string) => void) {
  const reader = body.getReader()
  // One decoder for the whole stream: a character may be split between two chunks.
  const decoder = new TextDecoder()
  let received = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) return
    const taken = takeEventData(received + decoder.decode(value, { stream: true }))
    received = taken.rest
    for (const data of taken.data) onData(data)
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done)
  })
}
