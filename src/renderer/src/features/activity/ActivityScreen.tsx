import { useEffect, useState } from 'react'
import type { ActivityEntry, Profile } from '../../../../shared/bridge'
import { bridge } from '../../bridge'
import { concerns } from '../../lib/cache-events'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { Table, type Column } from '../../ui/Table'
import { useActivityStore } from './store'

const COLUMNS: Column<ActivityEntry>[] = [
  { key: 'at', header: 'Time', render: (e) => <RelativeTime at={e.at} withLocal /> },
  { key: 'profile', header: 'Profile', render: (e) => e.profileName },
  { key: 'operation', header: 'Operation', className: 'col-mono', render: (e) => e.operation },
  {
    key: 'target',
    header: 'Target',
    className: 'col-mono',
    render: (e) => e.targetId ?? <span className="muted">—</span>,
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
  const [onlyThisProfile, setOnlyThisProfile] = useState(false)
  const scope = onlyThisProfile && profile ? profile.id : null

  useEffect(() => {
    void load(scope)
  }, [load, scope])

  useEffect(
    () =>
      bridge.on('cache.changed', (change) => {
        if (concerns(change, ['activity'])) void load(scope)
      }),
    [load, scope],
  )

  return (
    <section className="screen" aria-labelledby={HEADING.id}>
      <ScreenHeader
        heading={HEADING}
        onlyProfile={
          profile
            ? { name: profile.name, checked: onlyThisProfile, onChange: setOnlyThisProfile }
            : null
        }
      >
        <Button onClick={() => void load(scope)} busy={loading}>
          Refresh
        </Button>
      </ScreenHeader>
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
          empty="Nothing has been changed through Infradesk yet."
        />
      )}
    </section>
  )
}

/** The screen's heading; its section is labelled by the id. */
const HEADING: ScreenHeading = {
  id: 'activity-title',
  title: 'Activity',
  subtitle: 'Every change made through Infradesk, newest first',
}
