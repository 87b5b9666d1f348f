import { useState } from 'react'
import type { BackgroundRefresh, BridgeError } from '../../../../shared/bridge'
import { useSettingsStore } from '../../app/settings-store'
import { useAppStore } from '../../app/store'
import { asBridgeError } from '../../bridge'
import { Button } from '../../ui/Button'
import { ErrorBanner } from '../../ui/ErrorBanner'
import {
  askForBrowserNotifications,
  browserNotificationPermission,
} from '../notifications/expiry-notifications'

/*
 * Background refresh: how often every signed-in profile's certificates and status
 * page are read again, saved as soon as chosen; and, in web mode, the browser's permission to
 * show the expiry notifications (the desktop app uses the system's own).
 */

const CHOICES: { value: BackgroundRefresh; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: '15min', label: 'Every 15 minutes' },
  { value: 'hourly', label: 'Hourly' },
  { value: 'daily', label: 'Daily' },
]

export function BackgroundRefreshChoice({ current: saved }: { current: BackgroundRefresh }) {
  const update = useSettingsStore((s) => s.update)
  const [choosing, setChoosing] = useState<BackgroundRefresh | null>(null)
  const [error, setError] = useState<BridgeError | null>(null)
  const current = choosing ?? saved
  // Saved at once, like the theme: the control shows the choice while main saves it, and a
  // refusal puts the saved value back and says why.
  async function choose(next: BackgroundRefresh) {
    setError(null)
    setChoosing(next)
    try {
      await update({ backgroundRefresh: next })
    } catch (caught) {
      setError(asBridgeError(caught))
    } finally {
      setChoosing(null)
    }
  }
  const mode = useAppStore((s) => s.mode)
  return (
    <fieldset className="card settings-group">
      <legend className="settings-legend">Background refresh</legend>
      <p className="muted">
        Certificates and the status page of every signed-in profile, read again in the background
        (slower while a profile is offline, paused while the computer sleeps). A certificate that
        expires or comes within 7 days of expiry is notified once.
      </p>
      <label className="settings-inline">
        <span>Refresh</span>
        <select
          className="input"
          aria-label="Background refresh"
          value={current}
          onChange={(event) => {
            const next = CHOICES.find((choice) => choice.value === event.target.value)
            if (next) void choose(next.value)
          }}
        >
          {CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {mode === 'web' ? <BrowserNotifications /> : null}
      {error ? <ErrorBanner error={error} context="Could not change the setting" /> : null}
    </fieldset>
  )
}

/** Web mode: notifications need the browser's permission, asked from a click. */
function BrowserNotifications() {
  const [permission, setPermission] = useState(browserNotificationPermission)
  if (permission === 'unsupported') {
    return <p className="muted">This browser cannot show notifications: they appear in the app.</p>
  }
  if (permission === 'granted') {
    return <p className="muted">Expiry notifications are shown by this browser.</p>
  }
  if (permission === 'denied') {
    return (
      <p className="muted">
        This browser blocks notifications from Infradesk (its site settings can allow them); they
        appear in the app instead.
      </p>
    )
  }
  return (
    <div className="settings-inline">
      <Button
        size="small"
        onClick={() => void askForBrowserNotifications().then(setPermission, () => undefined)}
      >
        Allow browser notifications
      </Button>
      <span className="muted">Until then, expiry notifications appear in the app.</span>
    </div>
  )
}
