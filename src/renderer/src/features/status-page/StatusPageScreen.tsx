import { useEffect, useRef, useState } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type { Incident } from '../../../../shared/bridge/channels/operations'
import type { BridgeError } from '../../../../shared/bridge'
import { readIncident, readStatusPage } from '../../../../shared/status-page'
import type { ComponentReading, IncidentReading, StatusWord } from '../../../../shared/status-page'
import { useOperationRequest, type OperationRequest } from '../../app/operation-request'
import { useAppStore } from '../../app/store'
import { isAuthError } from '../../lib/errors'
import { formatLocalFull } from '../../lib/time'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { DismissibleBanner } from '../../ui/DismissibleBanner'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { MoreFields } from '../sessions/ExtraFields'
import { Outcome } from '../ops-common/Outcome'
import { WriteConfirm } from '../ops-common/WriteConfirm'
import '../ops-common/ops.css'
import { HealthStrip } from './HealthStrip'
import './status-page.css'
import { useStatusPageStore } from './store'

/*
 * The status page as the public would see it (op 21): overall state, components by group, open
 * incidents with their updates, recently resolved ones; rendered as a page, never as JSON. Open
 * incidents can be resolved (op 18), always with a confirmation: the public page changes.
 *
 * The preview's shape is the service's (the spec shows none): src/shared/status-page.ts reads
 * each thing by its known names (title or page.name, overallStatus or overall or state…, times
 * in seconds, milliseconds or ISO 8601), and every field it does not name is shown as is under
 * "More fields", so nothing the service sent is lost on the way to the screen.
 */

const STATE_WORDS: Record<string, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Under maintenance',
  unknown: 'State unknown',
}
const COMPONENT_WORDS: Record<string, string> = {
  operational: 'Operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Under maintenance',
  unknown: 'Unknown (no data)',
}
const TONE: Record<string, 'success' | 'warning' | 'danger' | 'info' | 'neutral'> = {
  operational: 'success',
  degraded: 'warning',
  partial_outage: 'danger',
  major_outage: 'danger',
  maintenance: 'info',
  unknown: 'neutral',
  investigating: 'danger',
  identified: 'warning',
  monitoring: 'info',
  resolved: 'success',
  minor: 'warning',
  major: 'danger',
  critical: 'danger',
  info: 'info',
  warning: 'warning',
}

/** Our words for a state we know; the service's own word (underscores as spaces) otherwise. */
function words(state: StatusWord, table: Record<string, string>): string {
  if (state.level !== null) return table[state.level] ?? state.level
  return state.text === null ? 'Not stated' : state.text.replace(/_/g, ' ')
}

function When({ at }: { at: number | null }) {
  if (at === null) return <span className="muted">—</span>
  // Inline in a line of badges: relative, with the exact local time in the tooltip. An
  // incident's times may lie ahead (scheduled maintenance), so the future is kept.
  return <RelativeTime at={at} tense="any" />
}

/** "Resolved 3 h ago": a moment the page names, left out when the service gave none. */
function Moment({ word, at, paragraph }: { word: string; at: number | null; paragraph?: string }) {
  if (at === null) return null
  const said = (
    <>
      {word} <When at={at} />
    </>
  )
  // A line of its own (with its class) under a section, or a note in a line of badges.
  return paragraph ? (
    <p className={`muted ${paragraph}`}>{said}</p>
  ) : (
    <span className="muted">{said}</span>
  )
}

function IncidentCard({
  incident,
  componentNames,
  onResolve,
  resolveDisabled,
}: {
  incident: IncidentReading
  componentNames: Map<string, string>
  onResolve?: () => void
  resolveDisabled?: string | null
}) {
  const title = incident.title ?? incident.id
  const affected = incident.componentIds.map((id) => componentNames.get(id) ?? id)
  const statusWord = incident.status.text ?? (incident.open ? 'open' : 'resolved')
  return (
    <article className="incident" aria-label={`Incident: ${title}`}>
      <header className="incident-header">
        <div>
          <h3>{title}</h3>
          <div className="incident-meta">
            <Badge tone={TONE[incident.status.stage ?? ''] ?? 'neutral'}>{statusWord}</Badge>
            {incident.impact ? (
              <Badge tone={TONE[incident.impact] ?? 'neutral'}>{incident.impact} impact</Badge>
            ) : null}
            <span className="muted">
              Started <When at={incident.startedAt} />
            </span>
            <Moment word="Resolved" at={incident.resolvedAt} />
          </div>
          {incident.message ? <p className="incident-message">{incident.message}</p> : null}
          {affected.length > 0 ? (
            <div className="incident-affected">Affects: {affected.join(', ')}</div>
          ) : null}
          <div className="mono-small muted">{incident.id}</div>
          <MoreFields extras={incident.extras} />
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
      {incident.updates.length > 0 ? (
        <ol className="incident-updates" aria-label="Updates">
          {[...incident.updates].reverse().map((update, index) => (
            <li key={`${update.at ?? ''}-${index}`}>
              <strong>{update.status ?? 'update'}</strong>{' '}
              {update.at !== null ? (
                <span className="muted">{formatLocalFull(update.at)}</span>
              ) : null}
              <div>{update.message}</div>
              <MoreFields extras={update.extras} />
            </li>
          ))}
        </ol>
      ) : null}
    </article>
  )
}

function ComponentList({ components }: { components: ComponentReading[] }) {
  const groups = new Map<string, ComponentReading[]>()
  // Components without a group sit under "Components", or "Ungrouped" beside named groups.
  const anyGroup = components.some((component) => component.group !== null)
  for (const component of components) {
    const group = component.group ?? (anyGroup ? 'Ungrouped' : 'Components')
    groups.set(group, [...(groups.get(group) ?? []), component])
  }
  return (
    <div className="status-components">
      {[...groups.entries()].map(([group, list]) => (
        <section key={group} aria-label={group}>
          <h3>{group}</h3>
          <ul>
            {list.map((component, index) => {
              const name = component.name ?? component.id ?? `Component ${index + 1}`
              return (
                <li key={component.id ?? index} className="status-component">
                  <div className="status-component-line">
                    <div>
                      <span className="status-component-name">{name}</span>
                      {component.description ? (
                        <span className="muted"> — {component.description}</span>
                      ) : null}
                      <MoreFields extras={component.extras} />
                    </div>
                    <Badge tone={TONE[component.status.level ?? ''] ?? 'neutral'}>
                      {words(component.status, COMPONENT_WORDS)}
                    </Badge>
                  </div>
                  <HealthStrip name={name} slots={component.history} />
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </div>
  )
}

/** Each cached incident read once per render of the list. */
function readIncidents(items: readonly Incident[]): IncidentReading[] {
  return items.map((item) => readIncident(item))
}

const RESOLVE_INCIDENT = ['resolveIncident'] as const

export function StatusPageScreen({ profile }: { profile: Profile }) {
  const store = useStatusPageStore()
  const offline = useAppStore((s) => s.connectivity[profile.id]?.offline ?? false)
  const routeParams = useAppStore((s) => s.routeParams)
  const navigate = useAppStore((s) => s.navigate)
  const { show, followCache } = store
  const [resolving, setResolving] = useState<IncidentReading | null>(null)
  const [busy, setBusy] = useState(false)
  const [resolveError, setResolveError] = useState<BridgeError | null>(null)
  const [resolved, setResolved] = useState<IncidentReading | null>(null)
  /** Why the incident the palette or a link named cannot be resolved here. */
  const [requestProblem, setRequestProblem] = useState<string | null>(null)
  /** The request a refresh was asked for, so an unknown id is looked for on the service once. */
  const refreshedFor = useRef<OperationRequest | null>(null)

  useEffect(() => {
    void show(profile.id, { refresh: profile.signedIn })
  }, [show, profile.id, profile.signedIn])

  // While a resolve is under way its answer brings the page: no read of the cache meanwhile.
  useEffect(() => followCache(profile.id, () => busy), [followCache, profile.id, busy])

  const current = store.profileId === profile.id ? store.state : null
  const page = current?.page ? readStatusPage(current.page) : null
  const incidents = readIncidents(current?.items ?? [])
  const open = incidents.filter((incident) => incident.open)
  const recent = incidents.filter((incident) => !incident.open)
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

  // The palette's "resolve incident <id>" (or a link): the incident's confirmation opens.
  useOperationRequest(RESOLVE_INCIDENT, (request) => {
    const id = request.ids['id']
    // Without an id the open incidents, each with its Resolve button, are the way on.
    if (id === undefined) return
    if (!store.loaded || store.profileId !== profile.id || busy) return false
    const incident = incidents.find((candidate) => candidate.id === id)
    if (incident === undefined) {
      // Not in the list shown: the service's own list may know it (the cache was older).
      if (store.refreshing) return false
      if (refreshedFor.current !== request && profile.signedIn && !offline) {
        refreshedFor.current = request
        void store.refresh()
        return false
      }
    }
    setResolved(null)
    setResolveError(null)
    if (incident === undefined) {
      setRequestProblem(`No incident with id ${id} is on the status page of ${profile.name}.`)
    } else if (!incident.open) {
      setRequestProblem(
        `Incident “${incident.title ?? incident.id}” is already resolved: there is nothing to resolve.`,
      )
    } else if (resolveDisabled !== null) {
      setRequestProblem(
        `Incident “${incident.title ?? incident.id}” cannot be resolved now: ${resolveDisabled.toLowerCase()}.`,
      )
    } else {
      setRequestProblem(null)
      setResolving(incident)
    }
  })

  /** Resolve on an incident's card: the confirmation opens, earlier outcomes put away. */
  function askToResolve(incident: IncidentReading) {
    setRequestProblem(null)
    setResolveError(null)
    setResolved(null)
    setResolving(incident)
  }

  /** The confirmation closed: the address no longer asks for it, so a reload does not reopen it. */
  function closeConfirm() {
    setResolving(null)
    if (Object.keys(routeParams).length > 0) navigate('status-page')
  }

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
      closeConfirm()
    }
  }

  return (
    <section className="screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING} profileName={profile.name} list={{ store, profile }} />

      <ErrorBanner error={error} context="Could not load the status page" onRetry={store.refresh} />

      {resolved ? (
        <Outcome title={`Incident resolved: ${resolved.title ?? resolved.id}`}>
          It no longer shows as open on the status page.
        </Outcome>
      ) : null}

      {requestProblem ? (
        <DismissibleBanner
          tone="warning"
          label="Incident not resolvable"
          onDismiss={() => setRequestProblem(null)}
        >
          {requestProblem}
        </DismissibleBanner>
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
            <h2>{page.title ?? 'Status page (no title sent)'}</h2>
            {page.url ? <span className="muted">{page.url}</span> : null}
          </div>
          {page.description ? <p className="status-page-description">{page.description}</p> : null}
          <div
            className={`status-overall status-overall-${TONE[page.overall.level ?? ''] ?? 'neutral'}`}
            role="status"
            aria-label="Overall state"
          >
            {words(page.overall, STATE_WORDS)}
          </div>
          <MoreFields extras={page.extras} label="More fields of the page" />

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
                  onResolve={() => askToResolve(incident)}
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
          <Moment word="Generated" at={page.generatedAt} paragraph="status-generated" />
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
        onCancel={closeConfirm}
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

/** The screen's heading; its section is labelled by the id. */
const HEADING: ScreenHeading = {
  id: 'status-page-title',
  title: 'Status page',
  subtitle: 'A preview of the public status page of',
}
