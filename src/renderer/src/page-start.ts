import { parseHash, START_ROUTE } from './app/routes'
import { firstCallsFor, sendFirstCalls } from './first-calls'
import { chooseTransport } from './transport-choice'
import { createWebTransport, readLaunchSecret, type LaunchSecret } from './web-transport'

/*
 * What the page does before the rest of its script evaluates (main.tsx imports this first; the
 * build puts it, and only what it imports, in the small `start` chunk that evaluates first:
 * electron.vite.config.ts). It picks the transport (web mode takes its launch secret out of the
 * address here) and sends the calls the app starts with (first-calls.ts). Nothing here may
 * import zod, the contract, React or a screen: that would pull them into this chunk, ahead of
 * the calls (web-transport.ts loads its event decoder, a zod schema, at the first subscription).
 */

/** Web mode's launch secret, read when its transport is made; none on the desktop. */
const web: { launch?: LaunchSecret } = {}
const transport = chooseTransport(window, () => {
  web.launch = readLaunchSecret()
  return createWebTransport(web.launch.secret)
})
const hash = web.launch?.hash ?? window.location.hash

export const firstCalls = sendFirstCalls(
  transport,
  firstCallsFor(parseHash(hash)?.route ?? START_ROUTE),
)
// Once the calls have left; still before anything else reads the address (app/store.ts).
web.launch?.keep()
