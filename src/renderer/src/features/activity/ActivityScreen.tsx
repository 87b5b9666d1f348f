import { useEffect, useMemo, useState } from 'react'
import type { ActivityEntry, Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { bridge } from '../../bridge'
import { concerns } from '../../lib/cache-events'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { useKnownObject } from '../../lib/known-objects'
import { RelativeTime } from '../../ui/RelativeTime'
import { FilterSelect } from '../../ui/FilterSelect'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { Table, type Column } from '../../ui/Table'
import { AuditExport } from './AuditExport'
import {
  loggedOperations,
  NO_FILTERS,
  filterProblem,
  operationTitle,
  type ActivityFilters,
} from './filters'
import { useActivityStore } from './store'
// .field-error and .input[aria-invalid] (the reversed range), which no Field here loads.
import '../../ui/forms.css'
import './activity.css'

const COLUMNS: Column<ActivityEntry>[] = [
  { key: 'at', header: 'Time', render: (e) => <RelativeTime at={e.at} withLocal /> },
  { key: 'profile', header: 'Profile', render: (e) => e.profileName },
  {
    key: 'operation',
    header: 'Operation',
    render: (e) => (
      <span className="activity-operation">
        {operationTitle(e.operation)}
        {/* The contract's name too: what the service's documentation and the CLI call it. */}
        <code className="activity-operation-name">{e.operation}</code>
      </span>
    ),
  },
  {
    key: 'target',
    header: 'Target',
    render: (e) =>
      e.targetId === null ? (
        <span className="muted">—</span>
      ) : (
        <ActivityTarget profileId={e.profileId} id={e.targetId} />
      ),
  },
  {
    key: 'outcome',
    header: 'Outcome',
    render: (e) =>
      e.outcome === 'success' ? (
        <Badge tone="success">Success</Badge>
      ) : (
        <Badge tone="danger">Error</Badge>
      ),
  },
  {
    key: 'errorCode',
    header: 'Error code',
    className: 'col-mono',
    render: (e) =>
      e.errorCode ? (
        <span title={e.message ?? undefined}>{e.errorCode}</span>
      ) : (
        <span className="muted">—</span>
      ),
  },
  {
    key: 'message',
    header: 'Message',
    render: (e) => e.message ?? <span className="muted">—</span>,
  },
]

export function ActivityScreen({ profile }: { profile: Profile | null }) {
  const { entries, loading, loaded, error, load } = useActivityStore()
  const profiles = useAppStore((s) => s.profiles)
  const [filters, setFilters] = useState<ActivityFilters>(NO_FILTERS)
  const operationChoices = useMemo(
    () => loggedOperations().map(({ name, title }) => ({ value: name, text: title })),
    [],
  )
  const filtered = Object.values(filters).some((value) => value !== null)
  // A day that is not one, or a reversed range, is pointed out and never asked for: the last
  // list read stays meanwhile.
  const problem = filterProblem(filters)

  useEffect(() => {
    if (filterProblem(filters) === null) void load(filters)
  }, [load, filters])

  useEffect(
    () =>
      bridge.on('cache.changed', (change) => {
        if (concerns(change, ['activity']) && filterProblem(filters) === null) void load(filters)
      }),
    [load, filters],
  )

  function choose(next: Partial<ActivityFilters>) {
    setFilters((current) => ({ ...current, ...next }))
  }

  /** A select's value and what choosing in it changes. */
  function filterOn(
    key: 'profileId' | 'operation' | 'outcome',
    patch: (value: string | null) => Partial<ActivityFilters>,
  ) {
    return { value: filters[key], onChange: (value: string | null) => choose(patch(value)) }
  }

  return (
    <section className="screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING}>
        <Button onClick={() => void load(filters)} busy={loading} disabled={problem !== null}>
          Refresh
        </Button>
      </ScreenHeader>
      <div className="activity-filters" role="search" aria-label="Filter the activity log">
        <FilterSelect
          label="Filter by profile"
          any="All profiles"
          choices={profiles.map((choice) => ({
            value: choice.id,
            text: choice.id === profile?.id ? `${choice.name} (current)` : choice.name,
          }))}
          {...filterOn('profileId', (profileId) => ({ profileId }))}
        />
        <FilterSelect
          label="Filter by operation"
          any="Any operation"
          choices={operationChoices}
          {...filterOn('operation', (operation) => ({ operation }))}
        />
        <FilterSelect
          label="Filter by outcome"
          any="Any outcome"
          choices={OUTCOME_CHOICES}
          {...filterOn('outcome', (outcome) => ({
            outcome: outcome === 'success' || outcome === 'error' ? outcome : null,
          }))}
        />
        {/* Days typed as YYYY-MM-DD, like the times the log shows: a date picker writes the
            locale's mm/dd/yyyy beside ISO times. */}
        {DAY_FIELDS.map(({ field, label }) => {
          const invalid = problem !== null && problem.fields.includes(field)
          return (
            <label key={field} className="activity-day">
              <span>{label}</span>
              <input
                className="input activity-day-input"
                type="text"
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
                placeholder="YYYY-MM-DD"
                aria-label={`${label} day`}
                aria-invalid={invalid || undefined}
                aria-describedby={invalid ? RANGE_PROBLEM_ID : undefined}
                value={filters[field] ?? ''}
                onChange={(event) => choose({ [field]: event.target.value.trim() || null })}
              />
            </label>
          )
        })}
        {filtered ? (
          <Button size="small" onClick={() => setFilters(NO_FILTERS)}>
            Clear filters
          </Button>
        ) : null}
      </div>
      {problem === null ? null : (
        <p className="field-error activity-range-problem" id={RANGE_PROBLEM_ID} role="alert">
          {problem.message}
        </p>
      )}
      <AuditExport filters={filters} />
      {error ? <ErrorBanner error={error} context="Could not read the activity log" /> : null}
      {!loaded ? (
        <p className="loading" role="status">
          Loading activity…
        </p>
      ) : (
        <Table
          label="Activity"
          columns={COLUMNS}
          rows={entries}
          rowKey={(e) => String(e.id)}
          empty={
            filtered
              ? 'No line of the activity log matches these filters.'
              : 'Nothing has been changed through Infradesk yet.'
          }
        />
      )}
    </section>
  )
}

const RANGE_PROBLEM_ID = 'activity-range-problem'

/**
 * A line's target on one line: the name an answer gave it, then its id, cut with an ellipsis
 * when the column is narrow (a UUID wrapped over three lines made each row ~100 px tall). The
 * whole id stays in the text (copied whole, read whole by a screen reader) and in the tooltip.
 */
function ActivityTarget({ profileId, id }: { profileId: string; id: string }) {
  const name = useKnownObject(profileId, id)?.name ?? null
  const named = name !== null && name !== id
  return (
    <span className="activity-target" title={named ? `${name} · ${id}` : id}>
      {named ? (
        <>
          <span className="activity-target-name">{name}</span>
          <span className="muted" aria-hidden="true">
            {' · '}
          </span>
        </>
      ) : null}
      <span className="activity-target-id">{id}</span>
    </span>
  )
}

const DAY_FIELDS = [
  { field: 'fromDay', label: 'From' },
  { field: 'untilDay', label: 'Until' },
] as const

const OUTCOME_CHOICES = [
  { value: 'success', text: 'Success' },
  { value: 'error', text: 'Error' },
]

/** The screen's heading; its section is labelled by the id. */
const HEADING: ScreenHeading = {
  id: 'activity-title',
  title: 'Activity',
  subtitle:
    'Every change, export and SQL statement made through Infradesk, newest first; export it as an audit trail',
}
