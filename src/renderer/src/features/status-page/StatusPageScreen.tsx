import { useEffect, useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type { Incident, StatusComponent } from '../../../../shared/bridge/channels/operations'
import type { BridgeError } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { bridge } from '../../bridge'
import { isAuthError } from '../../lib/errors'
import { formatLocalFull } from '../../lib/time'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import { Outcome } from '../ops-common/Outcome'
import { WriteConfirm } from '../ops-common/WriteConfirm'
import '../ops-common/ops.css'
import './status-page.css'
import { useStatusPageStore } from './store'

/*
 * The status page as the public would see it (op 21): overall state, components by group, open
 * incidents with their updates, recently resolved ones; rendered as a page, never as JSON. Open
 * incidents can be resolved (op 18), always with a confirmation: the public page changes.
 */

const STATE_WORDS: Record<string, string> = {
  operational: 'All systems operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
}
const COMPONENT_WORDS: Record<string, string> = {
  operational: 'Operational',
  degraded_performance: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
}
const TONE: Record<string, 'success' | 'warning' | 'danger' | 'info' | 'neutral'> = {
  operational: 'success',
  degraded_performance: 'warning',
  partial_outage: 'danger',
  major_outage: 'danger',
  investigating: 'danger',
  identified: 'warning',
  monitoring: 'info',
  resolved: 'success',
  minor: 'warning',
  major: 'danger',
  critical: 'danger',
}

function words(value: string | undefined, table: Record<string, string>): string {
  if (value === undefined) return 'Unknown'
  return table[value] ?? value.replace(/_/g, ' ')
}

function isOpen(incident: Incident): boolean {
  return incident.status !== 'resolved'
}

function When({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span className="muted">—</span>
  const at = Date.parse(iso)
  if (!Number.isFinite(at)) return <>{iso}</>
  // Inline in a line of badges: relative, with the exact local time in the tooltip.
  return <RelativeTime at={at} />
}

function IncidentCard({
  incident,
  componentNames,
  onResolve,
  resolveDisabled,
}: {
  incident: Incident
  componentNames: Map<string, string>
  onResolve?: () => void
  resolveDisabled?: string | null
}) {
  const title = incident.title ?? incident.name ?? incident.id
  const affected = (incident.componentIds ?? []).map((id) => componentNames.get(id) ?? id)
  return (
    <article className="incident" aria-label={`Incident: ${title}`}>
      <header className="incident-header">
        <div>
          <h3>{title}</h3>
          <div className="incident-meta">
            <Badge tone={TONE[incident.status ?? ''] ?? 'neutral'}>
              {incident.status ?? 'unknown'}
            </Badge>
            {incident.impact ? (
              <Badge tone={TONE[incident.impact] ?? 'neutral'}>{incident.impact} impact</Badge>
            ) : null}
            <span className="muted">
              Started <When iso={incident.createdAt} />
            </span>
            {incident.resolvedAt ? (
              <span className="muted">
                Resolved <When iso={incident.resolvedAt} />
              </span>
            ) : null}
          </div>
          {affected.length > 0 ? (
            <div className="incident-affected">Affects: {affected.join(', ')}</div>
          ) : null}
          <div className="mono-small muted">{incident.id}</div>
        </div>
        {onResolve ? (
          <Button
            variant="primary"
            size="small"
            onClick={onResolve}
            disabled={resolveDisabled !== null && resolveDisabled !== undefined}
            title={resolveDisabled ?? 'Mark this incident resolved on the status page'}
            aria-label={`Resolve incident ${title}`}
          >
            Resolve…
          </Button>
        ) : null}
      </header>
      {incident.updates && incident.updates.length > 0 ? (
        <ol className="incident-updates" aria-label="Updates">
          {[...incident.updates].reverse().map((update, index) => (
            <li key={`${update.at ?? ''}-${index}`}>
              <strong>{update.status ?? 'update'}</strong>{' '}
              <span className="muted" title={update.at}>
                {update.at && Number.isFinite(Date.parse(update.at))
                  ? formatLocalFull(Date.parse(update.at))
                  : (update.at ?? '')}
              </span>
              <div>{update.message}</div>
            </li>
          ))}
        </ol>
      ) : null}
    </article>
  )
}

function ComponentList({ components }: { components: StatusComponent[] }) {
  const groups = new Map<string, StatusComponent[]>()
  for (const component of components) {
    const group = component.group ?? 'Components'
    groups.set(group, [...(groups.get(group) ?? []), component])
  }
  return (
    <div className="status-components">
      {[...groups.entries()].map(([group, list]) => (
        <section key={group} aria-label={group}>
          <h3>{group}</h3>
          <ul>
            {list.map((component, index) => (
              <li key={component.id ?? index} className="status-component">
                <span>
                  <span className="status-component-name">{component.name ?? component.id}</span>
                  {component.description ? (
                    <span className="muted"> — {component.description}</span>
                  ) : null}
                </span>
                <Badge tone={TONE[component.status ?? ''] ?? 'neutral'}>
                  {words(component.status, COMPONENT_WORDS)}
                </Badge>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

export function StatusPageScreen({ profile }: { profile: Profile }) {
  const store = useStatusPageStore()
  const offline = useAppStore((s) => s.connectivity[profile.id]?.offline ?? false)
  const { show, reloadCached } = store
  const [resolving, setResolving] = useState<Incident | null>(null)
  const [busy, setBusy] = useState(false)
  const [resolveError, setResolveError] = useState<BridgeError | null>(null)
  const [resolved, setResolved] = useState<Incident | null>(null)

  useEffect(() => {
    void show(profile.id, { refresh: profile.signedIn })
  }, [show, profile.id, profile.signedIn])

  useEffect(
    () =>
      bridge.on('cache.changed', (change) => {
        const mine = change.profileId === null || change.profileId === profile.id
        const about = change.tables.some((table) =>
          ['cached_items', 'cached_lists', 'operation_snapshots'].includes(table),
        )
        if (mine && about && !busy) void reloadCached()
      }),
    [reloadCached, profile.id, busy],
  )

  const current = store.profileId === profile.id ? store.state : null
  const page = current?.page ?? null
  const incidents = current?.items ?? []
  const open = incidents.filter(isOpen)
  const recent = incidents.filter((incident) => !isOpen(incident))
  const componentNames = new Map(
    (page?.components ?? []).flatMap((component) =>
      component.id ? [[component.id, component.name ?? component.id] as const] : [],
    ),
  )
  const error = store.error && !isAuthError(store.error) ? store.error : null
  const resolveDisabled = !profile.signedIn
    ? 'Signed out'
    : offline
      ? 'Unavailable while the service cannot be reached'
      : null

  async function confirmResolve() {
    if (!resolving) return
    setBusy(true)
    setResolveError(null)
    const failure = await store.resolve(resolving.id)
    setBusy(false)
    if (failure) {
      setResolveError(failure)
    } else {
      setResolved(resolving)
      setResolving(null)
    }
  }

  const overall = page?.overallStatus
  return (
    <section className="screen" aria-labelledby="status-page-title">
      <header className="screen-header">
        <div>
          <h1 id="status-page-title">Status page</h1>
          <p className="screen-subtitle">
            A preview of the public status page of <strong>{profile.name}</strong>
          </p>
        </div>
        <div className="screen-actions">
          <span className="updated" aria-live="polite">
            {store.refreshing ? (
              'Refreshing…'
            ) : current?.fetchedAt ? (
              <>
                Updated <RelativeTime at={current.fetchedAt} />
              </>
            ) : null}
          </span>
          <Button
            onClick={() => void store.refresh()}
            busy={store.refreshing}
            disabled={!profile.signedIn}
          >
            Refresh
          </Button>
        </div>
      </header>

      {error ? (
        <ErrorBanner
          error={error}
          context="Could not load the status page"
          action={<Button onClick={() => void store.refresh()}>Retry</Button>}
        />
      ) : null}

      {resolved ? (
        <Outcome title={`Incident resolved: ${resolved.title ?? resolved.id}`}>
          It no longer shows as open on the status page.
        </Outcome>
      ) : null}

      {!store.loaded || store.profileId !== profile.id ? (
        <p className="loading" role="status">
          Loading the status page…
        </p>
      ) : page === null ? (
        <p className="muted">No status page saved for this profile yet.</p>
      ) : (
        <div className="status-page" role="region" aria-label="Status page preview">
          <div className="status-page-head">
            <h2>{page.title ?? 'Status'}</h2>
            {page.publicUrl ? <span className="muted">{page.publicUrl}</span> : null}
          </div>
          <div
            className={`status-overall status-overall-${TONE[overall ?? ''] ?? 'neutral'}`}
            role="status"
            aria-label="Overall state"
          >
            {words(overall, STATE_WORDS)}
          </div>

          <section aria-labelledby="open-incidents-title" className="status-section">
            <h2 id="open-incidents-title">Open incidents ({open.length})</h2>
            {open.length === 0 ? (
              <p className="muted">No open incidents.</p>
            ) : (
              open.map((incident) => (
                <IncidentCard
                  key={incident.id}
                  incident={incident}
                  componentNames={componentNames}
                  resolveDisabled={resolveDisabled}
                  onResolve={() => {
                    setResolveError(null)
                    setResolved(null)
                    setResolving(incident)
                  }}
                />
              ))
            )}
          </section>

          <section aria-labelledby="components-title" className="status-section">
            <h2 id="components-title">Components</h2>
            <ComponentList components={page.components} />
          </section>

          <section aria-labelledby="resolved-title" className="status-section">
            <h2 id="resolved-title">Recently resolved</h2>
            {recent.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              recent.map((incident) => (
                <IncidentCard
                  key={incident.id}
                  incident={incident}
                  componentNames={componentNames}
                />
              ))
            )}
          </section>
          {page.generatedAt ? (
            <p className="muted status-generated">
              Generated <When iso={page.generatedAt} />
            </p>
          ) : null}
        </div>
      )}

      <WriteConfirm
        open={resolving !== null}
        profile={profile}
        title="Resolve this incident?"
        confirmLabel="Resolve incident"
        tone="primary"
        busy={busy}
        error={resolveError}
        onCancel={() => setResolving(null)}
        onConfirm={() => void confirmResolve()}
      >
        <p>
          <strong>{resolving?.title ?? resolving?.id}</strong> is marked resolved on the public
          status page, and the components it affects no longer count it.
        </p>
        <p>A resolved incident cannot be reopened from Infradesk.</p>
      </WriteConfirm>
    </section>
  )
}
