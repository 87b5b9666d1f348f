import { bridge } from '../bridge'
import { useSettingsStore } from './settings-store'
import { showRateLimitWait } from './rate-limit-notice'
import { useAppStore } from './store'
import { subscribeExpiryNotifications } from '../features/notifications/expiry-notifications'

/*
 * The app-wide reactions to what the main process pushes. Screens subscribe to `cache.changed`
 * themselves, while they are shown; these four matter wherever the user is.
 */
export function subscribeAppEvents(): () => void {
  const app = useAppStore.getState
  const unsubscribers = [
    bridge.on('profiles.changed', () => void app().reloadProfiles()),
    bridge.on('connectivity.changed', ({ profileId, online, error, checkedAt }) =>
      app().reportConnectivity(profileId, {
        offline: !online,
        error: online ? null : error,
        checkedAt,
      }),
    ),
    bridge.on('auth.required', ({ profileId, message }) => {
      app().requestSignIn({ profileId, message })
      void app().reloadProfiles()
    }),
    bridge.on('notice', (notice) => app().addNotice(notice)),
    bridge.on('service.waiting', showRateLimitWait),
    bridge.on('settings.changed', (settings) => useSettingsStore.getState().apply(settings)),
    // infradesk://migrations/<id>/resolve, handed over by the desktop shell.
    bridge.on('migrations.openResolve', ({ id }) => app().navigate('migrations', { id })),
    // Background refresh's expiry notifications.
    subscribeExpiryNotifications(),
  ]
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe()
  }
}
