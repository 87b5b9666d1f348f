import { lazy, Suspense, useCallback, useEffect, useState, type ComponentType } from 'react'
import type { CaCertificate, Profile } from '../../../shared/bridge'
import { bridge } from '../bridge'
import { CertificatesScreen } from '../features/certificates/CertificatesScreen'
import { useCertificatesStore } from '../features/certificates/store'
import { SessionsScreen } from '../features/sessions/SessionsScreen'
import { CommandPalette } from './CommandPalette'
import { Notices } from './Notices'
import { OfflineBanner } from './OfflineBanner'
import { ProfileDialogs } from './ProfileDialogs'
import { ProfileSwitcher } from './ProfileSwitcher'
import { parseHash, ROUTE_GROUPS, ROUTE_INFO, ROUTES, type Route } from './routes'
import { SignInDialog } from './SignInDialog'
import { selectActiveProfile, useAppStore } from './store'
import { TrustCaContext } from '../ui/TrustCaOffer'

/*
 * Screens other than the two the app most often opens on load on their first visit, each in
 * its own chunk: the first paint does not wait for their code (and dnd-kit's) to be fetched,
 * parsed and run. Certificates (the biggest list) and Sessions (the default route) stay in the
 * entry chunk.
 */
function lazyScreen<Module, Props>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType<Props>,
): ComponentType<Props> {
  return lazy(async () => ({ default: pick(await load()) }))
}

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
const VolumesScreen = lazyScreen(
  () => import('../features/volumes/VolumesScreen'),
  (module) => module.VolumesScreen,
)

type ProfileScreen = ComponentType<{ profile: Profile }>
type ProfileFreeScreen = ComponentType<{ profile: Profile | null }>

/**
 * Each route's screen: most need the active profile; these two work without one. `preload`
 * starts a screen's first read before it is rendered, when the app opens on it.
 */
const SCREENS: Record<
  Route,
  (
    | { needsProfile: true; Screen: ProfileScreen }
    | { needsProfile: false; Screen: ProfileFreeScreen }
  ) & { preload?: (profile: Profile) => void }
> = {
  sessions: { needsProfile: true, Screen: SessionsScreen },
  inference: { needsProfile: true, Screen: InferenceScreen },
  certificates: {
    needsProfile: true,
    Screen: CertificatesScreen,
    preload: (profile) => useCertificatesStore.getState().preload(profile.id),
  },
  volumes: { needsProfile: true, Screen: VolumesScreen },
  transfers: { needsProfile: false, Screen: TransfersScreen },
  sql: { needsProfile: true, Screen: SqlScreen },
  databases: { needsProfile: true, Screen: DatabasesScreen },
  migrations: { needsProfile: true, Screen: MigrationsScreen },
  'status-page': { needsProfile: true, Screen: StatusPageScreen },
  deployments: { needsProfile: true, Screen: DeploymentsScreen },
  'proxy-routes': { needsProfile: true, Screen: ProxyRoutesScreen },
  storage: { needsProfile: true, Screen: StorageScreen },
  logging: { needsProfile: true, Screen: LoggingScreen },
  'nginx-templates': { needsProfile: true, Screen: NginxTemplatesScreen },
  'user-folders': { needsProfile: true, Screen: UserFoldersScreen },
  apps: { needsProfile: true, Screen: AppsScreen },
  activity: { needsProfile: false, Screen: ActivityScreen },
  settings: { needsProfile: false, Screen: SettingsScreen },
}

/**
 * The app is about to show its first screen: start that screen's first read now, so that it
 * runs while React renders the shell (~70 ms on a cold page) instead of after it.
 */
export function preloadScreen(route: Route, profile: Profile | null): void {
  const { preload } = SCREENS[route]
  if (preload && profile) preload(profile)
}

/** Alt+1…9 jump to the first nine screens of the navigation. */
const SHORTCUTS: Partial<Record<Route, string>> = Object.fromEntries(
  ROUTES.slice(0, 9).map((route, index) => [route, String(index + 1)]),
)

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
      if (!event.altKey || event.ctrlKey || event.metaKey) return
      const target = ROUTES.find((name) => SHORTCUTS[name] === event.key)
      if (target) {
        event.preventDefault()
        navigate(target)
      }
    }
    const onHashChange = () => {
      const parsed = parseHash(window.location.hash)
      if (parsed) navigate(parsed.route, parsed.params)
    }
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener('hashchange', onHashChange)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener('hashchange', onHashChange)
    }
  }, [navigate])

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

  const screen = SCREENS[route]
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
            <Suspense
              fallback={
                <p className="loading" role="status">
                  Loading {ROUTE_INFO[route].label}…
                </p>
              }
            >
              {!screen.needsProfile ? (
                <screen.Screen profile={profile} />
              ) : !profile ? (
                <div className="empty-state">
                  <h1>No profile selected</h1>
                  <p>Choose a profile in the switcher on the left, or add one.</p>
                </div>
              ) : (
                <screen.Screen profile={profile} />
              )}
            </Suspense>
          </main>
        </div>
        <CommandPalette open={paletteOpen} onClose={() => setPaletteOpen(false)} />
        <ProfileDialogs />
        <SignInDialog />
      </div>
    </TrustCaContext.Provider>
  )
}
