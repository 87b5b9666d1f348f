import type { SQLNamespace } from '@codemirror/lang-sql'
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type {
  SqlHistoryEntry,
  SqlPlannedStatement,
  SqlSchemaTree,
  SqlTab,
} from '../../../../shared/bridge/channels/sql'
import { SQL_MAX_ROWS } from '../../../../shared/bridge/channels/sql'
import { groupTransactionBlocks } from '../../../../shared/sql/transaction-blocks'
import { useOperationRequest } from '../../app/operation-request'
import { useSettingsStore } from '../../app/settings-store'
import { asBridgeError, bridge } from '../../bridge'
import { useIdSuggestions } from '../../lib/suggestions'
import { Button } from '../../ui/Button'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { SuggestInput } from '../../ui/SuggestInput'
import { ResultsPane, sqlErrorDetails } from './ResultsPane'
import { whereIdsComeFrom } from '../../lib/id-kinds'
import { ambiguousNameMessage, readNameOrId } from '../ops-common/name-or-id'
import { planEach, planModeOf, statementsToRun, type Planner } from './planned-statements'
import { planRun, type FlaggedStatement } from './run-plan'
import { SchemaPanel } from './SchemaPanel'
import { useQueryLibrary } from './library/useQueryLibrary'
import { useParameterForm } from './parameters/ParameterForm'
import { SqlEditor, type SqlEditorHandle } from './SqlEditor'
import { flushTabSaves, selectRuntime, useSqlStore, type StatementOutcome } from './store'
import './sql.css'

/*
 * The SQL console: editor tabs bound to a profile and a database, the schema browser, and the
 * results. Statements are split and classified here before anything is sent: a read-only tab
 * refuses writes outright, a protected profile asks first, naming each write. Main checks both
 * again. The heavy parts (CodeMirror, the grid) load with this module, on first visit only.
 */

const DEFAULT_MAX_ROWS = 1000
const RUN_POSTGRES_QUERY = ['runPostgresQuery'] as const

export default function SqlConsole({ profile }: { profile: Profile }) {
  const settingsMaxRows = useSettingsStore((state) => state.settings?.defaultMaxRows)
  const defaultMaxRows = settingsMaxRows ?? DEFAULT_MAX_ROWS
  const tabs = useSqlStore((state) => state.tabs)
  const activeTabId = useSqlStore((state) => state.activeTabId)
  const error = useSqlStore((state) => state.error)
  const loading = useSqlStore((state) => state.loading)
  const { suggestions, names, remember } = useIdSuggestions(profile, 'database', (seed) => {
    const databases = seed['databases'] as { postgres?: string[] } | undefined
    return databases?.postgres ?? []
  })

  useEffect(() => {
    void useSqlStore.getState().load(profile.id, { maxRows: defaultMaxRows, databaseId: '' })
    // The default only matters for the first tab; a settings change must not reload the tabs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [profile.id])

  // The palette's "execute … statement <database id>": the open tab runs against that database. After the
  // tabs' load above, so the store is read once this profile's tabs are there.
  useOperationRequest(RUN_POSTGRES_QUERY, (request) => {
    const id = request.ids['id']
    if (id === undefined) return
    const sql = useSqlStore.getState()
    if (sql.profileId !== profile.id || sql.loading || sql.activeTabId === null) return false
    sql.update(sql.activeTabId, { databaseId: id })
  })

  useEffect(
    () =>
      bridge.on('sql.result.completed', (completed) =>
        useSqlStore.getState().completeResult(completed),
      ),
    [],
  )

  useEffect(() => {
    window.addEventListener('beforeunload', flushTabSaves)
    return () => {
      window.removeEventListener('beforeunload', flushTabSaves)
      flushTabSaves()
    }
  }, [])

  const tab = tabs.find((candidate) => candidate.id === activeTabId) ?? null
  const addTab = (fields: Partial<SqlTab> = {}) =>
    void useSqlStore
      .getState()
      .add({
        maxRows: defaultMaxRows,
        databaseId: tab?.databaseId || suggestions[0] || '',
        ...fields,
      })
      .catch((caught: unknown) => useSqlStore.setState({ error: asBridgeError(caught) }))

  return (
    <section className="screen sql-screen" aria-labelledby="sql-title">
      <header className="screen-header sql-header">
        <h1 id="sql-title">SQL console</h1>
        <div className="sql-tabs">
          {/*
           * The tablist holds only tabs (ARIA): a tab closes with Delete, or with a click on its
           * ×, which is part of the tab rather than a second button inside the tablist.
           */}
          <div className="sql-tablist" role="tablist" aria-label="Editor tabs">
            {tabs.map((item) => (
              <div
                key={item.id}
                role="presentation"
                className={`sql-tab${item.id === activeTabId ? ' sql-tab-active' : ''}`}
              >
                <button
                  type="button"
                  role="tab"
                  aria-selected={item.id === activeTabId}
                  aria-keyshortcuts="Delete"
                  onClick={() => useSqlStore.getState().select(item.id)}
                  onKeyDown={(event) => {
                    if (event.key !== 'Delete') return
                    event.preventDefault()
                    void useSqlStore.getState().close(item.id)
                  }}
                  title={`${item.title} · ${item.databaseId || 'no database'}${item.readOnly ? ' · read-only' : ''} (Delete closes it)`}
                >
                  {item.readOnly ? '🔒 ' : ''}
                  {item.title}
                  <span
                    className="sql-tab-close"
                    aria-hidden="true"
                    onClick={(event) => {
                      event.stopPropagation()
                      void useSqlStore.getState().close(item.id)
                    }}
                  >
                    ×
                  </span>
                </button>
              </div>
            ))}
          </div>
          <Button size="small" variant="ghost" onClick={() => addTab()} aria-label="New tab">
            +
          </Button>
        </div>
      </header>
      {error ? <ErrorBanner error={error} context="SQL tabs" /> : null}
      {tab ? (
        <TabWorkspace
          key={tab.id}
          profile={profile}
          tab={tab}
          suggestions={suggestions}
          databaseNames={names}
          onDatabaseUsed={remember}
          onOpenInNewTab={(entry) =>
            addTab({ text: entry.sql, databaseId: entry.databaseId, title: undefined })
          }
        />
      ) : (
        <p className="muted">{loading ? 'Loading tabs…' : 'No tab open.'}</p>
      )}
    </section>
  )
}

/** A statement as main's guard planned it (`sql.plan`), offsets in the editor's text. */
type Statement = SqlPlannedStatement

interface PendingConfirmation {
  statements: Statement[]
  flagged: FlaggedStatement[]
  title: 'protected' | 'destructive'
  mode: RunMode
  maxRows: number
}

type RunMode = 'run' | 'explain'

function TabWorkspace({
  profile,
  tab,
  suggestions,
  databaseNames,
  onDatabaseUsed,
  onOpenInNewTab,
}: {
  profile: Profile
  tab: SqlTab
  suggestions: string[]
  /** Names of the suggested databases (learned with their schema), shown beside their ids. */
  databaseNames: ReadonlyMap<string, string>
  onDatabaseUsed(databaseId: string): void
  onOpenInNewTab(entry: SqlHistoryEntry): void
}) {
  const editor = useRef<SqlEditorHandle>(null)
  const runtime = useSqlStore(selectRuntime(tab.id))
  const [schema, setSchema] = useState<{ databaseId: string; tree: SqlSchemaTree | null }>({
    databaseId: '',
    tree: null,
  })
  const schemaDatabaseId = useDebounced(tab.databaseId.trim(), 500)
  const schemaTree = schema.databaseId === schemaDatabaseId ? schema.tree : null
  const [analyze, setAnalyze] = useState(false)
  const [confirm, setConfirm] = useState<PendingConfirmation | null>(null)
  // Saved queries and :name parameters: ./library and ./parameters.
  const parameterForm = useParameterForm(tab.id)
  const library = useQueryLibrary(tab, { maxRows: tab.maxRows, databaseId: tab.databaseId })
  const cancelRequested = useRef(false)
  const databaseNoteId = useId()
  /** A run being planned by main (`sql.plan`): a second Run waits for it to be sent or refused. */
  const planning = useRef(false)
  /** The tab's database as the store has it now (a name typed may have just become its id). */
  const databaseIdNow = () =>
    (
      useSqlStore.getState().tabs.find((candidate) => candidate.id === tab.id)?.databaseId ??
      tab.databaseId
    ).trim()
  /** What the database field holds: an id, or a name the app has seen. */
  const databaseReading = readNameOrId(tab.databaseId, databaseNames)
  /** A name the app has seen for exactly one database becomes its id; false when it is several's. */
  const resolveDatabaseName = (): boolean => {
    if (databaseReading.kind === 'ambiguous') {
      setRuntime({ notice: ambiguousNameMessage(databaseReading) })
      return false
    }
    if (databaseReading.kind === 'name') update({ databaseId: databaseReading.id })
    return true
  }
  /** Leaving the field (or Enter) puts a known name's id in it; a shared name stays, noted below. */
  const takeKnownName = () => {
    if (databaseReading.kind === 'name') update({ databaseId: databaseReading.id })
  }
  const planner: Planner = (sql, planMode) =>
    bridge.call('sql.plan', {
      sql,
      mode: planMode,
      profileId: profile.id,
      databaseId: databaseIdNow(),
    })
  const update = (patch: Partial<SqlTab>) => useSqlStore.getState().update(tab.id, patch)
  const setRuntime = useCallback(
    (patch: Parameters<ReturnType<typeof useSqlStore.getState>['setRuntime']>[1]) =>
      useSqlStore.getState().setRuntime(tab.id, patch),
    [tab.id],
  )

  const completionSchema = useMemo(() => toCompletionSchema(schemaTree), [schemaTree])

  /** Sends the statements one by one; the first error stops the rest. */
  const execute = async (
    statements: Statement[],
    mode: RunMode,
    confirmedWrite: boolean,
    maxRows: number,
  ) => {
    const store = useSqlStore.getState()
    store.releaseResults(tab.id)
    cancelRequested.current = false
    editor.current?.markError(null)
    const outcomes: StatementOutcome[] = []
    setRuntime({
      outcomes,
      active: 0,
      notice: null,
      view: mode === 'explain' ? 'plan' : 'results',
      ...(mode === 'explain' ? { plan: null } : {}),
    })
    // A transaction block goes to main whole (sql.runBlock): a service that runs each request on
    // any of its pooled connections must get the whole block in one request.
    const groups = mode === 'run' ? groupTransactionBlocks(statements) : []
    const blockAt = new Map(
      groups.filter((group) => group.block).map((group) => [group.from, group]),
    )
    let separately = new Set<number>()
    for (let index = 0; index < statements.length; index += 1) {
      const statement = statements[index]!
      if (cancelRequested.current) break
      const runId = crypto.randomUUID()
      const block = separately.has(index) ? undefined : blockAt.get(index)
      setRuntime({
        running: { runId, index: index + 1, total: statements.length, startedAt: Date.now() },
      })
      editor.current?.flash(statement.from, block ? statements[block.to - 1]!.to : statement.to)
      const target = {
        profileId: profile.id,
        databaseId: databaseIdNow(),
        tabId: tab.id,
        runId,
        readOnly: tab.readOnly,
        confirmedWrite,
        sql: statement.text,
      }
      // The statements of a block that failed as a whole (the service names none of them).
      let failedBlock: Statement[] = []
      try {
        if (mode === 'explain') {
          const explained = await bridge.call('sql.explain', { ...target, analyze })
          setRuntime({
            plan: { plan: explained.plan, analyze, statement: statement.text },
            view: 'plan',
          })
        } else if (block) {
          const members = statements.slice(block.from, block.to)
          failedBlock = members.slice(1)
          const { sql: _first, ...blockTarget } = target
          void _first
          const answer = await bridge.call('sql.runBlock', {
            ...blockTarget,
            statements: members.map((member) => member.text),
            maxRows,
          })
          failedBlock = []
          if ('separately' in answer) {
            // This service keeps one session: the block's statements go one by one.
            separately = new Set(members.map((_, offset) => block.from + offset))
            index -= 1
            continue
          }
          members.forEach((member, offset) => {
            const meta = answer.results[offset] ?? null
            outcomes.push({
              statement: member.text,
              from: member.from,
              meta,
              error: null,
              ...(meta === null ? { skipped: 'no-result' as const } : {}),
            })
          })
          index = block.to - 1
          setRuntime({ outcomes: [...outcomes], active: outcomes.length - 1, view: 'results' })
        } else {
          const meta = await bridge.call('sql.run', { ...target, maxRows })
          outcomes.push({ statement: statement.text, from: statement.from, meta, error: null })
          setRuntime({ outcomes: [...outcomes], active: outcomes.length - 1, view: 'results' })
        }
        onDatabaseUsed(target.databaseId)
      } catch (caught) {
        const error = asBridgeError(caught)
        outcomes.push({ statement: statement.text, from: statement.from, meta: null, error })
        for (const member of failedBlock) {
          outcomes.push({
            statement: member.text,
            from: member.from,
            meta: null,
            error: null,
            skipped: 'in-failed-block',
          })
        }
        const failedAt = index
        const what = failedBlock.length > 0 ? 'The transaction block at statement' : 'Statement'
        index += failedBlock.length
        const { position } = sqlErrorDetails(error)
        if (position !== null) editor.current?.markError(statement.from + position - 1)
        const skipped = statements.length - index - 1
        // Run all's option (results pane): a failure does not stop the statements after it.
        if (skipped > 0 && error.code !== 'CANCELLED' && useSqlStore.getState().continueOnError) {
          setRuntime({
            outcomes: [...outcomes],
            view: 'results',
            notice: `${what} ${failedAt + 1} failed; the run went on (Continue after errors).`,
          })
          continue
        }
        const notice =
          error.code === 'CANCELLED'
            ? error.message
            : skipped > 0
              ? `${what} ${failedAt + 1} failed; ${notRunAfter(skipped)}`
              : null
        const notRun = statements.slice(index + 1).map((rest) => ({
          statement: rest.text,
          from: rest.from,
          meta: null,
          error: null,
          skipped:
            error.code === 'CANCELLED' ? ('after-cancel' as const) : ('after-failure' as const),
        }))
        setRuntime({
          outcomes: [...outcomes, ...notRun],
          active: outcomes.length - 1 - failedBlock.length,
          view: 'results',
          notice:
            notice && skipped > 0 && error.code === 'CANCELLED'
              ? `${notice} ${capitalised(notRunAfter(skipped))}`
              : notice,
        })
        break
      }
    }
    setRuntime({ running: null })
  }

  const run = (
    scope: 'current' | 'all',
    mode: RunMode,
    maxRows = tab.maxRows,
    withParameters?: Statement[],
  ) => {
    if (useSqlStore.getState().runtimeOf(tab.id).running || planning.current) return
    const snapshot = editor.current?.snapshot()
    if (!snapshot) return
    if (tab.databaseId.trim() === '') {
      setRuntime({ notice: 'Enter the id (or a known name) of a PostgreSQL database first.' })
      return
    }
    if (!resolveDatabaseName()) return
    planning.current = true
    void planThenRun(scope, mode, maxRows, snapshot, withParameters)
      .catch((caught: unknown) =>
        setRuntime({ outcomes: [], view: 'results', notice: asBridgeError(caught).message }),
      )
      .finally(() => {
        planning.current = false
      })
  }

  /**
   * The statements as main's guard splits and judges them (`sql.plan`), then the parameter form,
   * then what the tab and the profile allow: refused, asked about, or sent.
   */
  const planThenRun = async (
    scope: 'current' | 'all',
    mode: RunMode,
    maxRows: number,
    snapshot: { text: string; from: number; to: number },
    withParameters?: Statement[],
  ) => {
    const planMode = planModeOf(mode, analyze)
    const statements: Statement[] =
      withParameters ?? (await statementsToRun(planner, snapshot, scope, planMode))
    if (statements.length === 0) {
      setRuntime({ notice: 'Nothing to run: the editor holds no statement there.' })
      return
    }
    // Parameters (./parameters): with `:name` placeholders a form asks for values
    // first; the run resumes with the statements as sent (literals in), planned again.
    if (withParameters === undefined) {
      const asked = parameterForm.ask(statements, snapshot.text, (bound) => {
        planning.current = true
        void planEach(planner, bound, planMode)
          .then((planned) => planThenRun(scope, mode, maxRows, snapshot, planned))
          .catch((caught: unknown) =>
            setRuntime({ outcomes: [], view: 'results', notice: asBridgeError(caught).message }),
          )
          .finally(() => {
            planning.current = false
          })
      })
      if (asked) return
    }
    const plan = planRun(statements, {
      readOnly: tab.readOnly,
      protectedProfile: profile.protected,
      confirmDestructive: useSettingsStore.getState().settings?.confirmDestructive ?? true,
    })
    if (plan.kind === 'refuse') {
      setRuntime({ outcomes: [], view: 'results', notice: plan.notice })
      editor.current?.flash(plan.statement.from, plan.statement.to)
      return
    }
    if (plan.kind === 'confirm') {
      setConfirm({ statements, flagged: plan.flagged, title: plan.title, mode, maxRows })
      return
    }
    void execute(statements, mode, false, maxRows)
  }

  const cancel = (): boolean => {
    const running = useSqlStore.getState().runtimeOf(tab.id).running
    if (!running) return false
    cancelRequested.current = true
    void bridge.call('sql.cancel', { runId: running.runId }).catch(() => undefined)
    return true
  }

  useEffect(() => {
    // Esc cancels wherever the focus is in the console (the editor handles its own Esc).
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented && cancel()) event.preventDefault()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  })

  const running = runtime.running
  return (
    <div className={`sql-workspace${library.panel ? ' sql-workspace-library' : ''}`}>
      <SchemaPanel
        key={schemaDatabaseId}
        profileId={profile.id}
        databaseId={schemaDatabaseId}
        onInsert={(text) => editor.current?.insert(text)}
        onTree={(tree) => setSchema({ databaseId: schemaDatabaseId, tree })}
      />
      <div className="sql-main">
        <div className="sql-toolbar" role="toolbar" aria-label="Statement">
          <label className="sql-field">
            <span>Database</span>
            <SuggestInput
              suggestions={suggestions}
              names={databaseNames}
              aria-label="Database id"
              aria-describedby={databaseReading.kind === 'id' ? undefined : databaseNoteId}
              placeholder="database id or name"
              title={whereIdsComeFrom('database') ?? undefined}
              value={tab.databaseId}
              onChange={(event) => update({ databaseId: event.target.value })}
              onBlur={takeKnownName}
              onKeyDown={(event) => {
                if (event.key === 'Enter') takeKnownName()
              }}
            />
          </label>
          <label className="sql-field sql-field-narrow">
            <span>Max rows</span>
            <input
              className="input"
              type="number"
              min={1}
              max={SQL_MAX_ROWS}
              aria-label="Max rows"
              value={tab.maxRows}
              onChange={(event) => {
                const value = Math.floor(Number(event.target.value))
                if (Number.isFinite(value) && value >= 1 && value <= SQL_MAX_ROWS) {
                  update({ maxRows: value })
                }
              }}
            />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={tab.readOnly}
              onChange={(event) => update({ readOnly: event.target.checked })}
            />
            Read-only tab
          </label>
          {library.toolbar}
          <span className="sql-toolbar-gap" />
          <Button
            variant="primary"
            onClick={() => run('current', 'run')}
            disabled={running !== null}
            aria-keyshortcuts="Control+Enter"
            title="Run the statement under the cursor, or the selection (Ctrl+Enter)"
          >
            Run
          </Button>
          <Button
            onClick={() => run('all', 'run')}
            disabled={running !== null}
            aria-keyshortcuts="Shift+Control+Enter"
            title="Run every statement in the editor (Shift+Ctrl+Enter)"
          >
            Run all
          </Button>
          <Button onClick={() => run('current', 'explain')} disabled={running !== null}>
            Explain
          </Button>
          <label
            className="checkbox"
            title="EXPLAIN ANALYZE runs the statement: a write is a write"
          >
            <input
              type="checkbox"
              checked={analyze}
              onChange={(event) => setAnalyze(event.target.checked)}
            />
            ANALYZE
          </label>
          <Button
            variant="danger"
            onClick={() => cancel()}
            disabled={running === null}
            aria-keyshortcuts="Escape"
            title="Stop waiting for the answer (Esc). The service has no cancel: the statement may still finish on the server."
          >
            Cancel
          </Button>
        </div>
        {databaseReading.kind === 'id' ? null : (
          <div id={databaseNoteId} className="sql-database-note" role="status">
            {databaseReading.kind === 'name' ? (
              <>
                “{databaseReading.name}” is <code>{databaseReading.id}</code>: leave the field or
                press Enter to use it.
              </>
            ) : (
              ambiguousNameMessage(databaseReading)
            )}
          </div>
        )}
        {profile.protected ? (
          <div className="sql-protected" role="note">
            Protected profile: statements that are not proven read-only ask before they run.
          </div>
        ) : null}
        <SqlEditor
          ref={editor}
          label="SQL editor"
          initialValue={tab.text}
          schema={completionSchema}
          readOnlyHint={tab.readOnly}
          onChange={(text) => update({ text })}
          onRunCurrent={() => run('current', 'run')}
          onRunAll={() => run('all', 'run')}
          onCancel={cancel}
        />
        <div className="sql-status" role="status" aria-live="polite">
          {running ? `Running statement ${running.index} of ${running.total}… (Esc cancels)` : ''}
        </div>
        <ResultsPane
          tabId={tab.id}
          profileId={profile.id}
          databaseId={tab.databaseId.trim()}
          runtime={runtime}
          onView={(view, active) =>
            setRuntime({ view, ...(active === undefined ? {} : { active }) })
          }
          onRerunWithMoreRows={(maxRows) => {
            update({ maxRows })
            const items = runtime.outcomes.map((outcome) => ({
              text: outcome.statement,
              from: outcome.from,
              to: outcome.from + outcome.statement.length,
            }))
            if (items.length === 0 || planning.current) return
            planning.current = true
            void planEach(planner, items, 'run')
              .then((statements) => {
                const plan = planRun(statements, {
                  readOnly: tab.readOnly,
                  protectedProfile: profile.protected,
                  confirmDestructive:
                    useSettingsStore.getState().settings?.confirmDestructive ?? true,
                })
                if (plan.kind === 'confirm') {
                  setConfirm({
                    statements,
                    flagged: plan.flagged,
                    title: plan.title,
                    mode: 'run',
                    maxRows,
                  })
                } else if (plan.kind === 'send') {
                  void execute(statements, 'run', false, maxRows)
                }
              })
              .catch((caught: unknown) => setRuntime({ notice: asBridgeError(caught).message }))
              .finally(() => {
                planning.current = false
              })
          }}
          onOpenHistory={onOpenInNewTab}
        />
      </div>
      {library.panel}
      {library.dialogs}
      {parameterForm.element}
      <ConfirmDialog
        open={confirm !== null}
        title={
          confirm?.title === 'destructive'
            ? 'Run a destructive statement?'
            : `Run on protected profile "${profile.name}"?`
        }
        confirmLabel={
          confirm && confirm.statements.length > 1
            ? `Run ${confirm.statements.length} statements`
            : 'Run statement'
        }
        onCancel={() => {
          setConfirm(null)
          setRuntime({ notice: 'Not run: you cancelled. Nothing was sent.' })
        }}
        onConfirm={() => {
          const pending = confirm
          setConfirm(null)
          if (pending) void execute(pending.statements, pending.mode, true, pending.maxRows)
        }}
      >
        <p>
          {confirm?.title === 'destructive'
            ? confirm.flagged.length === 1
              ? 'This statement changes or removes more than it may seem:'
              : `These ${confirm.flagged.length} statements change or remove more than they may seem:`
            : confirm && confirm.flagged.length === 1
              ? 'This statement is not read-only:'
              : `These ${confirm?.flagged.length ?? 0} statements are not read-only:`}
        </p>
        {confirm?.flagged.map(({ statement, reason }, index) => (
          <div key={index} className="sql-confirm-item">
            <pre className="sql-confirm-sql">{statement.text}</pre>
            <div className="sql-confirm-reason">{reason}</div>
          </div>
        ))}
        <p className="muted">
          Database {databaseNames.get(tab.databaseId.trim()) ?? ''} <code>{tab.databaseId}</code> on{' '}
          {profile.name}.
        </p>
      </ConfirmDialog>
    </div>
  )
}

/** The value, once it has stopped changing for `delay` ms (a database id being typed). */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay)
    return () => window.clearTimeout(timer)
  }, [value, delay])
  return settled
}

/** The schema browser's tree as CodeMirror's completion namespace: schema → table → columns. */
function toCompletionSchema(tree: SqlSchemaTree | null): SQLNamespace | undefined {
  if (!tree) return undefined
  const namespace: Record<string, Record<string, string[]>> = {}
  for (const schema of tree.schemas) {
    const tables: Record<string, string[]> = {}
    for (const relation of schema.relations) {
      tables[relation.name] = relation.columns.map((column) => column.name)
    }
    namespace[schema.name] = tables
  }
  return namespace
}

/** "the statement after it was not run." / "the 3 statements after it were not run." */
function notRunAfter(count: number): string {
  return count === 1
    ? 'the statement after it was not run.'
    : `the ${count} statements after it were not run.`
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
