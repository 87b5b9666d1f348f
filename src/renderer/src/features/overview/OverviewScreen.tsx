import { lazy, Suspense, useEffect, type ReactNode } from 'react'
import type { Profile } from '../../../../shared/bridge'
import type { OverviewProfile } from '../../../../shared/bridge/channels/overview'
import { useAppStore } from '../../app/store'
import type { Route, RouteParams } from '../../app/routes'
import { ColorDot } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { plural } from '../../lib/time'
import { RelativeTime } from '../../ui/RelativeTime'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { ProfileStateCell, ReadAgainButton } from './ProfileState'
import { openForProfile, useOverviewStore } from './store'
// A plain <table class="table">: its look lives beside the Table component, which this screen
// (often the first one painted) does not load.
import '../../ui/table.css'
import './overview.css'

// The chart's code is not in the page's first script (this screen is in it): it loads while
// the figures are painted.
const ExpiryChart = lazy(() => import('./ExpiryChart'))

/*
 * Every profile at a glance, from the caches alone: its colour, last refresh,
 * online state, certificates expired / expiring within 7 / 30 days, open incidents of the
 * cached status page, transfers running. Every figure is a button that opens that profile's
 * screen, filtered to what the figure counts. A list never read shows "—" (not read yet), never
 * a 0 that would say there is nothing: background refresh reads a new profile at once.
 */

const HEADING: ScreenHeading = {
  id: 'overview-title',
  title: 'Overview',
  subtitle: 'Every profile, from what Infradesk has saved; Read again asks each service',
}

export function OverviewScreen(_props: { profile: Profile | null }) {
  const profiles = useAppStore((s) => s.profiles)
  const activeId = useAppStore((s) => s.activeId)
  const { overview, overviewError, loadOverview, ensureOverview, follow } = useOverviewStore()
  const expiryDays = useOverviewStore((s) => s.expiryDays)
  const loadExpiryDays = useOverviewStore((s) => s.loadExpiryDays)
  // Each overview read is followed by the chart's, once the figures are painted (the effect
  // runs after the commit that shows them; two frames later they are on the screen).
  useEffect(() => {
    if (overview === null) return
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => void loadExpiryDays())
    })
    return () => cancelAnimationFrame(frame)
  }, [overview, loadExpiryDays])
  const expiryDaysError = useOverviewStore((s) => s.expiryDaysError)

  useEffect(() => {
    void ensureOverview()
    return follow('overview')
  }, [ensureOverview, follow])

  const figures = new Map(overview?.profiles.map((entry) => [entry.profileId, entry]))
  const open = (profileId: string, route: Route, params?: RouteParams) =>
    void openForProfile(profileId, route, params)

  return (
    <section className="screen overview-screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING}>
        <Button onClick={() => useAppStore.getState().navigate('expiring')}>
          All expiring certificates
        </Button>
        <ReadAgainButton />
      </ScreenHeader>
      <ErrorBanner
        error={overviewError}
        context="Could not read the overview"
        onRetry={loadOverview}
      />
      {overview === null && overviewError === null ? (
        <p className="loading" role="status">
          Reading the overview…
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table
              className="table overview-table"
              aria-label="Profiles"
              aria-describedby="overview-counts-note"
            >
              <thead>
                <tr>
                  <th scope="col">Profile</th>
                  <th scope="col">State</th>
                  <th scope="col">Last refresh</th>
                  <th scope="col" className="overview-figure">
                    Expired
                  </th>
                  <th scope="col" className="overview-figure">
                    Within 7 days
                  </th>
                  <th scope="col" className="overview-figure">
                    Within 30 days
                  </th>
                  <th scope="col" className="overview-figure">
                    Open incidents
                  </th>
                  <th scope="col" className="overview-figure">
                    Transfers running
                  </th>
                </tr>
              </thead>
              <tbody>
                {profiles.map((profile) => (
                  <ProfileRow
                    key={profile.id}
                    profile={profile}
                    active={profile.id === activeId}
                    figures={figures.get(profile.id) ?? null}
                    open={open}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted overview-note" id="overview-counts-note">
            Counts are of every cached certificate, system certificates included (Certificates lists
            them with “Show system certificates”).
          </p>
        </>
      )}
      <ErrorBanner
        error={expiryDaysError}
        context="Could not read the expiry chart"
        onRetry={loadOverview}
      />
      {expiryDays !== null && overview !== null && profiles.length > 0 ? (
        <Suspense fallback={null}>
          <ExpiryChart
            days={expiryDays}
            profiles={profiles}
            unread={
              new Set(
                overview.profiles
                  .filter((entry) => entry.certificates === null)
                  .map((entry) => entry.profileId),
              )
            }
            open={open}
          />
        </Suspense>
      ) : null}
    </section>
  )
}

function ProfileRow({
  profile,
  active,
  figures,
  open,
}: {
  profile: Profile
  active: boolean
  figures: OverviewProfile | null
  open(profileId: string, route: Route, params?: RouteParams): void
}) {
  // Null: its certificate list was never read; undefined: the summary has not named it yet.
  const counts = figures?.certificates
  const figure = (
    label: string,
    value: number | null | undefined,
    route: Route,
    params: RouteParams,
    tone: 'danger' | 'warning' | null,
  ): ReactNode =>
    value === null || value === undefined ? (
      <span className="muted" title="Not read yet">
        <span aria-hidden="true">—</span>
        <span className="visually-hidden">{`${profile.name}: ${label}, not read yet`}</span>
      </span>
    ) : (
      <button
        type="button"
        className={`overview-count${value > 0 && tone ? ` overview-count-${tone}` : ''}`}
        aria-label={`${profile.name}: ${value} ${label}`}
        onClick={() => open(profile.id, route, params)}
      >
        {value}
      </button>
    )
  return (
    <tr data-profile={profile.name} aria-current={active ? 'true' : undefined}>
      <th scope="row">
        <button
          type="button"
          className="overview-profile"
          onClick={() => open(profile.id, 'certificates')}
          title={`${profile.baseUrl} — open its certificates`}
        >
          <ColorDot color={profile.color} />
          <span>{profile.name}</span>
        </button>
        {counts ? (
          <div className="muted overview-total">{plural(counts.total, 'certificate')} cached</div>
        ) : counts === null ? (
          <div className="muted overview-total">Certificates not read yet</div>
        ) : null}
      </th>
      <td>
        <ProfileStateCell profile={profile} />
      </td>
      <td>
        {figures?.lastRefreshAt == null ? (
          <span className="muted">Never</span>
        ) : (
          <RelativeTime at={figures.lastRefreshAt} />
        )}
      </td>
      <td className="overview-figure">
        {figure('expired', counts?.expired, 'certificates', { expiry: 'expired' }, 'danger')}
      </td>
      <td className="overview-figure">
        {figure(
          'expiring within 7 days',
          counts?.within7,
          'certificates',
          { expiry: '7' },
          'danger',
        )}
      </td>
      <td className="overview-figure">
        {figure(
          'expiring within 30 days',
          counts?.within30,
          'certificates',
          { expiry: '30' },
          'warning',
        )}
      </td>
      <td className="overview-figure">
        {figure('open incidents', figures?.openIncidents, 'status-page', {}, 'warning')}
      </td>
      <td className="overview-figure">
        {figure('transfers running', figures?.transfersRunning, 'transfers', {}, null)}
      </td>
    </tr>
  )
}
