import {
  createElement,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useState,
  type ComponentType,
} from 'react'
import type { CaCertificate, Profile } from '../../../shared/bridge'
import { bridge } from '../bridge'
import { readActiveFirstScreenful, useCertificatesStore } from '../features/certificates/store'
import { OverviewScreen as OverviewScreenCode } from '../features/overview/OverviewScreen'
import { useOverviewStore } from '../features/overview/store'
import { Notices } from './Notices'
import { OfflineBanner } from './OfflineBanner'
import { ProfileDialogs } from './ProfileDialogs'
import { ProfileSwitcher } from './ProfileSwitcher'
import { ROUTE_GROUPS, ROUTE_INFO, ROUTES, type Route } from './routes'
import { SignInDialog } from './SignInDialog'
import { selectActiveProfile, useAppStore } from './store'
import { TrustCaContext } from '../ui/TrustCaOffer'

/*
 * Every screen but the Overview loads on its first visit, each in its own chunk: the page's
 * script (evaluated before the first bridge call can leave) carries only the Overview, where
 * every launch with profiles opens. The screen the app opens on starts loading with the app's
 * first calls (preloadStartScreen), and its first read leaves as soon as it can
 * (preloadScreen), so its code arrives while that read is on its way.
 *
 * A screen whose code is on its way is not a Suspense boundary's fallback: React holds back
 * the content that replaces a fallback until 300 ms after the fallback was shown (its
 * FALLBACK_THROTTLE_MS, against flicker), so a chunk that arrived in 30 ms still showed
 * "Loading…" for 300 and its first read left only then. The shell shows its own placeholder
 * and renders the screen in the same pass its code arrives (useScreenCode).
 */
interface LazyScreen<Props> {
  Screen: ComponentType<Props>
  /** Starts fetching the screen's code (once); settles when it is there (or failed). */
  load: () => Promise<unknown>
  /**
   * The screen to render now: its component once its code is here; the lazy one once loading
   * failed (it rethrows to the error boundary, as a failed import does); null while on its way.
   */
  ready: () => ComponentType<Props> | null
}

function lazyScreen<Module, Props>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType<Props>,
): LazyScreen<Props> {
  let loading: Promise<{ default: ComponentType<Props> }> | null = null
  let loaded: ComponentType<Props> | null = null
  let failed = false
  const start = () =>
    (loading ??= load().then(
      (module) => {
        loaded = pick(module)
        return { default: loaded }
      },
      (error: unknown) => {
        failed = true
        throw error
      },
    ))
  const Screen = lazy(start)
  return {
    Screen,
    load: () => start().catch(() => undefined),
    ready: () => loaded ?? (failed ? Screen : null),
  }
}

/** A screen whose code is in the entry chunk: always ready. */
function eagerScreen<Props>(Screen: ComponentType<Props>): LazyScreen<Props> {
  return { Screen, load: () => Promise.resolve(), ready: () => Screen }
}

/** The screen's component once its code is here; null (and a render when it comes) before. */
function useScreenCode<Props>(screen: LazyScreen<Props>): ComponentType<Props> | null {
  const [, arrived] = useState(0)
  const code = screen.ready()
  useEffect(() => {
    if (code !== null) return
    let shown = true
    void screen.load().then(() => {
      if (shown) arrived((count) => count + 1)
    })
    return () => {
      shown = false
    }
  }, [screen, code])
  return code
}

/**
 * The palette's code (and its list of every screen and operation) is not in the entry chunk: it
 * loads once the shell has painted, or on the first Ctrl+K if that comes sooner.
 */
const palette = lazyScreen(
  () => import('./CommandPalette'),
  (module) => module.CommandPalette,
)
const CommandPalette = palette.Screen

const SessionsScreen = lazyScreen(
  () => import('../features/sessions/SessionsScreen'),
  (module) => module.SessionsScreen,
)
const CertificatesScreen = lazyScreen(
  () => import('../features/certificates/CertificatesScreen'),
  (module) => module.CertificatesScreen,
)

const ActivityScreen = lazyScreen(
  () => import('../features/activity/ActivityScreen'),
  (module) => module.ActivityScreen,
)
const AppsScreen = lazyScreen(
  () => import('../features/apps/AppsScreen'),
  (module) => module.AppsScreen,
)
const DatabasesScreen = lazyScreen(
  () => import('../features/databases/DatabasesScreen'),
  (module) => module.DatabasesScreen,
)
const DeploymentsScreen = lazyScreen(
  () => import('../features/deployments/DeploymentsScreen'),
  (module) => module.DeploymentsScreen,
)
const InferenceScreen = lazyScreen(
  () => import('../features/inference/InferenceScreen'),
  (module) => module.InferenceScreen,
)
const LoggingScreen = lazyScreen(
  () => import('../features/logging/LoggingScreen'),
  (module) => module.LoggingScreen,
)
const MigrationsScreen = lazyScreen(
  () => import('../features/migrations/MigrationsScreen'),
  (module) => module.MigrationsScreen,
)
const NginxTemplatesScreen = lazyScreen(
  () => import('../features/nginx-templates/NginxTemplatesScreen'),
  (module) => module.NginxTemplatesScreen,
)
const ProxyRoutesScreen = lazyScreen(
  () => import('../features/proxy-routes/ProxyRoutesScreen'),
  (module) => module.ProxyRoutesScreen,
)
const SettingsScreen = lazyScreen(
  () => import('../features/settings/SettingsScreen'),
  (module) => module.SettingsScreen,
)
const SqlScreen = lazyScreen(
  () => import('../features/sql/SqlScreen'),
  (module) => module.SqlScreen,
)
const StatusPageScreen = lazyScreen(
  () => import('../features/status-page/StatusPageScreen'),
  (module) => module.StatusPageScreen,
)
const StorageScreen = lazyScreen(
  () => import('../features/storage/StorageScreen'),
  (module) => module.StorageScreen,
)
const TransfersScreen = lazyScreen(
  () => import('../features/transfers/TransfersScreen'),
  (module) => module.TransfersScreen,
)
const UserFoldersScreen = lazyScreen(
  () => import('../features/user-folders/UserFoldersScreen'),
  (module) => module.UserFoldersScreen,
)
/**
 * The Overview is the screen every launch with profiles opens on: its code (a few kB) is in the
 * entry chunk, so its first paint does not wait for a chunk asked for only once the page's
 * script has run (~50 ms more on a cold start, measured by `npm run bench -- overview`).
 */
const OverviewScreen = eagerScreen(OverviewScreenCode)
const ExpiringScreen = lazyScreen(
  () => import('../features/overview/ExpiringScreen'),
  (module) => module.ExpiringScreen,
)
const VolumesScreen = lazyScreen(
  () => import('../features/volumes/VolumesScreen'),
  (module) => module.VolumesScreen,
)

type ProfileScreen = LazyScreen<{ profile: Profile }>
type ProfileFreeScreen = LazyScreen<{ profile: Profile | null }>

/**
 * Each route's screen: most need the active profile; a few work without one. `preload` starts
 * a screen's first read before it is rendered, when the app opens on it (a screen that needs no
 * profile is given none).
 */
const SCREENS: Record<
  Route,
  | {
      needsProfile: true
      screen: ProfileScreen
      preload?: (profile: Profile) => void
      /** Starts the first read for main's active profile, before the app knows which it is. */
      startRead?: () => void
    }
  | { needsProfile: false; screen: ProfileFreeScreen; preload?: () => void }
> = {
  sessions: { needsProfile: true, screen: SessionsScreen },
  inference: { needsProfile: true, screen: InferenceScreen },
  certificates: {
    needsProfile: true,
    screen: CertificatesScreen,
    // Opened as it is (no figure or search in the hash: those filter the whole list), the
    // screen paints its first screenful before the whole list is read, and asks for the active
    // profile's with the app's first calls.
    startRead: () => {
      if (openedAsItIs()) readActiveFirstScreenful()
    },
    preload: (profile) =>
      useCertificatesStore.getState().preload(profile.id, { firstScreenful: openedAsItIs() }),
  },
  volumes: { needsProfile: true, screen: VolumesScreen },
  transfers: { needsProfile: false, screen: TransfersScreen },
  sql: { needsProfile: true, screen: SqlScreen },
  databases: { needsProfile: true, screen: DatabasesScreen },
  migrations: { needsProfile: true, screen: MigrationsScreen },
  'status-page': { needsProfile: true, screen: StatusPageScreen },
  deployments: { needsProfile: true, screen: DeploymentsScreen },
  'proxy-routes': { needsProfile: true, screen: ProxyRoutesScreen },
  storage: { needsProfile: true, screen: StorageScreen },
  logging: { needsProfile: true, screen: LoggingScreen },
  'nginx-templates': { needsProfile: true, screen: NginxTemplatesScreen },
  'user-folders': { needsProfile: true, screen: UserFoldersScreen },
  apps: { needsProfile: true, screen: AppsScreen },
  activity: { needsProfile: false, screen: ActivityScreen },
  settings: { needsProfile: false, screen: SettingsScreen },
  overview: {
    needsProfile: false,
    screen: OverviewScreen,
    preload: () => void useOverviewStore.getState().ensureOverview(),
  },
  expiring: { needsProfile: false, screen: ExpiringScreen },
}

/**
 * The app is about to show its first screen: start fetching that screen's code and its first
 * read now, so that both run while React renders the shell (~70 ms on a cold page) instead of
 * after it.
 */
export function preloadScreen(route: Route, profile: Profile | null): void {
  const entry = SCREENS[route]
  void entry.screen.load()
  if (!entry.needsProfile) entry.preload?.()
  else if (profile) entry.preload?.(profile)
}

/**
 * The app is starting on `route`: its code starts loading with the app's first calls instead
 * of after their answers, which it does not depend on, and so does its first read when it
 * needs no profile (the Overview, as every launch with profiles opens). A screen that needs a
 * profile reads once the answers say which one (preloadScreen), unless it can ask for main's
 * active profile's with them (startActiveProfileRead). If they say there is no profile (the
 * welcome screen), what was fetched is simply not shown.
 */
export function preloadStartScreen(route: Route): void {
  const entry = SCREENS[route]
  if (entry.needsProfile) void entry.screen.load()
  else preloadScreen(route, null)
}

/**
 * Right after the app's first calls: the first read of the screen the app starts on, for
 * main's active profile (a screen's `startRead`). Asked for after them, so main answers
 * `profiles.list` first: the shell cannot show the screen before it.
 */
export function startActiveProfileRead(route: Route): void {
  const entry = SCREENS[route]
  if (entry.needsProfile) entry.startRead?.()
}

/** The route has no parameters (no figure, search or selection the screen opens with). */
function openedAsItIs(): boolean {
  return Object.keys(useAppStore.getState().routeParams).length === 0
}

/** Alt+1…9 jump to the first nine screens of the navigation. */
const SHORTCUTS: Partial<Record<Route, string>> = {
  ...Object.fromEntries(ROUTES.slice(0, 9).map((route, index) => [route, String(index + 1)])),
  // Alt+0: every profile at a glance.
  overview: '0',
}

/** Ctrl+K, or Cmd+K on a Mac. */
function isPaletteShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k'
}

const SHORTCUT_LABEL = /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K'

/** The app once a profile exists: navigation and profile on the left, the screen on the right. */
export function Shell() {
  const route = useAppStore((s) => s.route)
  const navigate = useAppStore((s) => s.navigate)
  const profile = useAppStore(selectActiveProfile)
  const mode = useAppStore((s) => s.mode)
  const version = useAppStore((s) => s.version)
  const [paletteOpen, setPaletteOpen] = useState(false)

  // Alt+digit jumps between screens; the hash keeps the place (and its ids) across a reload.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isPaletteShortcut(event)) {
        event.preventDefault()
        // Not over another dialog: that one has the user's attention (and traps the focus).
        if (!document.querySelector('dialog[open]')) setPaletteOpen(true)
        return
      }
      // Escape before the palette's code arrived (its own dialog handles Escape once shown):
      // the user changed their mind, so it must not open afterwards.
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) {
        setPaletteOpen(false)
        return
      }
      if (!event.altKey || event.ctrlKey || event.metaKey) return
      const target = ROUTES.find((name) => SHORTCUTS[name] === event.key)
      if (target) {
        event.preventDefault()
        navigate(target)
      }
    }
    // The address's changes are the store's to follow (app/store.ts), from before any shell.
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [navigate])

  // Once the page is idle after its first frames: a timer set here fired before the first
  // screen's frame was on the screen, and the palette's code was fetched and evaluated on the
  // page's one thread while that frame waited (its first Ctrl+K loads it sooner).
  useEffect(() => {
    const idle = window.requestIdleCallback(() => void palette.load(), { timeout: 2_000 })
    return () => window.cancelIdleCallback(idle)
  }, [])

  // "Trust this CA for this profile" in any screen's TLS error: the active profile's list grows.
  const profileId = profile?.id ?? null
  const trustCa = useCallback(
    async (ca: CaCertificate) => {
      if (profileId === null) throw new Error('No profile is active')
      const network = await bridge.call('profiles.network', { id: profileId })
      const pems = network.trustedCas.map((trusted) => trusted.pem)
      if (!pems.includes(ca.pem)) pems.push(ca.pem)
      await bridge.call('profiles.update', { id: profileId, trustedCas: pems })
    },
    [profileId],
  )

  const entry = SCREENS[route]
  // Typed as the profile-free kind: a screen that needs a profile is rendered only with one.
  const screenCode = useScreenCode(entry.screen as ProfileFreeScreen)
  return (
    <TrustCaContext.Provider value={trustCa}>
      <div
        className="shell"
        style={profile ? { ['--profile-color' as string]: profile.color } : undefined}
      >
        <aside className="sidebar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true">
              ◆
            </span>{' '}
            Infradesk
          </div>
          <ProfileSwitcher />
          <button
            type="button"
            className="palette-button"
            aria-keyshortcuts="Control+K Meta+K"
            onClick={() => setPaletteOpen(true)}
          >
            <span>Go to or run…</span>
            <kbd aria-hidden="true">{SHORTCUT_LABEL}</kbd>
          </button>
          <nav className="nav" aria-label="Main">
            {ROUTE_GROUPS.map((group) => (
              <div className="nav-group" key={group}>
                <div className="nav-group-label" aria-hidden="true">
                  {group}
                </div>
                <ul aria-label={group}>
                  {ROUTES.filter((name) => ROUTE_INFO[name].group === group).map((name) => (
                    <li key={name}>
                      <a
                        href={`#/${name}`}
                        className="nav-link"
                        title={ROUTE_INFO[name].description}
                        aria-current={route === name ? 'page' : undefined}
                        aria-keyshortcuts={SHORTCUTS[name] ? `Alt+${SHORTCUTS[name]}` : undefined}
                        onClick={(event) => {
                          event.preventDefault()
                          navigate(name)
                        }}
                      >
                        {ROUTE_INFO[name].label}
                        {SHORTCUTS[name] ? (
                          <kbd className="nav-shortcut" aria-hidden="true">
                            Alt {SHORTCUTS[name]}
                          </kbd>
                        ) : null}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </nav>
          <div className="sidebar-footer">
            {mode === 'web' ? 'Web mode' : 'Desktop'} · v{version}
          </div>
        </aside>
        <div className="main">
          <div className="profile-strip" aria-hidden="true" />
          <Notices />
          <OfflineBanner />
          <main className="content">
            {screenCode === null ? (
              <p className="loading" role="status">
                Loading {ROUTE_INFO[route].label}…
              </p>
            ) : (
              // A screen's own lazy parts (the SQL editor) have their own boundaries.
              <Suspense fallback={null}>
                {entry.needsProfile && !profile ? (
                  <div className="empty-state">
                    <h1>No profile selected</h1>
                    <p>Choose a profile in the switcher on the left, or add one.</p>
                  </div>
                ) : (
                  // createElement: the component is module-level (one per screen, in SCREENS),
                  // which the lint rule against components made during render cannot see.
                  createElement(screenCode, { profile })
                )}
              </Suspense>
            )}
          </main>
        </div>
        {paletteOpen ? (
          // Nothing to show while its code loads (the first open only): the shortcut was seen.
          <Suspense fallback={null}>
            <CommandPalette open onClose={() => setPaletteOpen(false)} />
          </Suspense>
        ) : null}
        <ProfileDialogs />
        <SignInDialog />
      </div>
    </TrustCaContext.Provider>
  )
}
