import { useEffect, useState, type ReactNode } from 'react'
import type { BridgeError } from '../../../../shared/bridge'
import type { SqlHistoryEntry, SqlResultMeta } from '../../../../shared/bridge/channels/sql'
import { SQL_MAX_ROWS } from '../../../../shared/bridge/channels/sql'
import { asBridgeError, bridge } from '../../bridge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { CompareGrid } from './CompareGrid'
import { HistoryPanel } from './HistoryPanel'
import { prettyJsonText } from './pretty-json'
import { PlanTree } from './PlanTree'
import { ResultGrid, type GridSelection, type Sort } from './ResultGrid'
import { useSqlStore, type PinnedResult, type StatementOutcome, type TabRuntime } from './store'

/*
 * Below the editor: one result tab per statement run (its status, row count and time on the
 * tab; a statement a failure kept from running says so), the plan, and the history. A result
 * shows its meta (command tag, rows, duration, truncation), copy and save, and the grid; an
 * error shows its code, message and SQLSTATE. A pinned result stays beside the next runs' and
 * compares with them by a key column.
 */

interface ResultsPaneProps {
  /** The editor tab whose results these are (pinning and comparing are kept per tab). */
  tabId: string
  profileId: string
  databaseId: string
  runtime: TabRuntime
  onView(view: TabRuntime['view'], active?: number): void
  onRerunWithMoreRows(maxRows: number): void
  onOpenHistory(entry: SqlHistoryEntry): void
}

export function ResultsPane({
  tabId,
  profileId,
  databaseId,
  runtime,
  onView,
  onRerunWithMoreRows,
  onOpenHistory,
}: ResultsPaneProps) {
  const outcome = runtime.outcomes[runtime.active]
  const continueOnError = useSqlStore((state) => state.continueOnError)
  const { pinned, comparison } = runtime
  const pin = (next: PinnedResult | null) => useSqlStore.getState().pin(tabId, next)
  const outcomeView = outcome ? (
    <OutcomeView
      key={outcome.meta?.resultId ?? `error-${runtime.active}`}
      profileId={profileId}
      outcome={outcome}
      pinned={pinned?.meta.resultId === outcome.meta?.resultId}
      onPin={() => outcome.meta && pin({ statement: outcome.statement, meta: outcome.meta })}
      onRerunWithMoreRows={onRerunWithMoreRows}
    />
  ) : (
    <p className="muted sql-results-empty">
      {runtime.running
        ? 'Running…'
        : 'Run a statement with Ctrl+Enter (the one under the cursor, or the selection), or all of them with Shift+Ctrl+Enter.'}
    </p>
  )
  return (
    <section className="sql-results" aria-label="Results">
      <div className="sql-results-bar">
        <div className="sql-results-tabs" role="tablist" aria-label="Results">
          {runtime.outcomes.map((item, index) => (
            <ViewTab
              key={index}
              selected={runtime.view === 'results' && runtime.active === index}
              failed={item.error !== null}
              onSelect={() => onView('results', index)}
              title={item.statement}
            >
              {runtime.outcomes.length > 1 ? `Result ${index + 1}` : 'Result'}
              <span className="sql-results-tab-facts">{outcomeFacts(item)}</span>
            </ViewTab>
          ))}
          {runtime.plan ? (
            <ViewTab selected={runtime.view === 'plan'} onSelect={() => onView('plan')}>
              Plan
            </ViewTab>
          ) : null}
          <ViewTab selected={runtime.view === 'history'} onSelect={() => onView('history')}>
            History
          </ViewTab>
        </div>
        <label
          className="checkbox sql-continue"
          title="Run all: run the statements after a failing one too (off: the first failure stops the rest)"
        >
          <input
            type="checkbox"
            checked={continueOnError}
            onChange={(event) => useSqlStore.getState().setContinueOnError(event.target.checked)}
          />
          Continue after errors
        </label>
      </div>
      {runtime.notice ? (
        <div className="banner banner-warning sql-notice" role="status">
          {runtime.notice}
        </div>
      ) : null}
      <div className="sql-results-body">
        {runtime.view === 'history' ? (
          <HistoryPanel profileId={profileId} databaseId={databaseId} onOpen={onOpenHistory} />
        ) : runtime.view === 'plan' && runtime.plan ? (
          <PlanTree plan={runtime.plan.plan} analyze={runtime.plan.analyze} />
        ) : pinned && comparison ? (
          <ComparisonView
            pinned={pinned}
            comparison={comparison}
            onClose={() => useSqlStore.getState().setComparison(tabId, null)}
          />
        ) : pinned ? (
          <div className="sql-results-split">
            <PinnedView
              tabId={tabId}
              pinned={pinned}
              against={outcome?.meta ?? null}
              onUnpin={() => pin(null)}
            />
            <div className="sql-results-current">{outcomeView}</div>
          </div>
        ) : (
          outcomeView
        )}
      </div>
    </section>
  )
}

/** A result tab's status, rows and time, said on the tab itself. */
/** "1 row", "2,000 rows". */
function rowsText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`
}

function outcomeFacts(outcome: StatementOutcome): string {
  if (outcome.skipped === 'no-result') return ' · no result'
  if (outcome.skipped === 'in-failed-block') return ' · block failed'
  if (outcome.skipped) return ' · not run'
  if (outcome.error) return outcome.error.code === 'CANCELLED' ? ' · cancelled' : ' · failed'
  const meta = outcome.meta
  if (!meta) return ''
  const rows =
    meta.fields.length > 0
      ? rowsText(meta.rows)
      : `${(meta.rowCount ?? 0).toLocaleString('en-US')} affected`
  return ` · ${rows} · ${Math.round(meta.elapsedMs).toLocaleString('en-US')} ms`
}

function OutcomeView({
  profileId,
  outcome,
  pinned,
  onPin,
  onRerunWithMoreRows,
}: {
  profileId: string
  outcome: StatementOutcome
  /** This result is the pinned one. */
  pinned: boolean
  onPin(): void
  onRerunWithMoreRows(maxRows: number): void
}) {
  if (outcome.skipped === 'after-cancel') {
    return (
      <p className="muted sql-results-empty" role="status">
        Not run: you cancelled the run at a statement before it.
      </p>
    )
  }
  if (outcome.skipped === 'no-result') {
    return (
      <p className="muted sql-results-empty" role="status">
        Ran in its transaction block, which was sent whole; the service answered only the
        block&apos;s last result.
      </p>
    )
  }
  if (outcome.skipped === 'in-failed-block') {
    return (
      <p className="muted sql-results-empty" role="status">
        Part of a transaction block that failed: the block was sent whole, the service does not say
        which of its statements failed, and nothing of the block was committed.
      </p>
    )
  }
  if (outcome.skipped) {
    return (
      <p className="muted sql-results-empty" role="status">
        Not run: a statement before it failed, and the run stopped there. Turn on “Continue after
        errors” to run the rest past a failure.
      </p>
    )
  }
  // A cancel is the user's own doing, not a failure: the notice above says what it means.
  if (outcome.error?.code === 'CANCELLED') {
    return <p className="muted sql-results-empty">No result: you cancelled this statement.</p>
  }
  if (outcome.error) return <SqlErrorView error={outcome.error} />
  if (!outcome.meta) return null
  return (
    <ResultView
      profileId={profileId}
      meta={outcome.meta}
      pinned={pinned}
      onPin={onPin}
      onRerunWithMoreRows={onRerunWithMoreRows}
    />
  )
}

/**
 * The pinned result, beside the current one: its own grid (sortable, read from main), and a
 * comparison with the current result by a key column chosen from the columns they share.
 */
function PinnedView({
  tabId,
  pinned,
  against,
  onUnpin,
}: {
  tabId: string
  pinned: PinnedResult
  against: SqlResultMeta | null
  onUnpin(): void
}) {
  const grid = useResultGrid(pinned.meta.resultId)
  // A column named id is the likely key; any column of the pinned result may be chosen.
  const [keyColumn, setKeyColumn] = useState(() =>
    Math.max(
      0,
      pinned.meta.fields.findIndex((field) => field.name === 'id'),
    ),
  )
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<BridgeError | null>(null)
  const { meta } = pinned
  const comparable =
    against !== null && against.resultId !== meta.resultId && against.fields.length > 0

  const compare = async () => {
    if (!against) return
    setBusy(true)
    setError(null)
    const comparisonId = crypto.randomUUID()
    try {
      const counts = await bridge.call('sql.compare', {
        comparisonId,
        before: meta.resultId,
        after: against.resultId,
        keyColumn,
      })
      useSqlStore
        .getState()
        .setComparison(tabId, { comparisonId, afterResultId: against.resultId, keyColumn, counts })
    } catch (caught) {
      setError(asBridgeError(caught))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="sql-result sql-pinned" aria-label="Pinned result" role="region">
      <div className="sql-meta" data-testid="sql-pinned-meta">
        <strong>📌 Pinned</strong>
        {' · '}
        {rowsText(meta.rows)}
        <span className="sql-meta-actions">
          {comparable ? (
            <>
              <label className="sql-compare-key">
                Key
                <select
                  className="input"
                  aria-label="Key column"
                  value={keyColumn}
                  onChange={(event) => setKeyColumn(Number(event.target.value))}
                >
                  {meta.fields.map((field, index) => (
                    <option key={index} value={index}>
                      {field.name}
                    </option>
                  ))}
                </select>
              </label>
              <Button size="small" busy={busy} onClick={() => void compare()}>
                Compare
              </Button>
            </>
          ) : null}
          <Button size="small" variant="ghost" onClick={onUnpin}>
            Unpin
          </Button>
        </span>
      </div>
      <pre className="sql-pinned-sql" title={pinned.statement}>
        {pinned.statement}
      </pre>
      <ResultRows
        meta={meta}
        label="Pinned rows"
        error={error}
        grid={grid}
        onSort={(next) => {
          grid.sortBy(next).catch((caught: unknown) => setError(asBridgeError(caught)))
        }}
        onOpenValue={() => undefined}
        onCopySelection={() => undefined}
      />
    </div>
  )
}

/** The comparison's counts and rows (computed in main), until it is closed. */
function ComparisonView({
  pinned,
  comparison,
  onClose,
}: {
  pinned: PinnedResult
  comparison: NonNullable<TabRuntime['comparison']>
  onClose(): void
}) {
  const { added, removed, changed, unchanged } = comparison.counts
  const key = pinned.meta.fields[comparison.keyColumn]?.name ?? ''
  return (
    <div className="sql-result sql-comparison" role="region" aria-label="Comparison">
      <div className="sql-meta" data-testid="sql-compare-meta">
        <strong>Compared with the pinned result by {key}</strong>
        {' · '}
        {`${added.toLocaleString('en-US')} added · ${removed.toLocaleString('en-US')} removed · ${changed.toLocaleString('en-US')} changed · ${unchanged.toLocaleString('en-US')} unchanged`}
        <span className="sql-meta-actions">
          <Button size="small" variant="ghost" onClick={onClose}>
            Close comparison
          </Button>
        </span>
      </div>
      {added + removed + changed === 0 ? (
        <p className="muted sql-results-empty">The results hold the same rows.</p>
      ) : (
        <div className="sql-result-main">
          <CompareGrid comparison={comparison} fields={pinned.meta.fields} />
        </div>
      )}
    </div>
  )
}

export function sqlErrorDetails(error: BridgeError): {
  sqlState: string | null
  position: number | null
  message: string | null
} {
  const details = error.details as
    { sqlState?: unknown; position?: unknown; message?: unknown } | undefined
  return {
    sqlState: typeof details?.sqlState === 'string' ? details.sqlState : null,
    position: typeof details?.position === 'number' ? details.position : null,
    message: typeof details?.message === 'string' ? details.message : null,
  }
}

/** One error, one box: PostgreSQL's message and facts inside the banner that announces them. */
function SqlErrorView({ error }: { error: BridgeError }) {
  const { sqlState, position, message } = sqlErrorDetails(error)
  return (
    <div className="sql-error">
      <ErrorBanner error={error}>
        {message ? <p className="sql-error-message">{message}</p> : null}
        {sqlState || position ? (
          <p className="sql-error-facts">
            {sqlState ? (
              <>
                SQLSTATE <code data-testid="sqlstate">{sqlState}</code>
              </>
            ) : null}
            {sqlState && position ? ' · ' : null}
            {position ? `at character ${position} (marked ▲ in the editor)` : null}
          </p>
        ) : null}
      </ErrorBanner>
    </div>
  )
}

function ResultView({
  profileId,
  meta,
  pinned,
  onPin,
  onRerunWithMoreRows,
}: {
  profileId: string
  meta: SqlResultMeta
  pinned: boolean
  onPin(): void
  onRerunWithMoreRows(maxRows: number): void
}) {
  const grid = useResultGrid(meta.resultId)
  const { selection } = grid
  const [message, setMessage] = useState<string | null>(null)
  const [error, setError] = useState<BridgeError | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const [value, setValue] = useState<{ row: number; column: number; text: string | null } | null>(
    null,
  )

  useEffect(() => {
    if (!message) return
    const timer = window.setTimeout(() => setMessage(null), 4000)
    return () => window.clearTimeout(timer)
  }, [message])

  const act = async (label: string, work: () => Promise<string>) => {
    setBusy(label)
    setError(null)
    try {
      setMessage(await work())
    } catch (caught) {
      setError(asBridgeError(caught))
    } finally {
      setBusy(null)
    }
  }

  const applySort = (next: Sort) =>
    act('sort', async () => {
      await grid.sortBy(next)
      return next
        ? `Sorted by ${meta.fields[next.column]?.name} (${next.direction}ending)`
        : 'Original order'
    })

  const copy = (
    format: 'tsv' | 'csv' | 'json' | 'markdown',
    range?: { from: number; to: number },
  ) =>
    act(`copy-${format}`, async () => {
      const copied = await bridge.call('sql.copy', {
        resultId: meta.resultId,
        format,
        ...(range ? { range } : {}),
      })
      await navigator.clipboard.writeText(copied.text)
      return `Copied ${rowsText(copied.rows)} as ${format.toUpperCase()}`
    })

  const copySelection = () => {
    if (!selection) return
    if (selection.column !== null) {
      void act('copy-cell', async () => {
        const cell = await bridge.call('sql.cell', {
          resultId: meta.resultId,
          row: selection.from,
          column: selection.column ?? 0,
        })
        await navigator.clipboard.writeText(cell.value ?? '')
        return cell.value === null ? 'Copied NULL (as an empty value)' : 'Copied the cell'
      })
    } else {
      void copy('tsv', { from: selection.from, to: selection.to + 1 })
    }
  }

  const save = (format: 'csv' | 'json') =>
    act(`save-${format}`, async () => {
      const saved = await bridge.call('sql.save', { profileId, resultId: meta.resultId, format })
      return saved.path === null ? 'Not saved' : `Saved ${rowsText(saved.rows)} to ${saved.path}`
    })

  const openValue = (row: number, column: number) => {
    void bridge
      .call('sql.cell', { resultId: meta.resultId, row, column })
      .then((cell) => setValue({ row, column, text: cell.value }))
      .catch((caught: unknown) => setError(asBridgeError(caught)))
  }

  // A service that said it returns fewer rows (meta.rowLimit) is not asked for more.
  const ceiling = meta.rowLimit?.max ?? SQL_MAX_ROWS
  const nextLimit = Math.min(ceiling, (meta.maxRows ?? meta.rows) * 10)
  const field = value ? meta.fields[value.column] : undefined
  return (
    <div className="sql-result">
      <div
        className="sql-meta"
        data-testid="sql-meta"
        data-result-id={meta.resultId}
        data-received-at={meta.receivedAt}
        data-parse-ms={meta.parseMs}
        title={`The answer was parsed in ${Math.round(meta.parseMs)} ms`}
      >
        <strong>{meta.command || 'Done'}</strong>
        {' · '}
        {meta.fields.length > 0 ? rowsText(meta.rows) : `${rowsText(meta.rowCount ?? 0)} affected`}
        {meta.rowCount !== null && meta.fields.length > 0 && meta.rowCount !== meta.rows
          ? ` of ${meta.rowCount.toLocaleString('en-US')}`
          : ''}
        {' · '}
        {Math.round(meta.elapsedMs).toLocaleString('en-US')} ms
        {meta.durationMs !== null
          ? ` (service ${meta.durationMs.toLocaleString('en-US', { maximumFractionDigits: meta.durationMs < 10 ? 2 : 0 })} ms)`
          : ''}
        {meta.truncated
          ? meta.truncatedBy === 'size'
            ? ' · cut by the service'
            : ' · truncated'
          : ''}
        {meta.complete ? '' : ' · reading the rest…'}
        <span className="sql-meta-actions">
          {meta.fields.length > 0 ? (
            <>
              <Button size="small" onClick={copySelection} disabled={!selection}>
                Copy selection
              </Button>
              {(['tsv', 'csv', 'json', 'markdown'] as const).map((format) => (
                <Button
                  key={format}
                  size="small"
                  variant="ghost"
                  busy={busy === `copy-${format}`}
                  onClick={() => void copy(format)}
                >
                  Copy all as {format === 'markdown' ? 'Markdown' : format.toUpperCase()}
                </Button>
              ))}
              <Button size="small" busy={busy === 'save-csv'} onClick={() => void save('csv')}>
                Save CSV
              </Button>
              <Button size="small" busy={busy === 'save-json'} onClick={() => void save('json')}>
                Save JSON
              </Button>
              <Button
                size="small"
                onClick={onPin}
                disabled={pinned}
                title="Keep this result aside: the next runs open beside it, to compare"
              >
                {pinned ? 'Pinned' : 'Pin'}
              </Button>
            </>
          ) : null}
        </span>
      </div>
      {meta.rowLimit ? (
        <div className="banner banner-info sql-row-limit" role="note">
          This service returns at most {meta.rowLimit.max.toLocaleString('en-US')} rows per
          statement: the tab asks for {meta.rowLimit.asked.toLocaleString('en-US')}, so{' '}
          {meta.rowLimit.max.toLocaleString('en-US')} were asked.
        </div>
      ) : null}
      {meta.notes.map((note) => (
        <div key={note} className="banner banner-info sql-note" role="note">
          {note}
        </div>
      ))}
      {/* A cut at the service's size limit is said by its note; more rows would not help. */}
      {meta.truncated && meta.truncatedBy !== 'size' ? (
        <div className="banner banner-warning sql-truncated" role="status">
          Showing the first {rowsText(meta.rows)} only
          {meta.rowCount !== null ? ` of ${meta.rowCount.toLocaleString('en-US')}` : ''} (
          {meta.rowLimit ? "the service's row limit" : "the tab's row limit"}).
          {meta.maxRows !== null && meta.maxRows < ceiling ? (
            <Button size="small" onClick={() => onRerunWithMoreRows(nextLimit)}>
              Run again with {nextLimit.toLocaleString('en-US')} rows
            </Button>
          ) : null}
        </div>
      ) : null}
      {message ? (
        <div className="sql-flash" role="status">
          {message}
        </div>
      ) : null}
      <ResultRows
        meta={meta}
        label="Result rows"
        error={error}
        grid={grid}
        onSort={(next) => void applySort(next)}
        onOpenValue={openValue}
        onCopySelection={copySelection}
      >
        {value && field ? (
          <aside className="sql-value" aria-label="Value">
            <header className="sql-value-head">
              <strong>
                {field.name} · row {value.row + 1}
              </strong>
              <span className="muted"> {field.dataType}</span>
              <Button
                size="small"
                variant="ghost"
                onClick={() => setValue(null)}
                aria-label="Close value"
              >
                ×
              </Button>
            </header>
            {value.text === null ? (
              <p className="sql-null">NULL</p>
            ) : (
              <pre className="sql-value-text">
                {prettyValue(value.text, field.display === 'json')}
              </pre>
            )}
          </aside>
        ) : null}
      </ResultRows>
    </div>
  )
}

/** A result's grid: its sort (applied in main's SQL worker) and the rows selected. */
function useResultGrid(resultId: string) {
  const [sort, setSort] = useState<Sort>(null)
  const [selection, setSelection] = useState<GridSelection | null>(null)
  const sortBy = async (next: Sort) => {
    await bridge.call('sql.sort', {
      resultId,
      column: next?.column ?? null,
      direction: next?.direction ?? 'asc',
    })
    setSort(next)
  }
  return { sort, sortBy, selection, setSelection }
}

/** The error of what was last asked of a result, then its rows (when it has columns). */
function ResultRows({
  meta,
  label,
  error,
  grid,
  onSort,
  onOpenValue,
  onCopySelection,
  children,
}: {
  meta: SqlResultMeta
  label: string
  error: BridgeError | null
  grid: ReturnType<typeof useResultGrid>
  onSort(next: Sort): void
  onOpenValue(row: number, column: number): void
  onCopySelection(): void
  /** Beside the grid: the value opened from it. */
  children?: ReactNode
}) {
  return (
    <>
      {error ? <ErrorBanner error={error} /> : null}
      {meta.fields.length > 0 ? (
        <div className="sql-result-main">
          <ResultGrid
            meta={meta}
            label={label}
            sort={grid.sort}
            onSort={onSort}
            selection={grid.selection}
            onSelect={grid.setSelection}
            onOpenValue={onOpenValue}
            onCopySelection={onCopySelection}
          />
          {children}
        </div>
      ) : null}
    </>
  )
}

function prettyValue(text: string, json: boolean): string {
  if (!json && !/^\s*[[{]/.test(text)) return text
  return prettyJsonText(text) ?? text
}

interface ViewTabProps {
  selected: boolean
  /** A statement that failed: its tab is marked. */
  failed?: boolean
  onSelect(): void
  title?: string
  children: ReactNode
}

/** One tab of the pane's tab list: a result, the plan or the history. */
function ViewTab({ selected, failed = false, onSelect, title, children }: ViewTabProps) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={selected}
      className={`sql-results-tab${failed ? ' sql-results-tab-error' : ''}`}
      onClick={onSelect}
      title={title}
    >
      {children}
    </button>
  )
}
