import { afterEach, describe, expect, it } from 'vitest'
import {
  backoffDelay,
  createDriftPowerSource,
  createRefreshScheduler,
} from '../../src/main/refresh/scheduler'
import type {
  RefreshOutcome,
  RefreshSchedulerOptions,
  SchedulerClock,
} from '../../src/main/refresh/scheduler'
import { createKeyedQueue } from '../../src/main/features/background-refresh'
import { fakeClock, fakePower, flush } from '../support/fake-clock'

/*
 * The background refresh's timing with an injected clock and timers: time only moves when a
 * test says so (`advance`), and refreshes end when the test settles them, so intervals,
 * backoff, sleep and wake and overlap are checked without a single real wait.
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** A refresh the test ends: each call is recorded with its time and waits for `settle`. */
function controlledRefresh(clock: SchedulerClock) {
  const calls: { profileId: string; at: number; settle(outcome: RefreshOutcome): void }[] = []
  const refresh = (profileId: string) =>
    new Promise<RefreshOutcome>((resolve) => {
      calls.push({ profileId, at: clock.now(), settle: resolve })
    })
  return { calls, refresh }
}

/** Every scheduler a test started: stopped after it, whatever the test did. */
const started: Array<{ stop(): void }> = []
afterEach(() => {
  for (const scheduler of started.splice(0)) scheduler.stop()
})

function setup(overrides: Partial<RefreshSchedulerOptions> = {}) {
  const clock = fakeClock()
  const power = fakePower()
  const { calls, refresh } = controlledRefresh(clock)
  let interval: number | null = HOUR
  let profiles = ['a']
  const scheduler = createRefreshScheduler({
    clock,
    power,
    intervalMs: () => interval,
    profiles: () => profiles,
    refresh,
    resumeGraceMs: 30_000,
    maxBackoffMs: 4 * HOUR,
    ...overrides,
  })
  started.push(scheduler)
  return {
    clock,
    power,
    calls,
    scheduler,
    start: clock.now(),
    setInterval: (ms: number | null) => {
      interval = ms
    },
    setProfiles: (next: string[]) => {
      profiles = next
    },
  }
}

/** Settles every refresh still running with `outcome`. */
async function settleAll(calls: ReturnType<typeof setup>['calls'], outcome: RefreshOutcome) {
  for (const call of calls) call.settle(outcome)
  await flush()
}

/** a and b are being read; once both end online, both are read again an interval later. */
async function expectBothReadThenAnIntervalLater(t: ReturnType<typeof setup>) {
  expect(t.calls.map((call) => call.profileId).sort()).toEqual(['a', 'b'])
  await settleAll(t.calls, 'online')
  await t.clock.advance(HOUR)
  expect(t.calls).toHaveLength(4)
}

describe('background refresh scheduler', () => {
  it('refreshes each profile once per interval, the first one interval after start', async () => {
    const t = setup()
    t.setProfiles(['a', 'b'])
    t.scheduler.reschedule()
    await t.clock.advance(HOUR - 1)
    expect(t.calls).toHaveLength(0)
    await t.clock.advance(1)
    await expectBothReadThenAnIntervalLater(t)
    expect(t.calls.slice(2).every((call) => call.at === t.start + 2 * HOUR)).toBe(true)
  })

  it('does nothing while off, and starts when an interval is chosen', async () => {
    const t = setup()
    t.setInterval(null)
    t.scheduler.reschedule()
    await t.clock.advance(48 * HOUR)
    expect(t.calls).toHaveLength(0)
    expect(t.scheduler.dueAt('a')).toBeNull()
    expect(t.clock.pending()).toBe(0)

    t.setInterval(15 * MINUTE)
    t.scheduler.reschedule()
    await t.clock.advance(15 * MINUTE)
    expect(t.calls.map((call) => call.at - t.start)).toEqual([48 * HOUR + 15 * MINUTE])
  })

  it('a shorter interval takes effect at once', async () => {
    const t = setup()
    await t.clock.advance(10 * MINUTE)
    t.setInterval(15 * MINUTE)
    t.scheduler.reschedule()
    await t.clock.advance(15 * MINUTE)
    expect(t.calls.map((call) => call.at - t.start)).toEqual([25 * MINUTE])
  })

  it('never runs two refreshes of one profile at once', async () => {
    const t = setup({ intervalMs: () => 15 * MINUTE })
    await t.clock.advance(15 * MINUTE)
    expect(t.calls).toHaveLength(1)
    expect(t.scheduler.running()).toEqual(['a'])
    // The refresh hangs for three intervals: nothing else starts for the profile meanwhile.
    await t.clock.advance(45 * MINUTE)
    expect(t.calls).toHaveLength(1)
    t.calls[0]?.settle('online')
    await flush()
    expect(t.scheduler.running()).toEqual([])
    // The next one is an interval after the end of the last one, not a burst of missed ones.
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now() + 15 * MINUTE)
    await t.clock.advance(15 * MINUTE)
    expect(t.calls).toHaveLength(2)
  })

  it('backs off while a profile is offline, and returns to the interval once it answers', async () => {
    const t = setup({ intervalMs: () => 15 * MINUTE })
    const gaps: number[] = []
    let last = t.start
    await t.clock.advance(15 * MINUTE)
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const call = t.calls.at(-1)
      expect(call).toBeDefined()
      gaps.push((call?.at ?? 0) - last)
      last = call?.at ?? 0
      call?.settle('offline')
      await flush()
      await t.clock.advance((t.scheduler.dueAt('a') ?? 0) - t.clock.now())
    }
    // 15 min, then doubling from the interval while offline, at most 4 hours.
    expect(gaps.map((gap) => gap / MINUTE)).toEqual([15, 30, 60, 120, 240, 240])
    t.calls.at(-1)?.settle('online')
    await flush()
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now() + 15 * MINUTE)
  })

  it('drops the backoff when the profile is seen online again', async () => {
    const t = setup()
    await t.clock.advance(HOUR)
    t.calls[0]?.settle('offline')
    await flush()
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now() + 2 * HOUR)
    t.scheduler.online('a')
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now() + HOUR)
  })

  it('counts a refresh that threw as done, reports it, and keeps the schedule', async () => {
    const clock = fakeClock()
    const errors: unknown[] = []
    let calls = 0
    const scheduler = createRefreshScheduler({
      clock,
      power: fakePower(),
      intervalMs: () => HOUR,
      profiles: () => ['a'],
      refresh: async () => {
        calls += 1
        throw new Error('boom')
      },
      onError: (_profileId, error) => errors.push(error),
    })
    await clock.advance(3 * HOUR)
    expect(calls).toBe(3)
    expect(errors).toHaveLength(3)
    scheduler.stop()
  })

  it('runs nothing while the machine sleeps, and what fell due runs once after waking', async () => {
    const t = setup()
    t.setProfiles(['a', 'b'])
    t.scheduler.reschedule()
    await t.clock.advance(30 * MINUTE)
    t.power.sleep()
    expect(t.clock.pending()).toBe(0)
    // Eight hours asleep (timers do not run; the clock moves on).
    await t.clock.advance(8 * HOUR)
    expect(t.calls).toHaveLength(0)
    t.power.wake()
    // The network gets its grace before the overdue refreshes run, each profile once.
    await t.clock.advance(29_999)
    expect(t.calls).toHaveLength(0)
    await t.clock.advance(1)
    await expectBothReadThenAnIntervalLater(t)
  })

  it('forgets a removed profile and plans a new one', async () => {
    const t = setup()
    await t.clock.advance(30 * MINUTE)
    t.setProfiles(['b'])
    t.scheduler.reschedule()
    expect(t.scheduler.dueAt('a')).toBeNull()
    expect(t.scheduler.dueAt('b')).toBe(t.clock.now() + HOUR)
    await t.clock.advance(HOUR)
    expect(t.calls.map((call) => call.profileId)).toEqual(['b'])
  })

  it('plans nothing after stop', async () => {
    const t = setup()
    t.scheduler.stop()
    await t.clock.advance(5 * HOUR)
    expect(t.calls).toHaveLength(0)
    expect(t.clock.pending()).toBe(0)
  })

  it('doubles the wait per failure up to the ceiling, never below the interval', () => {
    expect(backoffDelay(HOUR, 1, 4 * HOUR)).toBe(2 * HOUR)
    expect(backoffDelay(HOUR, 2, 4 * HOUR)).toBe(4 * HOUR)
    expect(backoffDelay(HOUR, 9, 4 * HOUR)).toBe(4 * HOUR)
    expect(backoffDelay(24 * HOUR, 3, 4 * HOUR)).toBe(24 * HOUR)
  })
})

describe('a profile whose list was never read', () => {
  /** The scheduler over `profiles`, with the never-read ones in `unread` (the test edits it). */
  function setupUnread(profiles: string[], unread: string[]) {
    const never = new Set(unread)
    const t = setup({ neverRead: (profileId) => never.has(profileId) })
    t.setProfiles(profiles)
    t.scheduler.reschedule()
    return { ...t, never }
  }

  it('is read at once at start; the others an interval later, then all once per interval', async () => {
    const t = setupUnread(['read', 'new'], ['new'])
    await t.clock.advance(0)
    expect(t.calls.map((call) => [call.profileId, call.at - t.start])).toEqual([['new', 0]])
    t.never.delete('new')
    await settleAll(t.calls, 'online')
    expect(t.scheduler.dueAt('new')).toBe(t.start + HOUR)
    await t.clock.advance(HOUR)
    expect(t.calls.slice(1).map((call) => [call.profileId, call.at - t.start])).toEqual([
      ['read', HOUR],
      ['new', HOUR],
    ])
  })

  it('is read at once when it appears later (added, or its token given)', async () => {
    const t = setupUnread(['a'], [])
    await t.clock.advance(20 * MINUTE)
    t.never.add('b')
    t.setProfiles(['a', 'b'])
    t.scheduler.reschedule()
    await t.clock.advance(0)
    expect(t.calls.map((call) => [call.profileId, call.at - t.start])).toEqual([['b', 20 * MINUTE]])
  })

  it('a known one is read at once when the schedule is worked out again (signed in later)', async () => {
    const t = setupUnread(['a'], ['a'])
    await t.clock.advance(0)
    // Signed out: its refresh reads nothing, and the next one is an interval away.
    t.calls[0]?.settle('online')
    await flush()
    expect(t.scheduler.dueAt('a')).toBe(t.start + HOUR)
    await t.clock.advance(10 * MINUTE)
    // Signed in (the profiles changed): read now, not at the hour.
    t.scheduler.reschedule()
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now())
    await t.clock.advance(0)
    expect(t.calls.map((call) => call.at - t.start)).toEqual([0, 10 * MINUTE])
    // Read at last: an interval from the end of that refresh, and changes no longer bring it on.
    t.never.delete('a')
    t.calls[1]?.settle('online')
    await flush()
    t.scheduler.reschedule()
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now() + HOUR)
  })

  it('a sign-in while a refresh that reads nothing runs is not lost', async () => {
    const t = setupUnread(['a'], ['a'])
    await t.clock.advance(0)
    // Began signed out (it will read nothing); the sign-in comes while it runs.
    await t.clock.advance(MINUTE)
    t.scheduler.reschedule()
    await t.clock.advance(0)
    expect(t.calls).toHaveLength(1)
    t.calls[0]?.settle('online')
    await flush()
    await t.clock.advance(0)
    expect(t.calls.map((call) => call.at - t.start)).toEqual([0, MINUTE])
    // Ended having read the list: no third one.
    t.never.delete('a')
    t.calls[1]?.settle('online')
    await flush()
    expect(t.scheduler.dueAt('a')).toBe(t.clock.now() + HOUR)
  })

  it('is not read while background refresh is off, and at once when it is turned on', async () => {
    const t = setupUnread(['a'], ['a'])
    t.setInterval(null)
    t.scheduler.reschedule()
    await t.clock.advance(48 * HOUR)
    t.scheduler.reschedule()
    await t.clock.advance(HOUR)
    expect(t.calls).toHaveLength(0)
    expect(t.scheduler.dueAt('a')).toBeNull()
    t.setInterval(24 * HOUR)
    t.scheduler.reschedule()
    await t.clock.advance(0)
    expect(t.calls.map((call) => call.at - t.start)).toEqual([49 * HOUR])
  })

  it('is never read twice at once, however often the schedule is worked out', async () => {
    const t = setupUnread(['a'], ['a'])
    await t.clock.advance(0)
    expect(t.scheduler.running()).toEqual(['a'])
    for (let i = 0; i < 3; i += 1) {
      t.scheduler.reschedule()
      await t.clock.advance(MINUTE)
    }
    expect(t.calls).toHaveLength(1)
  })

  it('backs off while offline; once seen online it is read at once', async () => {
    const t = setupUnread(['a'], ['a'])
    await t.clock.advance(0)
    t.calls[0]?.settle('offline')
    await flush()
    const backoff = t.clock.now() + 2 * HOUR
    expect(t.scheduler.dueAt('a')).toBe(backoff)
    // Profile changes do not cut the backoff short: the service is still unreachable.
    t.scheduler.reschedule()
    expect(t.scheduler.dueAt('a')).toBe(backoff)
    await t.clock.advance(30 * MINUTE)
    expect(t.calls).toHaveLength(1)
    // A user's call got through: no reason left to wait.
    t.scheduler.online('a')
    await t.clock.advance(0)
    expect(t.calls.map((call) => call.at - t.start)).toEqual([0, 30 * MINUTE])
  })

  it('added while the machine sleeps: read once, after the grace that follows the wake', async () => {
    const t = setupUnread(['a'], [])
    await t.clock.advance(10 * MINUTE)
    t.power.sleep()
    t.never.add('b')
    t.setProfiles(['a', 'b'])
    t.scheduler.reschedule()
    expect(t.clock.pending()).toBe(0)
    await t.clock.advance(HOUR)
    expect(t.calls).toHaveLength(0)
    t.power.wake()
    await t.clock.advance(29_999)
    expect(t.calls).toHaveLength(0)
    // A change just after the wake does not jump the grace either.
    t.scheduler.reschedule()
    await t.clock.advance(1)
    expect(t.calls.map((call) => call.profileId).sort()).toEqual(['a', 'b'])
  })
})

describe('web mode sleep detection', () => {
  it('tells a suspend and a resume when its timer fires far later than due', async () => {
    const clock = fakeClock()
    const drift = createDriftPowerSource(clock, { checkEveryMs: 15_000, toleranceMs: 60_000 })
    const seen: string[] = []
    drift.onSuspend(() => seen.push('suspend'))
    drift.onResume(() => seen.push('resume'))
    // On time, for a while: nothing.
    await clock.advance(10 * MINUTE)
    expect(seen).toEqual([])
    // Two hours asleep: the clock jumps, and the check due meanwhile fires once, late.
    clock.jump(2 * HOUR)
    await clock.advance(0)
    expect(seen).toEqual(['suspend', 'resume'])
    // Awake again, on time: nothing more.
    await clock.advance(10 * MINUTE)
    expect(seen).toEqual(['suspend', 'resume'])
    drift.stop()
    expect(clock.pending()).toBe(0)
  })

  it('drives the scheduler: a refresh overdue after a sleep waits for the grace', async () => {
    const clock = fakeClock()
    const drift = createDriftPowerSource(clock, { checkEveryMs: 15_000, toleranceMs: 60_000 })
    const { calls, refresh } = controlledRefresh(clock)
    const scheduler = createRefreshScheduler({
      clock,
      power: drift,
      intervalMs: () => HOUR,
      profiles: () => ['a'],
      refresh,
      resumeGraceMs: 30_000,
    })
    await clock.advance(30 * MINUTE)
    clock.jump(5 * HOUR)
    // Whichever timer fires first on waking, the refresh waits for the network's grace.
    await clock.advance(0)
    await clock.advance(29_000)
    expect(calls).toHaveLength(0)
    await clock.advance(16_000)
    expect(calls).toHaveLength(1)
    scheduler.stop()
    drift.stop()
  })
})

describe('one refresh at a time per profile, background or user-started', () => {
  it('runs a second refresh of the same profile only after the first ends', async () => {
    const queue = createKeyedQueue()
    const log: string[] = []
    let endFirst: () => void = () => undefined
    const first = queue.run('a', async () => {
      log.push('background start')
      await new Promise<void>((resolve) => {
        endFirst = resolve
      })
      log.push('background end')
    })
    const second = queue.run('a', async () => {
      log.push('user start')
    })
    const other = queue.run('b', async () => {
      log.push('other profile')
    })
    await other
    await flush()
    // Another profile is not held up; the same profile waits.
    expect(log).toEqual(['background start', 'other profile'])
    expect(queue.busy('a')).toBe(true)
    endFirst()
    await Promise.all([first, second])
    expect(log).toEqual(['background start', 'other profile', 'background end', 'user start'])
    await queue.idle()
    expect(queue.busy('a')).toBe(false)
  })

  it('runs the next one even when the one before failed', async () => {
    const queue = createKeyedQueue()
    const failed = queue.run('a', async () => {
      throw new Error('offline')
    })
    await expect(failed).rejects.toThrow('offline')
    await expect(queue.run('a', async () => 'ran')).resolves.toBe('ran')
  })
})
