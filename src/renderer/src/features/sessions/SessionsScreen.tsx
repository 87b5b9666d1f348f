import { useMemo, useState } from 'react'
import type { Session } from '../../../../shared/api'
import type { Profile } from '../../../../shared/bridge'
import { useAppStore } from '../../app/store'
import { Badge } from '../../ui/Badge'
import { Button } from '../../ui/Button'
import { ConfirmDialog } from '../../ui/ConfirmDialog'
import { ErrorBanner } from '../../ui/ErrorBanner'
import { RelativeTime } from '../../ui/RelativeTime'
import { ScreenHeader, type ScreenHeading } from '../../ui/ScreenHeader'
import { shownError, useCachedList } from '../../lib/cached-list-store'
import { isBrowserSessionOnly } from '../../lib/errors'
import { parseTimestamp, type Tense } from '../../lib/time'
import { VirtualTable, type RowSource, type SortableColumn } from '../../ui/VirtualTable'
import { ExtraFields } from './ExtraFields'
import { LogoutUrlOffer } from './LogoutUrlOffer'
import { useSessionsStore } from './store'
import './sessions.css'

const AUTH_METHOD_LABELS: Record<string, string> = {
  oidc: 'OIDC (single sign-on)',
  password: 'Password',
  email_otp: 'Email one-time code',
}

function Timestamp({ value, tense = 'past' }: { value: number | null; tense?: Tense }) {
  if (value === null) return <span className="muted">—</span>
  // Seconds or milliseconds (the unit is not in the spec): the app's one timestamp reader.
  const at = parseTimestamp(value)
  return at === null ? <>{String(value)}</> : <RelativeTime at={at} withLocal tense={tense} />
}

function Text({ value }: { value: string | null }) {
  return value === null ? <span className="muted">—</span> : <>{value}</>
}

/*
 * Nine fields do not fit nine columns on a laptop screen, so related ones share a cell: the
 * session (current badge, sign-in method, id, and any field the contract does not name) and the
 * client (IP address, user agent). Every field is still shown in full; nothing is truncated.
 */
function columnsFor(signedIn: boolean): SortableColumn<Session>[] {
  return [
    {
      key: 'session',
      header: 'Session',
      className: 'col-session',
      render: (s) => (
        <div className="cell-stack">
          <span className="cell-line">
            {s.isCurrent ? <CurrentBadge signedIn={signedIn} /> : null}
            <span title={`authMethod: ${s.authMethod}`}>
              {AUTH_METHOD_LABELS[s.authMethod] ?? s.authMethod}
            </span>
          </span>
          <span className="mono-small" title="Session ID">
            {s.id}
          </span>
          <ExtraFields session={s} />
        </div>
      ),
    },
    {
      key: 'createdAt',
      header: 'Created',
      sortField: 'createdAt',
      render: (s) => <Timestamp value={s.createdAt} />,
    },
    {
      key: 'lastSeenAt',
      header: 'Last seen',
      sortField: 'lastSeenAt',
      render: (s) => <Timestamp value={s.lastSeenAt} />,
    },
    {
      key: 'expiresAt',
      header: 'Expires',
      sortField: 'expiresAt',
      render: (s) => <Timestamp value={s.expiresAt} tense="any" />,
    },
    {
      key: 'mfaSatisfiedAt',
      header: 'MFA satisfied',
      sortField: 'mfaSatisfiedAt',
      render: (s) => <Timestamp value={s.mfaSatisfiedAt} />,
    },
    {
      key: 'client',
      header: 'Client',
      className: 'col-client',
      render: (s) => (
        <div className="cell-stack">
          <span className="mono-small" title="IP address">
            <Text value={s.ipAddress} />
          </span>
          <span className="agent" title="User agent">
            <Text value={s.userAgent} />
          </span>
        </div>
      ),
    },
  ]
}

const SIGNED_IN_COLUMNS = columnsFor(true)
const SIGNED_OUT_COLUMNS = columnsFor(false)

/**
 * The saved list's `isCurrent` was true when it was read; once the profile is signed out (logged
 * out, or its token refused) that session is no longer this app's, so it says so.
 */
function CurrentBadge({ signedIn }: { signedIn: boolean }) {
  if (signedIn) return <Badge tone="info">This session</Badge>
  return (
    <span title="This profile has signed out since the list was saved: this was its session then">
      <Badge>Was this session</Badge>
    </span>
  )
}

/** Where the profile's token lives decides what logging out deletes. */
function tokenFate(profile: Profile): string {
  return profile.tokenStorage === 'session'
    ? 'forgets the access token of this profile, which was kept for this session only (in memory, never in the system keychain)'
    : 'deletes the access token of this profile from the system keychain'
}

export function SessionsScreen({ profile }: { profile: Profile }) {
  const state = useSessionsStore()
  const offline = useAppStore((s) => s.connectivity[profile.id]?.offline ?? false)
  const requestSignIn = useAppStore((s) => s.requestSignIn)
  const [confirmingLogout, setConfirmingLogout] = useState(false)
  // Re-reading the cache is one window (a hundred rows), whatever the list's size.
  useCachedList(state, profile)

  const current = state.profileId === profile.id
  const { listKey, total, firstRows, loadRows, sort } = state
  const source = useMemo<RowSource<Session>>(
    () =>
      current
        ? { key: listKey, count: total, firstRows, load: loadRows, view: JSON.stringify(sort) }
        : { key: '', count: 0, firstRows: [], load: async () => [] },
    [current, listKey, total, firstRows, loadRows, sort],
  )
  // Auth problems are shown by the signed-out panel and the sign-in dialog, offline ones by the
  // app's offline banner; everything else is shown here.
  const shown = shownError(state, profile.id)
  // A service that keeps sessions for its web console refuses an API token here: a plain fact
  // about the token, said as such, not an error to retry.
  const browserOnly = isBrowserSessionOnly(shown) ? shown : null
  const error = browserOnly === null ? shown : null

  const logoutUnavailable = !profile.signedIn
    ? 'Signed out: there is no session to log out of'
    : offline
      ? 'Unavailable while the service cannot be reached'
      : null

  return (
    <section className="screen" aria-labelledby={HEADING.id}>
      <ScreenHeader heading={HEADING} profileName={profile.name} list={{ store: state, profile }}>
        <Button
          variant="danger"
          onClick={() => {
            state.clearLogoutState()
            setConfirmingLogout(true)
          }}
          disabled={logoutUnavailable !== null}
          title={logoutUnavailable ?? 'End this session on the service and forget the token'}
        >
          Log out
        </Button>
      </ScreenHeader>

      {current && state.lastLogout && !state.lastLogout.endedOnService ? (
        <div className="banner banner-success" role="status">
          <div className="banner-text">
            <div className="banner-title">Signed out of {profile.name}</div>
            <div className="banner-message">{state.lastLogout.message}</div>
          </div>
        </div>
      ) : null}

      {current && state.lastLogout?.endedOnService ? (
        <div className="banner banner-success" role="status">
          <div className="banner-text">
            <div className="banner-title">Logged out of {profile.name}</div>
            <div className="banner-message">The service said: “{state.lastLogout.message}”.</div>
            {state.lastLogout.logoutUrl ? (
              <LogoutUrlOffer
                url={state.lastLogout.logoutUrl}
                trusted={state.lastLogout.logoutUrlTrusted}
                opened={state.lastLogout.openedLogoutUrl}
              />
            ) : null}
          </div>
        </div>
      ) : null}

      {!profile.signedIn ? (
        <div className="banner banner-warning" role="status">
          <div className="banner-text">
            <div className="banner-title">Signed out of {profile.name}</div>
            <div className="banner-message">
              The list below is what was last saved. Sign in with a new access token to see the
              current sessions.
            </div>
          </div>
          <div className="banner-action">
            <Button
              variant="primary"
              onClick={() =>
                requestSignIn({ profileId: profile.id, message: `${profile.name} is signed out.` })
              }
            >
              Sign in…
            </Button>
          </div>
        </div>
      ) : null}

      <ErrorBanner error={error} context="Could not load sessions" onRetry={state.refresh} />

      {browserOnly !== null && profile.signedIn ? (
        <div className="banner banner-info" role="status" aria-label="Sessions not listed">
          <div className="banner-text">
            <div className="banner-title">Sessions are kept for the web console</div>
            <div className="banner-message">{browserOnly.message}</div>
          </div>
        </div>
      ) : null}

      {current && !state.loaded ? (
        <p className="loading" role="status">
          Loading sessions…
        </p>
      ) : browserOnly !== null && total === 0 ? null : (
        <VirtualTable
          label="Sessions"
          columns={profile.signedIn ? SIGNED_IN_COLUMNS : SIGNED_OUT_COLUMNS}
          estimateRowHeight={58}
          source={source}
          sort={state.sort}
          onSort={(sort) => void state.setSort(sort)}
          rowKey={(s) => s.id}
          rowClassName={(s) => (s.isCurrent && profile.signedIn ? 'row-current' : undefined)}
          empty={
            state.fetchedAt === null
              ? 'No sessions saved for this profile yet.'
              : 'No active sessions.'
          }
        />
      )}

      <ConfirmDialog
        open={confirmingLogout}
        title={`Log out of ${profile.name}?`}
        confirmLabel="Log out"
        busy={state.loggingOut}
        error={state.logoutError}
        onCancel={() => setConfirmingLogout(false)}
        onConfirm={() => {
          void state.logout().then((done) => {
            if (done) setConfirmingLogout(false)
          })
        }}
      >
        {browserOnly === null ? (
          <p>This ends the current session on the service and {tokenFate(profile)}.</p>
        ) : (
          <p>
            This service keeps sessions for its web console, so an API token has none to end.
            Logging out signs this profile out here and {tokenFate(profile)}; the token stays valid
            on the service until it is revoked there.
          </p>
        )}
        <p>The profile stays, signed out: using it again needs a new access token.</p>
        {profile.protected ? (
          <p>
            <Badge tone="danger">Protected</Badge> This is a protected environment.
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  )
}

/** The screen's heading; its section is labelled by the id. */
const HEADING: ScreenHeading = {
  id: 'sessions-title',
  title: 'Sessions',
  subtitle: 'Browser sessions of the signed-in user on',
}
