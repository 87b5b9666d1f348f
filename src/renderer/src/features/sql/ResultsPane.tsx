import { useEffect, useState, type ReactNode } from 'react'
import type { BridgeError } from '../../../../shared/bridge'
import type { SqlHistoryEntry, SqlResultMeta } from '../../../../shared/bridge/channels/sql'
import { SQL_MAX_ROWS } from '../../../../shared/bridge/channels/sql'
import { asBridgeError, bridge } from '../../bridge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { HistoryPanel } from './HistoryPanel'
import { prettyJsonText } from './pretty-json'
import { PlanTree } from './PlanTree'
import { ResultGrid, type GridSelection, type Sort } from './ResultGrid'
import type { StatementOutcome, TabRuntime } from './store'

/*
 * Below the editor: one result tab per statement run, the plan, and the history. A result
 * shows its meta (command tag, rows, duration, truncation), copy and save, and the grid; an
 * error shows its code, message and SQLSTATE.
 */

interface ResultsPaneProps {
  profileId: string
  databaseId: string
  runtime: TabRuntime
  onView(view: TabRuntime['view'], active?: number): void
  onRerunWithMoreRows(maxRows: number): void
  onOpenHistory(entry: SqlHistoryEntry): void
}

export function ResultsPane({
  profileId,
  databaseId,
  runtime,
  onView,
  onRerunWithMoreRows,
  onOpenHistory,
}: ResultsPaneProps) {
  const outcome = runtime.outcomes[runtime.active]
  return (
    <section className="sql-results" aria-label="Results">
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
            {item.error ? ' (error)' : ''}
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
        ) : outcome ? (
          <OutcomeView
            key={outcome.meta?.resultId ?? `error-${runtime.active}`}
            profileId={profileId}
            outcome={outcome}
            onRerunWithMoreRows={onRerunWithMoreRows}
          />
        ) : (
          <p className="muted sql-results-empty">
            {runtime.running
              ? 'Running…'
              : 'Run a statement with Ctrl+Enter (the one under the cursor, or the selection), or all of them with Shift+Ctrl+Enter.'}
          </p>
        )}
      </div>
    </section>
  )
}

function OutcomeView({
  profileId,
  outcome,
  onRerunWithMoreRows,
}: {
  profileId: string
  outcome: StatementOutcome
  onRerunWithMoreRows(maxRows: number): void
}) {
  if (outcome.error) return <SqlErrorView error={outcome.error} />
  if (!outcome.meta) return null
  return (
    <ResultView
      profileId={profileId}
      meta={outcome.meta}
      onRerunWithMoreRows={onRerunWithMoreRows}
    />
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

function SqlErrorView({ error }: { error: BridgeError }) {
  const { sqlState, position, message } = sqlErrorDetails(error)
  return (
    <div className="sql-error">
      <ErrorBanner error={error} />
      {message ? (
        <p className="sql-error-message" role="alert" aria-label="PostgreSQL error">
          {message}
        </p>
      ) : null}
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
    </div>
  )
}

function ResultView({
  profileId,
  meta,
  onRerunWithMoreRows,
}: {
  profileId: string
  meta: SqlResultMeta
  onRerunWithMoreRows(maxRows: number): void
}) {
  const [sort, setSort] = useState<Sort>(null)
  const [selection, setSelection] = useState<GridSelection | null>(null)
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
      await bridge.call('sql.sort', {
        resultId: meta.resultId,
        column: next?.column ?? null,
        direction: next?.direction ?? 'asc',
      })
      setSort(next)
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
      return `Copied ${copied.rows.toLocaleString('en-US')} rows as ${format.toUpperCase()}`
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
      return saved.path === null
        ? 'Not saved'
        : `Saved ${saved.rows.toLocaleString('en-US')} rows to ${saved.path}`
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
        {meta.fields.length > 0
          ? `${meta.rows.toLocaleString('en-US')} rows`
          : `${meta.rowCount ?? 0} rows affected`}
        {meta.rowCount !== null && meta.fields.length > 0 && meta.rowCount !== meta.rows
          ? ` of ${meta.rowCount.toLocaleString('en-US')}`
          : ''}
        {' · '}
        {Math.round(meta.elapsedMs).toLocaleString('en-US')} ms
        {meta.durationMs !== null
          ? ` (service ${meta.durationMs.toLocaleString('en-US', { maximumFractionDigits: meta.durationMs < 10 ? 2 : 0 })} ms)`
          : ''}
        {meta.truncated ? ' · truncated' : ''}
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
      {meta.truncated ? (
        <div className="banner banner-warning sql-truncated" role="status">
          Showing the first {meta.rows.toLocaleString('en-US')} rows only
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
      {error ? <ErrorBanner error={error} /> : null}
      {meta.fields.length > 0 ? (
        <div className="sql-result-main">
          <ResultGrid
            meta={meta}
            label="Result rows"
            sort={sort}
            onSort={(next) => void applySort(next)}
            selection={selection}
            onSelect={setSelection}
            onOpenValue={openValue}
            onCopySelection={copySelection}
          />
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
        </div>
      ) : null}
    </div>
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
