import type { ReactNode } from 'react'
import type { CachedListState } from '../lib/cached-list-store'
import { formatAge, formatLocalFull, toIso } from '../lib/time'
import { Button } from './Button'
import { RelativeTime } from './RelativeTime'
import { useNow } from './useNow'

/** How fresh a screen's list is: what the "Updated …" note says. */
export interface Freshness {
  refreshing: boolean
  /** When the shown list was read from the service; null when never (or none is shown). */
  fetchedAt: number | null
  /** The shown profile's list has been read (from the cache at least). */
  loaded: boolean
  /** The last refresh could not reach the service: the list is the saved one. */
  offline: boolean
}

/** A screen's heading: a module constant of each screen. */
export interface ScreenHeading {
  /** The heading's id: the screen's section is labelled by it. */
  id: string
  title: string
  subtitle: ReactNode
}

interface ScreenHeaderProps {
  heading: ScreenHeading
  /** The profile the screen is about, named in bold after the subtitle. */
  profileName?: string
  /** A cached list screen: its store and profile give the freshness note and Refresh button. */
  list?: { store: CachedListState; profile: { id: string; signedIn: boolean } }
  /** A log of every profile: the "Only <profile>" filter, first of the actions. */
  onlyProfile?: { name: string; checked: boolean; onChange(checked: boolean): void } | null
  /** The screen's actions, after the freshness note (and Refresh). */
  children?: ReactNode
}

/** A screen's title, subtitle and actions, with the freshness of its list. */
export function ScreenHeader(props: ScreenHeaderProps) {
  const { heading, profileName, list, onlyProfile, children } = props
  return (
    <header className="screen-header">
      <div>
        <h1 id={heading.id}>{heading.title}</h1>
        <p className="screen-subtitle">
          {heading.subtitle}
          {profileName === undefined ? null : (
            <>
              {' '}
              <strong>{profileName}</strong>
            </>
          )}
        </p>
      </div>
      <div className="screen-actions">
        {onlyProfile ? (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={onlyProfile.checked}
              onChange={(event) => onlyProfile.onChange(event.target.checked)}
            />{' '}
            Only {onlyProfile.name}
          </label>
        ) : null}
        {list ? <UpdatedNote {...freshnessOf(list.store, list.profile.id)} /> : null}
        {list ? <RefreshButton {...list} /> : null}
        {children}
      </div>
    </header>
  )
}

/**
 * "Refreshing…", "Updated 3 min ago" or "Never updated"; nothing before the list is read.
 * Offline, it says so and how old the saved list is, never "Updated just now".
 */
function UpdatedNote({ refreshing, fetchedAt, loaded, offline }: Freshness) {
  const now = useNow()
  return (
    <span className="updated" aria-live="polite">
      {refreshing ? (
        'Refreshing…'
      ) : offline && loaded ? (
        fetchedAt === null ? (
          'Offline · nothing saved yet'
        ) : (
          <>
            Offline · data from{' '}
            <time dateTime={toIso(fetchedAt)} title={formatLocalFull(fetchedAt)}>
              {formatAge(fetchedAt, now)}
            </time>
          </>
        )
      ) : fetchedAt !== null ? (
        <>
          Updated <RelativeTime at={fetchedAt} />
        </>
      ) : loaded ? (
        'Never updated'
      ) : null}
    </span>
  )
}

/** The list's freshness when it is the shown profile's; another profile's list: not read yet. */
function freshnessOf(store: CachedListState, profileId: string): Freshness {
  const current = store.profileId === profileId
  return {
    refreshing: store.refreshing,
    fetchedAt: current ? store.fetchedAt : null,
    loaded: current && store.loaded,
    offline: current && store.offline,
  }
}

function RefreshButton({ store, profile }: NonNullable<ScreenHeaderProps['list']>) {
  return (
    <Button
      onClick={() => void store.refresh()}
      busy={store.refreshing}
      disabled={!profile.signedIn}
      title={profile.signedIn ? 'Fetch the list from the service again' : 'Sign in first'}
    >
      Refresh
    </Button>
  )
}
