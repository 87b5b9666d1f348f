import { create } from 'zustand'
import type { BridgeError, EventPayload } from '../../../../shared/bridge'
import type { SqlResultMeta, SqlTab } from '../../../../shared/bridge/channels/sql'
import { asBridgeError, bridge } from '../../bridge'

/*
 * The SQL console's state: the profile's editor tabs (kept in SQLite by main, text saved as
 * the user types) and, per tab, what its last run produced. Results themselves stay in main;
 * a tab holds their meta and ids.
 */

/** One statement's outcome in a run: its result, or its error. */
export interface StatementOutcome {
  statement: string
  /** Where the statement starts in the editor (for the error caret). */
  from: number
  meta: SqlResultMeta | null
  error: BridgeError | null
  /**
   * Not run: the run stopped at an earlier statement, which failed or was cancelled. Or part of
   * a transaction block sent whole: the block failed (`in-failed-block`; its error is on the
   * block's first statement), or the service sent no result for this statement (`no-result`).
   */
  skipped?: 'after-failure' | 'after-cancel' | 'in-failed-block' | 'no-result'
}

/** A result kept aside: the next runs open beside it, and compare against it. */
export interface PinnedResult {
  statement: string
  meta: SqlResultMeta
}

/** The pinned result compared with a result of the last run, by a key column. */
export interface ResultComparison {
  comparisonId: string
  /** The result compared with the pinned one. */
  afterResultId: string
  keyColumn: number
  counts: { added: number; removed: number; changed: number; unchanged: number }
}

export interface TabRun {
  runId: string
  /** Statement being run, 1-based, of `total`. */
  index: number
  total: number
  startedAt: number
}

export interface TabRuntime {
  outcomes: StatementOutcome[]
  /** Which result tab is shown. */
  active: number
  running: TabRun | null
  /** Plain words about the last run: cancelled, refused. */
  notice: string | null
  plan: { plan: unknown; analyze: boolean; statement: string } | null
  /** What "Results" shows: the results or the plan. */
  view: 'results' | 'plan' | 'history'
  pinned: PinnedResult | null
  comparison: ResultComparison | null
}

const EMPTY_RUNTIME: TabRuntime = {
  outcomes: [],
  active: 0,
  running: null,
  notice: null,
  plan: null,
  view: 'results',
  pinned: null,
  comparison: null,
}

interface SqlState {
  profileId: string | null
  tabs: SqlTab[]
  activeTabId: string | null
  loading: boolean
  error: BridgeError | null
  runtime: Record<string, TabRuntime>
  /** Run all goes on after a failing statement (off: the first failure stops the rest). */
  continueOnError: boolean
  setContinueOnError(value: boolean): void
  /** Keeps a result of the tab aside (null: unpins it, releasing it unless it is on show). */
  pin(tabId: string, pinned: PinnedResult | null): void
  /** Records a comparison, releasing the one it replaces. */
  setComparison(tabId: string, comparison: ResultComparison | null): void
  load(profileId: string, defaults: { maxRows: number; databaseId: string }): Promise<void>
  select(tabId: string): void
  /** Changes a tab and saves it (text saves are debounced). */
  update(tabId: string, patch: Partial<Omit<SqlTab, 'id' | 'profileId'>>): void
  add(fields: Partial<SqlTab> & { maxRows: number; databaseId: string }): Promise<SqlTab>
  close(tabId: string): Promise<void>
  runtimeOf(tabId: string): TabRuntime
  setRuntime(tabId: string, patch: Partial<TabRuntime>): void
  /** Drops a tab's kept results in main (before a new run, or when it closes). */
  releaseResults(tabId: string): void
  /** Main finished reading a big answer: exact counts, or the error that ended it. */
  completeResult(completed: EventPayload<'sql.result.completed'>): void
}

const TEXT_SAVE_DELAY_MS = 400
const pendingSaves = new Map<string, number>()

function persist(tab: SqlTab, delay: number) {
  const previous = pendingSaves.get(tab.id)
  if (previous !== undefined) window.clearTimeout(previous)
  const save = () => {
    pendingSaves.delete(tab.id)
    const { updatedAt, ...fields } = tab
    void updatedAt
    void bridge.call('sql.tabs.save', fields).catch((error: unknown) => {
      useSqlStore.setState({ error: asBridgeError(error) })
    })
  }
  if (delay === 0) save()
  else pendingSaves.set(tab.id, window.setTimeout(save, delay))
}

/** Saves every pending text at once (the page is going away). */
export function flushTabSaves() {
  for (const tab of useSqlStore.getState().tabs) {
    if (pendingSaves.has(tab.id)) persist(tab, 0)
  }
}

function release(ids: string[]): void {
  void bridge.call('sql.release', { resultIds: ids }).catch(() => undefined)
}

function newTabId(): string {
  return crypto.randomUUID()
}

export const useSqlStore = create<SqlState>()((set, get) => ({
  profileId: null,
  tabs: [],
  activeTabId: null,
  loading: false,
  error: null,
  runtime: {},
  continueOnError: false,

  setContinueOnError(value) {
    set({ continueOnError: value })
  },

  pin(tabId, pinned) {
    const state = get().runtimeOf(tabId)
    const previous = state.pinned?.meta.resultId
    const shown = state.outcomes.some((outcome) => outcome.meta?.resultId === previous)
    const released = [
      ...(previous !== undefined && !shown && previous !== pinned?.meta.resultId ? [previous] : []),
      ...(state.comparison ? [state.comparison.comparisonId] : []),
    ]
    if (released.length > 0) release(released)
    get().setRuntime(tabId, { pinned, comparison: null })
  },

  setComparison(tabId, comparison) {
    const previous = get().runtimeOf(tabId).comparison
    if (previous && previous.comparisonId !== comparison?.comparisonId) {
      release([previous.comparisonId])
    }
    get().setRuntime(tabId, { comparison })
  },

  async load(profileId, defaults) {
    set({ profileId, loading: true, error: null, tabs: [], activeTabId: null })
    try {
      const tabs = await bridge.call('sql.tabs.list', { profileId })
      if (get().profileId !== profileId) return
      set({ tabs, activeTabId: tabs[0]?.id ?? null, loading: false })
      if (tabs.length === 0) await get().add(defaults)
    } catch (error) {
      set({ loading: false, error: asBridgeError(error) })
    }
  },

  select(tabId) {
    set({ activeTabId: tabId })
  },

  update(tabId, patch) {
    const tab = get().tabs.find((candidate) => candidate.id === tabId)
    if (!tab) return
    const next = { ...tab, ...patch }
    set({ tabs: get().tabs.map((candidate) => (candidate.id === tabId ? next : candidate)) })
    const onlyText = Object.keys(patch).every((key) => key === 'text')
    persist(next, onlyText ? TEXT_SAVE_DELAY_MS : 0)
  },

  async add(fields) {
    const profileId = get().profileId
    if (!profileId) throw new Error('No profile')
    const tabs = get().tabs
    const numbers = tabs.map((tab) => /^Query (\d+)$/.exec(tab.title)?.[1]).map(Number)
    const next = Math.max(0, ...numbers.filter(Number.isFinite)) + 1
    const saved = await bridge.call('sql.tabs.save', {
      id: newTabId(),
      profileId,
      title: fields.title ?? `Query ${next}`,
      databaseId: fields.databaseId,
      text: fields.text ?? '',
      maxRows: fields.maxRows,
      readOnly: fields.readOnly ?? false,
      position: Math.max(-1, ...tabs.map((tab) => tab.position)) + 1,
    })
    set({ tabs: [...get().tabs, saved], activeTabId: saved.id })
    return saved
  },

  async close(tabId) {
    const tabs = get().tabs
    const index = tabs.findIndex((tab) => tab.id === tabId)
    const pending = pendingSaves.get(tabId)
    if (pending !== undefined) window.clearTimeout(pending)
    pendingSaves.delete(tabId)
    const remaining = tabs.filter((tab) => tab.id !== tabId)
    const runtime = { ...get().runtime }
    delete runtime[tabId]
    set({
      tabs: remaining,
      runtime,
      activeTabId:
        get().activeTabId === tabId
          ? (remaining[Math.min(index, remaining.length - 1)]?.id ?? null)
          : get().activeTabId,
    })
    // Main forgets the tab and releases its results.
    await bridge.call('sql.tabs.close', { id: tabId }).catch(() => undefined)
  },

  runtimeOf(tabId) {
    return get().runtime[tabId] ?? EMPTY_RUNTIME
  },

  setRuntime(tabId, patch) {
    set({ runtime: { ...get().runtime, [tabId]: { ...get().runtimeOf(tabId), ...patch } } })
  },

  completeResult(completed) {
    const runtime = { ...get().runtime }
    let changed = false
    for (const [tabId, state] of Object.entries(runtime)) {
      const pinned = state.pinned?.meta.resultId === completed.resultId ? state.pinned : null
      if (pinned && !completed.error) {
        changed = true
        const meta = { ...pinned.meta, rows: completed.rows, complete: true }
        runtime[tabId] = { ...state, pinned: { ...pinned, meta } }
      }
      if (!state.outcomes.some((outcome) => outcome.meta?.resultId === completed.resultId)) continue
      changed = true
      runtime[tabId] = {
        ...runtime[tabId]!,
        outcomes: state.outcomes.map((outcome) => {
          if (outcome.meta?.resultId !== completed.resultId) return outcome
          if (completed.error) return { ...outcome, meta: null, error: completed.error }
          return {
            ...outcome,
            meta: {
              ...outcome.meta,
              rows: completed.rows,
              rowCount: completed.rowCount,
              truncated: completed.truncated,
              durationMs: completed.durationMs,
              elapsedMs: completed.elapsedMs,
              parseMs: completed.parseMs,
              complete: true,
            },
          }
        }),
      }
    }
    if (changed) set({ runtime })
  },

  releaseResults(tabId) {
    const state = get().runtimeOf(tabId)
    // The pinned result stays kept: the next run opens beside it.
    const pinnedId = state.pinned?.meta.resultId
    const ids = state.outcomes.flatMap((outcome) =>
      outcome.meta && outcome.meta.resultId !== pinnedId ? [outcome.meta.resultId] : [],
    )
    if (state.comparison) {
      ids.push(state.comparison.comparisonId)
      get().setRuntime(tabId, { comparison: null })
    }
    if (ids.length > 0) release(ids)
  },
}))

export function selectRuntime(tabId: string | null) {
  return (state: SqlState): TabRuntime =>
    (tabId === null ? undefined : state.runtime[tabId]) ?? EMPTY_RUNTIME
}
