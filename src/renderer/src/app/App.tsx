import { firstCalls } from '../page-start'
import { Button } from '../ui/Button'
import { ErrorBanner } from '../ui/ErrorBanner'
import { subscribeAppEvents } from './events'
import { useSettingsStore } from './settings-store'
import { Notices } from './Notices'
import { preloadStartScreen, preloadScreen, Shell, startActiveProfileRead } from './Shell'
import { followThemeSetting } from './theme'
import { selectActiveProfile, useAppStore } from './store'
import { Welcome } from './Welcome'

/**
 * Starts the app's state: the first bridge calls (app.info, profiles.list, settings), the
 * theme and the event stream. Called by main.tsx before React's first render, not from an
 * effect: an effect runs only after the splash has been rendered and committed, ~50 ms later
 * on a cold page, and every screen's first paint waits for these answers. Those calls, and the
 * Overview's, left earlier still, as the page's script began to evaluate (page-start.ts): here
 * they take those answers.
 */
export function startApp(): () => void {
  // Set before start() can finish: the first screen's read starts inside start()'s state
  // change, before React renders the shell for it.
  const stopPreload = useAppStore.subscribe((state, previous) => {
    if (previous.phase !== 'ready' && state.phase === 'ready') {
      preloadScreen(state.route, selectActiveProfile(state))
    }
  })
  const { route } = useAppStore.getState()
  preloadStartScreen(route)
  void useAppStore.getState().start()
  void useSettingsStore.getState().load()
  startActiveProfileRead(route)
  // Every first call has been made (the calls above send theirs before they first wait): an
  // answer sent ahead that none of them took would be stale for a later call.
  firstCalls.close()
  const stopTheme = followThemeSetting()
  const stopEvents = subscribeAppEvents()
  return () => {
    stopPreload()
    stopTheme()
    stopEvents()
  }
}

export function App() {
  const phase = useAppStore((s) => s.phase)
  const loadError = useAppStore((s) => s.loadError)
  const hasProfiles = useAppStore((s) => s.profiles.length > 0)
  const start = useAppStore((s) => s.start)

  if (phase === 'loading') {
    return (
      <div className="splash" role="status">
        Starting Infradesk…
      </div>
    )
  }
  if (phase === 'failed' && loadError) {
    return (
      <div className="splash">
        <ErrorBanner
          error={loadError}
          context="Infradesk could not start"
          action={<Button onClick={() => void start()}>Try again</Button>}
        />
      </div>
    )
  }
  if (!hasProfiles) {
    return (
      <>
        <Notices />
        <Welcome />
      </>
    )
  }
  return <Shell />
}
