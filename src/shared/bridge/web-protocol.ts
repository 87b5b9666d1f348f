/*
 * The wire framing of the bridge in web mode, shared by the loopback host (main) and the
 * renderer's web transport, so the two cannot drift apart.
 *
 * Calls:  POST {WEB_INVOKE_PREFIX}<channel> with the input as a JSON body; the answer is the
 *         handler's Result as JSON (`{ ok: true, value } | { ok: false, error }`).
 * Events: GET WEB_EVENTS_PATH, a Server-Sent Events stream read with fetch(); every message's
 *         `data` is one JSON frame `{ event, payload }`.
 * Auth:   both carry the per-launch secret in the SECRET_HEADER header, never in a cookie:
 *         cookies are shared by every port of 127.0.0.1, so any other local server the browser
 *         visits would receive one. The printed address holds the secret in its fragment
 *         (`/#secret=…`), which browsers never send to a server nor put in a Referer; the page
 *         keeps it in sessionStorage, which is separate for every origin, port included.
 */

/** The header every bridge request carries the launch secret in. */
export const SECRET_HEADER = 'x-infradesk-secret'
/**
 * What the host answers (401) to a bridge request without the secret, and what the page shows
 * when it has none: the only fix is to open the address again.
 */
export const MISSING_SECRET_MESSAGE =
  "This page does not hold this launch's secret: open the address that `npm run web` printed."
/** How the printed address's fragment starts: `http://127.0.0.1:PORT/#secret=…`. */
const SECRET_FRAGMENT_PREFIX = '#secret='
/** Where the page keeps the secret for the life of its tab (a reload included). */
export const SECRET_STORAGE_KEY = 'infradesk.launchSecret'

/** The address to print: the page's origin, the secret in the fragment. */
export function launchUrl(origin: string, secret: string): string {
  return `${origin}/${SECRET_FRAGMENT_PREFIX}${secret}`
}

/**
 * Reads `#secret=<value>` at the start of a fragment, and what follows it: an app route may
 * come after it (`#secret=…#/certificates`), which the page keeps once the secret is taken out.
 */
export function readSecretFragment(hash: string): { secret: string; rest: string } | null {
  if (!hash.startsWith(SECRET_FRAGMENT_PREFIX)) return null
  const value = hash.slice(SECRET_FRAGMENT_PREFIX.length)
  const end = value.indexOf('#')
  const secret = end < 0 ? value : value.slice(0, end)
  // base64url, as newLaunchSecret makes it: anything else is not a secret of ours.
  if (!/^[\w-]+$/.test(secret)) return null
  return { secret, rest: end < 0 ? '' : value.slice(end) }
}

/** The launch secret of a printed address (for scripts and tests), or '' when it has none. */
export function launchSecretOf(url: string | URL): string {
  return readSecretFragment(new URL(url).hash)?.secret ?? ''
}

/** Everything of the bridge lives under this path; nothing else on the host does. */
export const WEB_BRIDGE_PREFIX = '/__bridge'
/** Calls: POST `${WEB_INVOKE_PREFIX}${channel}`. */
export const WEB_INVOKE_PREFIX = `${WEB_BRIDGE_PREFIX}/invoke/`
/** Events: GET, answered with a Server-Sent Events stream. */
export const WEB_EVENTS_PATH = `${WEB_BRIDGE_PREFIX}/events`

/**
 * "Download to this browser": GET `${WEB_DOWNLOAD_PREFIX}<ticket>`. A browser download cannot
 * send the secret's header, so the page first asks for a one-time ticket over the bridge
 * (transfers.downloadTicket); the host serves the ticket's file once (main/transfers/download-tickets.ts).
 */
export const WEB_DOWNLOAD_PREFIX = `${WEB_BRIDGE_PREFIX}/download/`

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

/**
 * Splits what has arrived of an SSE stream into its complete messages' `data` (one `data:` line
 * each, as encodeEventMessage writes them) and the unfinished rest, to be completed by the next
 * chunk. Comments (`: keepalive`) and `retry:` lines carry no data and are dropped.
 */
export function takeEventData(received: string): { data: string[]; rest: string } {
  const blocks = received.split('\n\n')
  const rest = blocks.pop() ?? ''
  const data: string[] = []
  for (const block of blocks) {
    const lines = block.split('\n').filter((line) => line.startsWith('data:'))
    if (lines.length === 0) continue
    data.push(lines.map((line) => line.slice('data:'.length).replace(/^ /, '')).join('\n'))
  }
  return { data, rest }
}
