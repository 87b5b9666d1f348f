import {
  EXPIRING_ROUTE_HASH,
  type ExpirySummary,
} from '../../../../shared/bridge/channels/background-refresh'
import { useAppStore } from '../../app/store'
import { bridge } from '../../bridge'

/*
 * Background refresh's notifications in the renderer. The desktop app shows a system
 * notification from main and only says when it was clicked (`expiry.open`); web mode gets the
 * summary (`expiry.notification`) and shows it through the browser's Notification API when the
 * user allowed it (Settings), else as an in-app notice. Either way a click opens the Expiring
 * list.
 */

export function subscribeExpiryNotifications(): () => void {
  const stops = [
    bridge.on('expiry.open', () => openExpiringList()),
    bridge.on('expiry.notification', (summary) => show(summary)),
  ]
  return () => {
    for (const stop of stops) stop()
  }
}

/** Whether this browser can show notifications at all, and what the user decided. */
export function browserNotificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

/** Asks the browser (from a click: browsers refuse the question otherwise). */
export async function askForBrowserNotifications(): Promise<
  NotificationPermission | 'unsupported'
> {
  if (typeof Notification === 'undefined') return 'unsupported'
  return Notification.requestPermission()
}

function openExpiringList() {
  window.focus()
  if (window.location.hash !== EXPIRING_ROUTE_HASH) window.location.hash = EXPIRING_ROUTE_HASH
}

function show(summary: ExpirySummary) {
  if (browserNotificationPermission() === 'granted') {
    // One tag: a newer summary replaces an older one still on screen.
    const notification = new Notification(summary.title, {
      body: summary.body,
      tag: 'infradesk-expiry',
    })
    notification.onclick = () => {
      openExpiringList()
      notification.close()
    }
    return
  }
  useAppStore.getState().addNotice({
    id: `expiry-${Date.now()}`,
    level: 'warning',
    message: `${summary.title}. ${summary.body.replace(/\n/g, '; ')}`,
  })
}
