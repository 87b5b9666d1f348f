import { useEffect, useState } from 'react'
import type { SqlHistoryEntry } from '../../../../shared/bridge/channels/sql'
import { bridge } from '../../bridge'
import { useBridgeRead } from '../../lib/use-bridge-read'
import { concerns } from '../../lib/cache-events'
import { onCacheChange } from './cache-events'
import { Button } from '../../ui/Button'
import { FilterInput } from '../../ui/FilterInput'
import { RelativeTime } from '../../ui/RelativeTime'

/*
 * Query history of this profile and database, from SQLite: time, duration, rows, outcome.
 * Searchable; an entry reopens in a new tab.
 */

interface HistoryPanelProps {
  profileId: string
  databaseId: string
  onOpen(entry: SqlHistoryEntry): void
}

export function HistoryPanel({ profileId, databaseId, onOpen }: HistoryPanelProps) {
  const [search, setSearch] = useState('')
  const [version, setVersion] = useState(0)

  useEffect(
    () =>
      onCacheChange((change) => {
        if (concerns(change, ['sqlHistory'])) setVersion((value) => value + 1)
      }),
    [],
  )

  const history = useBridgeRead(
    () =>
      bridge.call('sql.history.list', {
        profileId,
        ...(databaseId ? { databaseId } : {}),
        ...(search.trim() ? { search } : {}),
        limit: 200,
      }),
    [profileId, databaseId, search, version],
    [],
  )
  const entries = history.value
  const error = history.error

  return (
    <section className="sql-history" aria-label="Query history">
      <FilterInput type="search" label="Search history" value={search} onChange={setSearch} />
      {error ? (
        <p role="alert">
          {error.code}: {error.message}
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p className="muted">No statements{search ? ' match' : ' yet'}.</p>
      ) : null}
      <ul className="sql-history-list">
        {entries.map((entry) => (
          <li key={entry.id} className={`sql-history-item sql-history-${entry.outcome}`}>
            <pre className="sql-history-sql">{entry.sql}</pre>
            <div className="sql-history-meta">
              <RelativeTime at={entry.startedAt} /> · {Math.round(entry.durationMs)} ms
              {entry.rowCount !== null
                ? ` · ${entry.rowCount.toLocaleString('en-US')} ${entry.rowCount === 1 ? 'row' : 'rows'}`
                : ''}{' '}
              ·{' '}
              <span className="sql-history-outcome">
                {entry.outcome === 'success' ? (entry.command ?? 'ok') : entry.outcome}
                {entry.errorCode ? ` (${entry.errorCode})` : ''}
              </span>
              <Button size="small" variant="ghost" onClick={() => onOpen(entry)}>
                Open in new tab
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}
