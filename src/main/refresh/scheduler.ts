/*
 * Background refresh's timing, and nothing else: which profile is due when, backoff while a
 * profile is offline, never two refreshes at once for one profile, and nothing while the
 * machine sleeps. A profile whose list was never read is due at once rather than an interval
 * later (a first sign-in must not leave the Overview empty for an hour). Pure: the clock, the
 * timers and the power events are injected, so the unit tests drive it with a fake clock and
 * no sleeps (test/main/refresh-scheduler.test.ts). What a refresh does is the caller's
 * (src/main/features/background-refresh.ts).
 */

/** Wall-clock time and one-shot timers; `setTimeout`'s handle is opaque. */
export interface SchedulerClock {
  now(): number
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The machine going to sleep and waking up (Electron's powerMonitor, or a drift detector). */
export interface PowerSource {
  onSuspend(listener: () => void): () => void
  onResume(listener: () => void): () => void
}

/** How a profile's refresh ended, as far as the timing cares. */
export type RefreshOutcome = 'online' | 'offline'

export interface RefreshSchedulerOptions {
  clock: SchedulerClock
  power: PowerSource
  /** The interval between refreshes of a profile; null: background refresh is off. */
  intervalMs(): number | null
  /** The profiles to refresh; asked at each tick. */
  profiles(): readonly string[]
  /**
   * True while the profile's list has never been read (no cached copy): such a profile is due
   * at once when it appears, and again whenever the schedule is worked out anew (it signed in,
   * the setting was turned on, it came back online), until a refresh has read it. Never while
   * the setting is off, asleep, running already or backing off after an offline attempt.
   */
  neverRead?(profileId: string): boolean
  /** Refreshes one profile; a rejection counts as online (the service answered, or a bug). */
  refresh(profileId: string): Promise<RefreshOutcome>
  /** A refresh that threw (never stops the schedule). */
  onError?(profileId: string, error: unknown): void
  /** After waking, the network gets this long to come back before due refreshes run. */
  resumeGraceMs?: number
  /** The longest wait between offline attempts (unless the interval itself is longer). */
  maxBackoffMs?: number
}

export interface RefreshScheduler {
  /**
   * The interval setting or the profiles changed (added, signed in or out): due times are
   * worked out again, and a profile never read is due at once.
   */
  reschedule(): void
  /**
   * The profile is reachable again (a user's call got through): its backoff is dropped (and a
   * profile never read is due at once).
   */
  online(profileId: string): void
  /** Profile ids whose refresh is running now. */
  running(): string[]
  /** When the profile's next refresh is due (epoch ms); null when none is planned. */
  dueAt(profileId: string): number | null
  stop(): void
}

export const DEFAULT_RESUME_GRACE_MS = 30_000
export const DEFAULT_MAX_BACKOFF_MS = 4 * 60 * 60_000

interface ProfileTiming {
  dueAt: number
  /** Offline attempts in a row. */
  failures: number
}

/**
 * The wait after the n-th offline attempt in a row: the interval doubled each time, at most
 * `maxBackoffMs` (or the interval when that is longer: backoff never refreshes more often).
 */
export function backoffDelay(intervalMs: number, failures: number, maxBackoffMs: number): number {
  const ceiling = Math.max(intervalMs, maxBackoffMs)
  // 2^failures overflows nothing useful past 2^20; the ceiling applies long before.
  return Math.min(ceiling, intervalMs * 2 ** Math.min(failures, 20))
}

export function createRefreshScheduler(options: RefreshSchedulerOptions): RefreshScheduler {
  const { clock } = options
  const resumeGraceMs = options.resumeGraceMs ?? DEFAULT_RESUME_GRACE_MS
  const maxBackoffMs = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS
  const neverRead = options.neverRead ?? (() => false)
  const timings = new Map<string, ProfileTiming>()
  const inFlight = new Set<string>()
  /** Never-read profiles asked for again while their refresh ran (a sign-in meanwhile). */
  const askedWhileRunning = new Set<string>()
  let timer: unknown = null
  let asleep = false
  /** After a wake, nothing runs before the network's grace ends (epoch ms). */
  let graceEndsAt = -Infinity
  let stopped = false

  /** Now, or the end of a wake's grace period while it lasts. */
  function earliestStart(): number {
    return Math.max(clock.now(), graceEndsAt)
  }

  function clearTimer() {
    if (timer !== null) clock.clearTimeout(timer)
    timer = null
  }

  /**
   * Known profiles get a due time (a new one: one interval from now, or now when it was never
   * read); gone ones are dropped.
   */
  function syncProfiles(interval: number) {
    const now = clock.now()
    const current = new Set(options.profiles())
    for (const profileId of timings.keys()) if (!current.has(profileId)) timings.delete(profileId)
    for (const profileId of current) {
      if (timings.has(profileId)) continue
      const dueAt = neverRead(profileId) ? earliestStart() : now + interval
      timings.set(profileId, { dueAt, failures: 0 })
    }
  }

  /**
   * Brings a never-read profile's refresh forward to now, unless it is backing off (offline:
   * the backoff decides). One running already is not doubled: if it ends without having read
   * the list (it began before the sign-in that asks now), the next one follows at once. Just
   * after a wake, not before the network's grace ends.
   */
  function dueNowIfNeverRead(profileId: string, timing: ProfileTiming) {
    if (timing.failures > 0 || !neverRead(profileId)) return
    if (inFlight.has(profileId)) {
      askedWhileRunning.add(profileId)
      return
    }
    timing.dueAt = Math.min(timing.dueAt, earliestStart())
  }

  function arm() {
    clearTimer()
    if (stopped || asleep) return
    const interval = options.intervalMs()
    if (interval === null) {
      // Off: turned on again later, every profile starts a full interval from then.
      timings.clear()
      return
    }
    syncProfiles(interval)
    let earliest = Infinity
    for (const [profileId, timing] of timings) {
      if (!inFlight.has(profileId)) earliest = Math.min(earliest, timing.dueAt)
    }
    if (earliest === Infinity) return
    timer = clock.setTimeout(tick, Math.max(0, earliest - clock.now()))
  }

  function tick() {
    timer = null
    if (stopped || asleep) return
    const interval = options.intervalMs()
    if (interval === null) return
    syncProfiles(interval)
    const now = clock.now()
    for (const [profileId, timing] of timings) {
      if (timing.dueAt <= now && !inFlight.has(profileId)) start(profileId, interval)
    }
    arm()
  }

  function start(profileId: string, interval: number) {
    inFlight.add(profileId)
    const settle = (outcome: RefreshOutcome) => {
      inFlight.delete(profileId)
      const askedAgain = askedWhileRunning.delete(profileId)
      const timing = timings.get(profileId)
      if (timing === undefined || stopped) return
      // The interval as it is now: the setting may have changed while the refresh ran.
      const every = options.intervalMs() ?? interval
      if (outcome === 'offline') {
        timing.failures += 1
        timing.dueAt = clock.now() + backoffDelay(every, timing.failures, maxBackoffMs)
      } else {
        timing.failures = 0
        timing.dueAt = clock.now() + every
        if (askedAgain) dueNowIfNeverRead(profileId, timing)
      }
      arm()
    }
    let pending: Promise<RefreshOutcome>
    try {
      pending = options.refresh(profileId)
    } catch (error) {
      pending = Promise.reject(error)
    }
    pending.then(settle, (error: unknown) => {
      options.onError?.(profileId, error)
      settle('online')
    })
  }

  const stopSuspend = options.power.onSuspend(() => {
    asleep = true
    clearTimer()
  })
  const stopResume = options.power.onResume(() => {
    if (stopped) return
    asleep = false
    // What fell due during the sleep runs once, after the grace; nothing is run twice.
    graceEndsAt = clock.now() + resumeGraceMs
    for (const timing of timings.values()) timing.dueAt = Math.max(timing.dueAt, graceEndsAt)
    arm()
  })

  arm()

  return {
    reschedule() {
      const interval = options.intervalMs()
      if (interval !== null) {
        // A shorter interval takes effect now; a longer one from each profile's next refresh.
        const latest = clock.now() + interval
        for (const [profileId, timing] of timings) {
          if (timing.failures === 0) timing.dueAt = Math.min(timing.dueAt, latest)
          dueNowIfNeverRead(profileId, timing)
        }
      }
      arm()
    },
    online(profileId) {
      const timing = timings.get(profileId)
      const interval = options.intervalMs()
      if (timing === undefined || timing.failures === 0 || interval === null) return
      timing.failures = 0
      timing.dueAt = Math.min(timing.dueAt, clock.now() + interval)
      dueNowIfNeverRead(profileId, timing)
      arm()
    },
    running: () => [...inFlight],
    dueAt(profileId) {
      if (options.intervalMs() === null || asleep) return null
      return timings.get(profileId)?.dueAt ?? null
    },
    stop() {
      stopped = true
      clearTimer()
      stopSuspend()
      stopResume()
    },
  }
}

/** Node's timers, unref'd: a planned refresh never keeps the process alive. */
export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimeout(run, ms) {
    const handle = setTimeout(run, ms)
    handle.unref()
    return handle
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * Web mode's sleep detector: no power events there, so a timer that fires far later than it
 * was due says the machine slept (timers do not run in a sleep). It reports the suspend and the
 * resume together, on waking.
 */
export function createDriftPowerSource(
  clock: SchedulerClock,
  options: { checkEveryMs?: number; toleranceMs?: number } = {},
): PowerSource & { stop(): void } {
  const every = options.checkEveryMs ?? 15_000
  const tolerance = options.toleranceMs ?? 60_000
  const suspendListeners = new Set<() => void>()
  const resumeListeners = new Set<() => void>()
  let expected = clock.now() + every
  let handle: unknown = null
  let stopped = false

  function check() {
    if (stopped) return
    const now = clock.now()
    if (now - expected > tolerance) {
      for (const listener of [...suspendListeners]) listener()
      for (const listener of [...resumeListeners]) listener()
    }
    expected = now + every
    handle = clock.setTimeout(check, every)
  }
  handle = clock.setTimeout(check, every)

  const subscribe = (set: Set<() => void>) => (listener: () => void) => {
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }
  return {
    onSuspend: subscribe(suspendListeners),
    onResume: subscribe(resumeListeners),
    stop() {
      stopped = true
      if (handle !== null) clock.clearTimeout(handle)
    },
  }
}
