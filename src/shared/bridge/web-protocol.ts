/*
 * The wire framing of the bridge in web mode, shared by the loopback host (main) and the
 * renderer's web transport, so the two cannot drift apart.
 *
 * Calls:  POST {WEB_INVOKE_PREFIX}<channel> with the input as a JSON body; the answer is the
 *         handler's Result as JSON (`{ ok: true, value } | { ok: false, error }`).
 * Events: an EventSource at WEB_EVENTS_PATH; every message's `data` is one JSON frame
 *         `{ event, payload }` (the default SSE event type, so one `onmessage` sees them all).
 * Auth:   the per-launch secret has been exchanged for an HttpOnly cookie before the page
 *         loads, so both are plain same-origin requests and the renderer never holds a secret.
 */

/** Everything of the bridge lives under this path; nothing else on the host does. */
export const WEB_BRIDGE_PREFIX = '/__bridge'
/** Calls: POST `${WEB_INVOKE_PREFIX}${channel}`. */
export const WEB_INVOKE_PREFIX = `${WEB_BRIDGE_PREFIX}/invoke/`
/** Events: `new EventSource(WEB_EVENTS_PATH)`. */
export const WEB_EVENTS_PATH = `${WEB_BRIDGE_PREFIX}/events`

/** The path a call to `channel` is posted to. */
export function invokePath(channel: string): string {
  return WEB_INVOKE_PREFIX + encodeURIComponent(channel)
}

/** The channel named by a request path, or null when the path is not an invoke path. */
export function channelFromPath(pathname: string): string | null {
  if (!pathname.startsWith(WEB_INVOKE_PREFIX)) return null
  const rest = pathname.slice(WEB_INVOKE_PREFIX.length)
  if (rest === '' || rest.includes('/')) return null
  try {
    return decodeURIComponent(rest)
  } catch {
    return null
  }
}

/**
 * One event as carried in an SSE message's `data`. Read back with zod by
 * `web-event-frame.ts`; kept apart so that the host, which only writes frames, starts without
 * loading zod (web mode listens before the rest of the core has loaded).
 */
export interface WebEventFrame {
  event: string
  payload: unknown
}

/**
 * One SSE message carrying `{ event, payload }`. JSON.stringify never emits a raw newline, so
 * the frame always fits on the single `data:` line SSE requires.
 */
export function encodeEventMessage(event: string, payload: unknown): string {
  const frame: WebEventFrame = { event, payload }
  return `data: ${JSON.stringify(frame)}\n\n`
}
