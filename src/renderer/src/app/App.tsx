import { useEffect } from 'react'
import { Button } from '../ui/Button'
import { ErrorBanner } from '../ui/ErrorBanner'
import { subscribeAppEvents } from './events'
import { useSettingsStore } from './settings-store'
import { Notices } from './Notices'
import { Shell } from './Shell'
import { followThemeSetting } from './theme'
import { useAppStore } from './store'
import { Welcome } from './Welcome'

export function App() {
  const phase = useAppStore((s) => s.phase)
  const loadError = useAppStore((s) => s.loadError)
  const hasProfiles = useAppStore((s) => s.profiles.length > 0)
  const start = useAppStore((s) => s.start)

  useEffect(() => {
    void start()
    void useSettingsStore.getState().load()
    const stopTheme = followThemeSetting()
    const stopEvents = subscribeAppEvents()
    return () => {
      stopTheme()
      stopEvents()
    }
  }, [start])

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
