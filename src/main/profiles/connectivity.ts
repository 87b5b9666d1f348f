import type { BridgeError } from '../../shared/bridge'
import type { Reach } from '../../shared/bridge/connectivity'
import { toBridgeError } from '../api'
import type { EventHub } from '../bridge/events'

/*
 * Per profile: what the last call to its service found, and when. The one account of a
 * profile's connectivity: every call through the signed-in client reports here
 * (features/context.ts), the Overview's "Read again" probes through it, and the renderer mirrors
 * it (profiles.list carries it, `connectivity.changed` follows it), so the sidebar, the Overview
 * and the offline marks read the same thing.
 *
 * `connectivity.changed` goes out when the state changes (the first call of a run included: "not
 * checked" becomes online or offline), and while it holds at most once per HEARTBEAT_MS, so the
 * time the renderer shows ("checked 2 min ago") stays near the last call's without an event per
 * request.
 */

/** How stale the renderer's "checked at" may grow while calls keep finding the same state. */
export const HEARTBEAT_MS = 30_000

export interface ConnectivityTracker {
  offline(profileId: string): boolean
  lastError(profileId: string): BridgeError | null
  /** What the last call found, or null when no call was made this run. */
  reach(profileId: string): Reach | null
  /** Every profile's reach known this run. */
  all(): Record<string, Reach>
  /** A call got an answer from the service (a success, or the service's own refusal). */
  reachable(profileId: string): void
  /** A call could not reach the service (OFFLINE, TIMEOUT). */
  unreachable(profileId: string, error: unknown): void
  /** Another route to the service (URL, proxy, CAs) or the profile gone: nothing is known. */
  forget(profileId: string): void
}

export function createConnectivityTracker(
  events: EventHub,
  secrets: { list(): string[] },
  clock: () => number = Date.now,
): ConnectivityTracker {
  const state = new Map<string, Reach>()
  /** When the event for each profile last went out. */
  const told = new Map<string, number>()

  function record(profileId: string, online: boolean, error: BridgeError | null): void {
    const now = clock()
    const before = state.get(profileId)
    const changed = before === undefined || before.online !== online
    const reach: Reach = { online, checkedAt: now, since: changed ? now : before.since, error }
    state.set(profileId, reach)
    const toldAt = told.get(profileId)
    if (!changed && toldAt !== undefined && now - toldAt < HEARTBEAT_MS) return
    told.set(profileId, now)
    events.emit('connectivity.changed', { profileId, ...reach })
  }

  return {
    offline: (profileId) => state.get(profileId)?.online === false,
    lastError: (profileId) => state.get(profileId)?.error ?? null,
    reach: (profileId) => state.get(profileId) ?? null,
    all: () => Object.fromEntries(state),
    reachable(profileId) {
      record(profileId, true, null)
    },
    unreachable(profileId, error) {
      record(profileId, false, toBridgeError(error, secrets.list()))
    },
    forget(profileId) {
      state.delete(profileId)
      told.delete(profileId)
    },
  }
}
