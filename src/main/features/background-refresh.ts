import type { BackgroundRefresh } from '../../shared/bridge'
import { certificateFilterSchema } from '../../shared/bridge'
import type { ExpirySummary } from '../../shared/bridge/channels/background-refresh'
import { nameThenIdOrder } from '../../shared/certificate-order'
import { visibleControls } from '../../shared/terminal-text'
import type { BridgeHandlers } from '../bridge/dispatcher'
import { certificateListReadOn } from '../cache/certificates'
import { createExpiryNotifications } from '../cache/expiry-notifications'
import type { ExpiryFinding } from '../cache/expiry-notifications'
import { createDriftPowerSource, createRefreshScheduler, systemClock } from '../refresh/scheduler'
import type { PowerSource, RefreshOutcome, SchedulerClock } from '../refresh/scheduler'
import type { DeskContext } from './context'
import { bridgeErrorOf } from './context'

/*
 * Background refresh: every signed-in profile's certificate list and status page
 * read again on the schedule of Settings (off / 15 min / hourly / daily), through the very
 * handlers a user's Refresh runs, so the cache, the list worker and the known objects are fed
 * the same way. A profile's refreshes (background and user-started) take turns: one at a time
 * per profile. After a certificate refresh, the certificates that newly expired or entered the
 * 7-day window are told in one summary notification (never the same one twice for the same
 * threshold: cache/expiry-notifications.ts). The timing is src/main/refresh/scheduler.ts.
 *
 * A profile whose certificate list was never read (no row in `certificate_lists`: just added,
 * signed in for the first time, its base URL changed) is read at once, not an interval later:
 * at start, and whenever the profiles change or the setting is turned on. A signed-out one is
 * passed over at no cost (no token: nothing to ask) until its sign-in changes the profiles.
 */

export const INTERVAL_MS: Record<BackgroundRefresh, number | null> = {
  off: null,
  '15min': 15 * 60_000,
  hourly: 60 * 60_000,
  daily: 24 * 60 * 60_000,
}

export interface BackgroundRefreshOptions {
  /** The clock and timers (tests inject theirs); Node's otherwise. */
  clock?: SchedulerClock
  /** Sleep and wake: the desktop shell's powerMonitor, else a drift detector on `clock`. */
  power?: PowerSource
}

type WrappedChannels = 'certificates.refresh' | 'statusPage.refresh'

/** Runs work one at a time per key; `idle` settles when nothing runs or waits. */
export function createKeyedQueue() {
  const tails = new Map<string, Promise<unknown>>()
  return {
    run<T>(key: string, work: () => Promise<T>): Promise<T> {
      const previous = tails.get(key) ?? Promise.resolve()
      const result = previous.then(work, work)
      const tail = result.catch(() => undefined)
      tails.set(key, tail)
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key)
      })
      return result
    },
    busy: (key: string) => tails.has(key),
    idle: () => Promise.all([...tails.values()]).then(() => undefined),
  }
}

/**
 * Starts background refresh over `handlers` and returns the two refresh handlers wrapped so a
 * user's refresh of a profile waits for a background one of the same profile (and the other
 * way round). Stopped when the desk closes.
 */
export function startBackgroundRefresh(
  context: DeskContext,
  handlers: Pick<BridgeHandlers, WrappedChannels>,
  options: BackgroundRefreshOptions = {},
): Pick<BridgeHandlers, WrappedChannels> {
  const clock = options.clock ?? systemClock
  const given = options.power ?? context.desktop?.power ?? null
  // Web mode has no power events: a timer that fires far too late says the machine slept.
  const drift = given === null ? createDriftPowerSource(clock) : null
  const power: PowerSource = given ?? (drift as PowerSource)
  const queue = createKeyedQueue()
  const expiries = createExpiryNotifications(context.cache)
  const certificatesRefresh = handlers['certificates.refresh']
  const statusPageRefresh = handlers['statusPage.refresh']
  // The whole list, system certificates included: a filtered refresh replaces only its rows.
  const fullList = certificateFilterSchema.parse({ showSystem: true })
  const listRead = context.cache.extend((db) => certificateListReadOn(db))
  const neverRead = (profileId: string) => !listRead(profileId)

  async function refreshProfile(profileId: string): Promise<RefreshOutcome> {
    const profile = context.profiles.get(profileId)
    if (profile === undefined) return 'online'
    // Signed out: nothing to refresh until the user signs in again (not a connectivity matter).
    if ((await context.vault.get(profileId)) === null) return 'online'
    const firstRead = neverRead(profileId)
    return queue.run(profileId, async () => {
      // A first read that waited for the user's own refresh of the list: nothing left to read.
      if (!firstRead || neverRead(profileId)) {
        // The JSON form when there is one: the answer is not needed, so its rows are never parsed.
        const input = { profileId, filter: fullList }
        await (certificatesRefresh.json ?? certificatesRefresh)(input)
        if (context.connectivity.offline(profileId)) return 'offline'
        tell(profile.name, expiries.claimNew(profileId, clock.now()))
      }
      await statusPageRefresh({ profileId })
      return context.connectivity.offline(profileId) ? 'offline' : 'online'
    })
  }

  function tell(profileName: string, findings: ExpiryFinding[]) {
    if (findings.length === 0) return
    const summary = summarise(profileName, findings)
    if (context.desktop !== null) {
      context.desktop.notify(summary.title, summary.body, () => {
        context.events.emit('expiry.open', {})
      })
    } else {
      context.events.emit('expiry.notification', summary)
    }
  }

  const scheduler = createRefreshScheduler({
    clock,
    power,
    intervalMs: () => INTERVAL_MS[context.settings.get().backgroundRefresh],
    profiles: () => context.profiles.list().map((profile) => profile.id),
    neverRead,
    refresh: refreshProfile,
    onError: (profileId, error) => {
      // Not the user's to act on (a 401 already asked for a token); the next run tries again.
      const name = context.profiles.get(profileId)?.name ?? profileId
      // The name and the error are the user's and the service's text: shown, never acted on.
      console.warn(
        visibleControls(`Background refresh of "${name}" failed: ${describe(context, error)}`),
      )
    },
  })
  const stopSettings = context.settings.onChange(() => scheduler.reschedule())
  const stopEvents = context.events.subscribe((event, payload) => {
    if (event === 'profiles.changed') scheduler.reschedule()
    if (event === 'connectivity.changed') {
      const change = payload as { profileId: string; online: boolean }
      if (change.online) scheduler.online(change.profileId)
    }
  })
  context.onClose(async () => {
    scheduler.stop()
    drift?.stop()
    stopSettings()
    stopEvents()
    // A refresh under way finishes before the cache closes.
    await queue.idle()
  })

  const wrap = <C extends WrappedChannels>(handler: BridgeHandlers[C]) => {
    const wrapped = ((input: Parameters<BridgeHandlers[C]>[0]) =>
      queue.run(input.profileId, () => handler(input as never))) as BridgeHandlers[C]
    if (handler.json) {
      const json = handler.json
      wrapped.json = (input) => queue.run(input.profileId, () => json(input as never))
    }
    return wrapped
  }
  return {
    'certificates.refresh': wrap<'certificates.refresh'>(certificatesRefresh),
    'statusPage.refresh': wrap<'statusPage.refresh'>(statusPageRefresh),
  }
}

/** "2 certificates expired, 3 expire within 7 days", with the first few names. */
export function summarise(profileName: string, findings: readonly ExpiryFinding[]): ExpirySummary {
  const ordered = [...findings].sort(dayThenNameOrder())
  const expired = ordered.filter((finding) => finding.threshold === 'expired')
  const week = ordered.filter((finding) => finding.threshold === 'week')
  const parts: string[] = []
  if (expired.length > 0) {
    parts.push(`${expired.length} expired: ${names(expired)}`)
  }
  if (week.length > 0) {
    parts.push(
      `${week.length} ${week.length === 1 ? 'expires' : 'expire'} within 7 days: ${names(week)}`,
    )
  }
  const count = findings.length
  return {
    title: `${profileName}: ${count} certificate${count === 1 ? '' : 's'} need${count === 1 ? 's' : ''} attention`,
    body: parts.join('\n'),
    count,
  }
}

/**
 * The order a notice names certificates in: by the (UTC) day they expire, then as the
 * certificate list orders names, then by id; the same certificates read the same whichever
 * order the cache gave them in (within a day, by time then a random id, it gave no fixed one).
 */
function dayThenNameOrder(): (a: ExpiryFinding, b: ExpiryFinding) => number {
  const nameThenId = nameThenIdOrder()
  const day = (finding: ExpiryFinding) => finding.notAfter.slice(0, 10)
  return (a, b) =>
    day(a).localeCompare(day(b)) ||
    nameThenId({ id: a.certificateId, name: a.name }, { id: b.certificateId, name: b.name })
}

function names(findings: readonly ExpiryFinding[]): string {
  const shown = findings.slice(0, 3).map((finding) => finding.name)
  const more = findings.length - shown.length
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ')
}

function describe(context: DeskContext, error: unknown): string {
  const { code, message } = bridgeErrorOf(context, error)
  return `${code}: ${message}`
}
