import { useEffect } from 'react'
import { ActivityScreen } from '../features/activity/ActivityScreen'
import { InferenceScreen } from '../features/inference/InferenceScreen'
import { SessionsScreen } from '../features/sessions/SessionsScreen'
import { Notices } from './Notices'
import { OfflineBanner } from './OfflineBanner'
import { ProfileDialogs } from './ProfileDialogs'
import { ProfileSwitcher } from './ProfileSwitcher'
import { SignInDialog } from './SignInDialog'
import { isRoute, ROUTES, selectActiveProfile, useAppStore, type Route } from './store'

const NAVIGATION: Record<Route, { label: string; shortcut: string }> = {
  sessions: { label: 'Sessions', shortcut: '1' },
  inference: { label: 'Inference models', shortcut: '2' },
  activity: { label: 'Activity', shortcut: '3' },
}

/** The app once a profile exists: navigation and profile on the left, the screen on the right. */
export function Shell() {
  const route = useAppStore((s) => s.route)
  const navigate = useAppStore((s) => s.navigate)
  const profile = useAppStore(selectActiveProfile)
  const mode = useAppStore((s) => s.mode)
  const version = useAppStore((s) => s.version)

  // Alt+1..3 jump between screens; the hash keeps the place across a reload.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return
      const target = ROUTES.find((name) => NAVIGATION[name].shortcut === event.key)
      if (target) {
        event.preventDefault()
        navigate(target)
      }
    }
    const onHashChange = () => {
      const name = window.location.hash.replace(/^#\/?/, '')
      if (isRoute(name)) navigate(name)
    }
    window.addEventListener('keydown', onKeyDown)
    window.addEventListener('hashchange', onHashChange)
    return () => {
      window.removeEventListener('keydown', onKeyDown)
      window.removeEventListener('hashchange', onHashChange)
    }
  }, [navigate])

  return (
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
        <nav className="nav" aria-label="Main">
          <ul>
            {ROUTES.map((name) => (
              <li key={name}>
                <a
                  href={`#/${name}`}
                  className="nav-link"
                  aria-current={route === name ? 'page' : undefined}
                  aria-keyshortcuts={`Alt+${NAVIGATION[name].shortcut}`}
                  onClick={(event) => {
                    event.preventDefault()
                    navigate(name)
                  }}
                >
                  {NAVIGATION[name].label}
                  <kbd className="nav-shortcut" aria-hidden="true">
                    Alt {NAVIGATION[name].shortcut}
                  </kbd>
                </a>
              </li>
            ))}
          </ul>
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
          {route === 'activity' ? (
            <ActivityScreen profile={profile} />
          ) : !profile ? (
            <div className="empty-state">
              <h1>No profile selected</h1>
              <p>Choose a profile in the switcher on the left, or add one.</p>
            </div>
          ) : route === 'inference' ? (
            <InferenceScreen profile={profile} />
          ) : (
            <SessionsScreen profile={profile} />
          )}
        </main>
      </div>
      <ProfileDialogs />
      <SignInDialog />
    </div>
  )
}
